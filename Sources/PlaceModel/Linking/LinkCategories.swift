import Synchronization
import Foundation

/// Category compatibility across vocabularies: Google's Places types, the
/// types placedb derives from OSM tags (`OSMTypeMapping`), Overture's
/// category codes (`fast_food_restaurant`, `estate_planning_law`) and
/// path-like categories ("Dining and Drinking > Restaurant"). A category is
/// cut into words; each word it holds puts it into broad groups (a bit
/// each). Two records are compatible when their groups meet: `car_wash`
/// and `gas_station` (automotive), `restaurant` and `fast_food`
/// (food), `hotel` and `bed_and_breakfast` (lodging).
package enum LinkCategories {
    public enum Group: Int, CaseIterable, Sendable {
        case food, drink, lodging, health, automotive, shopping, grocery, finance, legal, realEstate, beauty, education,
            worship, fitness, outdoors, culture, government, transport, homeServices, technology, community, business,
            pets,
            entertainment
    }

    static let words: [String: [Group]] = {
        var m: [String: [Group]] = [:]
        func add(_ g: Group, _ list: String) {
            for w in list.split(separator: " ") { m[String(w), default: []].append(g) }
        }
        add(
            .food,
            "food restaurant restaurants eatery eat dining diner cafe cafeteria coffee bakery pizza pizzeria burger burgers sushi fast takeaway take_out deli sandwich sandwiches bistro grill steakhouse steak bbq barbecue kebab noodle noodles ramen taco tacos mexican italian chinese japanese indian thai korean vietnamese french american seafood chicken breakfast brunch dessert desserts ice cream donut donuts bagel bagels tea juice smoothie food_court catering caterer patisserie confectionery candy chocolate snack buffet canteen trattoria brasserie creperie tapas dim"
        )
        add(
            .drink,
            "bar bars pub pubs beer brewery brewpub wine winery cocktail lounge nightclub night club tavern biergarten liquor alcohol drinking drinks coffee cafe tea"
        )
        add(
            .lodging,
            "hotel hotels motel motels hostel hostels lodging accommodation resort resorts inn guest guesthouse guest_house bed breakfast b&b chalet campground camping camp rv cottage villa apartment apartments vacation holiday rental suites pension panzio mountain_hut"
        )
        add(
            .health,
            "hospital hospitals clinic clinics medical medicine doctor doctors physician physicians dentist dentists dental orthodontist health healthcare pharmacy pharmacies drugstore chemist pediatric pediatrics pediatrician surgeon surgery therapy therapist physiotherapist physical chiropractor optometrist optician eye vision hearing cardiology cardiologist dermatology dermatologist oncology cancer kidney urgent emergency nursing care psychologist psychiatrist counseling mental laboratory lab diagnostic radiology imaging orthopedic podiatrist veterinary vet obstetrics gynecology internal family practitioner endocrinology neurology rehabilitation medical_center"
        )
        add(
            .automotive,
            "car cars auto automotive automobile vehicle vehicles gas fuel petrol station_gas charging tire tires tyre tyres oil lube wash carwash car_wash repair mechanic garage body collision parts dealer dealership motorcycle truck trucks towing rental_car parking"
        )
        add(
            .shopping,
            "store stores shop shops shopping retail retailer market boutique mall outlet department clothing clothes apparel fashion shoes shoe jewelry jeweler gift gifts electronics furniture hardware home_improvement books book toy toys sporting sports_wear gear outdoor discount thrift variety dollar florist flowers cosmetics perfume optical eyewear mobile phone phones cell accessories supply supplies wholesaler wholesale pawn bicycle bike music video games hobby craft fabric art_supplies mattress appliance appliances kitchen"
        )
        add(
            .grocery,
            "supermarket supermarkets grocery groceries convenience market hypermarket greengrocer butcher food_store minimarket bodega organic"
        )
        add(
            .finance,
            "bank banks banking atm credit union financial finance loan loans mortgage insurance ins accountant accounting tax investment investing broker brokerage money exchange bureau_de_change wealth payday"
        )
        add(
            .legal,
            "law lawyer lawyers attorney attorneys legal notary probate wills trusts estate_planning_law paralegal court courthouse"
        )
        add(
            .realEstate,
            "real estate realtor realtors property properties realty housing home_developer developer apartments condominium condo leasing rental"
        )
        add(
            .beauty,
            "beauty salon salons hair hairdresser barber barbershop nail nails spa spas skin skin_care cosmetic cosmetology massage tattoo piercing waxing tanning makeup esthetician aesthetics lash brow"
        )
        add(
            .education,
            "school schools university college academy education educational kindergarten preschool tutoring tutor training institute learning library language driving daycare child_care montessori"
        )
        add(
            .worship,
            "church churches mosque temple synagogue worship religious religion chapel cathedral parish monastery shrine place_of_worship hindu_temple buddhist"
        )
        add(
            .fitness,
            "gym gyms fitness yoga pilates crossfit sport sports sports_complex stadium martial arts boxing dance swimming pool tennis golf climbing bowling ice skating"
        )
        add(
            .outdoors,
            "park parks garden gardens playground nature reserve beach trail hiking campground lake forest zoo viewpoint picnic marina"
        )
        add(
            .culture,
            "museum museums gallery art arts theater theatre cinema movie performing cultural culture landmark historical historic monument memorial tourist attraction heritage concert"
        )
        add(
            .government,
            "government city_hall townhall police fire post post_office embassy consulate municipal public office_of court courthouse administration"
        )
        add(
            .transport,
            "airport station train bus transit railway subway metro ferry terminal taxi parking port transportation logistics shipping freight moving courier"
        )
        add(
            .homeServices,
            "laundry laundromat dry_cleaning dry cleaners paint storage moving repair contractor contractors plumber plumbing electrician electrical hvac heating cooling air_conditioning roofing roofer construction builder builders landscaping landscaper cleaning cleaner janitorial pest painter painting carpenter carpentry handyman locksmith home_cleaning flooring remodeling renovation mechanical"
        )
        add(
            .technology,
            "computer computers it software internet technology tech telecommunications telecom electronics web digital data network information_technology_company internet_service_provider"
        )
        add(
            .community,
            "community non_profit nonprofit non profits organization organizations association club social charity foundation services_non_profits center"
        )
        add(
            .business,
            "corporate office offices company business consulting consultant agency marketing advertising professional services printing print copy design industrial manufacturing factory equipment"
        )
        add(.pets, "pet pets veterinary vet animal grooming kennel")
        add(.entertainment, "entertainment casino amusement arcade karaoke bowling escape event events venue wedding")
        return m
    }()

    /// Words of a category too vague to group by.
    static let vague: Set<String> = [
        "point", "of", "interest", "establishment", "and", "services", "service", "other", "place", "location", "&",
        ">", "premise", "store_generic", "center", "centre",
    ]

    /// The groups of one category string (a bit per `Group`).
    public static func groups(_ category: String) -> UInt32 { info(category).groups }

    /// What linking reads of one category string, computed once a string
    /// (the vocabularies are small): its groups, the hash of its
    /// `LinkText.categoryKey` (0 for a generic one), the facility kind bit
    /// its key names (-1 for none).
    struct Info: Sendable { var groups: UInt32; var key: UInt64; var facility: Int }

    static func info(_ category: String) -> Info {
        if let known = cache.withLock({ $0[category] }) { return known }
        let key = LinkText.categoryKey(category)
        let facility = LinkRecord.facilityCategories[key].flatMap { LinkRecord.facilityKinds[$0] } ?? -1
        let info = Info(
            groups: computeGroups(category), key: isGeneric(category) || isGeneric(key) ? 0 : LinkText.hash(key),
            facility: facility)
        cache.withLock { if $0.count < 50_000 { $0[category] = info } }
        return info
    }

    static let cache = Mutex<[String: Info]>([:])

    static func computeGroups(_ category: String) -> UInt32 {
        // A path ("Business and Professional Services > Laundry Service"):
        // its last segment says what the place is; the whole path only
        // when the last says nothing known.
        if category.contains(">"), let last = category.split(separator: ">").last {
            let bits = computeGroups(String(last))
            if bits != 0 { return bits }
            return computeGroups(category.replacingOccurrences(of: ">", with: " "))
        }
        var bits: UInt32 = 0
        let lower = category.lowercased()
        if let gs = words[lower] { for g in gs { bits |= 1 << UInt32(g.rawValue) } }
        for w in lower.split(whereSeparator: { !($0.isLetter || $0.isNumber) }) {
            let s = String(w)
            if vague.contains(s) { continue }
            if let gs = words[s] { for g in gs { bits |= 1 << UInt32(g.rawValue) } }
        }
        return bits
    }

    /// Categories that say nothing of the place's kind.
    static let generic: Set<String> = [
        "point_of_interest", "establishment", "premise", "store", "food", "health", "finance", "professional_services",
        "local_business", "shopping", "retail", "services", "service", "professional_service", "business", "other",
        "poi",
    ]

    public static func isGeneric(_ category: String) -> Bool { generic.contains(category) }
}
