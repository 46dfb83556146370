// The links of `placedb-bench eval-link-drift` that join two different OSM
// IDs not listed as redraws in osm/derived, each looked at by hand in the
// two snapshots (names, tags, geometry, whether either ID lives on), with
// the verdict. The OSM ID is no truth for "the same place" where a node
// was deleted and the place drawn again as a building (a new ID, the same
// place); this table says which of those links are right.
enum LinkDriftReview {
    enum Verdict: Hashable {
        /// The same physical place under a new OSM ID.
        case same
        /// The same physical place that the newer data maps twice (two
        /// live OSM objects): right as a place, wrong by the OSM ID.
        case duplicate
        /// Two different places: a wrong link.
        case different
    }

    /// "old new" (placedb's spelling, the newer ID as in its snapshot) -> verdict.
    static let verdicts: [String: Verdict] = Dictionary(
        uniqueKeysWithValues: reviewed.map { ("\($0.old) \($0.new)", $0.verdict) })

    static let reviewed: [(old: String, new: String, verdict: Verdict, note: String)] = [
        // Andorra 2013-05-28 against 2021-10-28.
        ("osm:n899525869", "osm:w432400655", .same, "Refugi del Pla de l'Estany: the hut drawn as a building, 9 m"),
        ("osm:n45161233", "osm:n366540873", .same, "Pic de la Serrera: the peak re-added, same name and elevation"),
        ("osm:n820952919", "osm:w360986389", .same, "Hotel Piolets (Soldeu Centre): drawn as a building"),
        ("osm:n1502698210", "osm:n3750584753", .same, "Pic de Montestaure: re-added, same elevation"),
        ("osm:n590463659", "osm:w968930602", .same, "Hotel (Spa) Princesa Parc: drawn as a building"),
        ("osm:n1051748862", "osm:w360986388", .same, "Hotel Himalaia Soldeu: drawn as a building"),
        ("osm:n899525984", "osm:w371478743", .same, "Refugi de (la) Comapedrosa: same elevation, drawn as a building"),
        (
            "osm:n2089883001", "osm:n4340934045", .same,
            "Roia de Mollàs: now Pic des Rouges, name:ca Pic de la Roia de Mollàs, same elevation"
        ),
        ("osm:n590463652", "osm:w298161509", .same, "Hotel St. / Sant Gothard: drawn as a building"),
        ("osm:n1051748855", "osm:w398297651", .same, "(Sport) Hotel Hermitage: drawn as a building"),
        ("osm:n1051748875", "osm:w398297653", .same, "Hotel Sport / Sport Hotel: drawn as a building"),
        ("osm:n968205272", "osm:w392137331", .same, "Refugi de Prat Primer: the shelter drawn as a building, 1 m"),
        ("osm:n2050318163", "osm:w371164435", .same, "Naturlandia: the theme park drawn as an area"),
        ("osm:n529941178", "osm:w202638053", .same, "(Museu) Casa d'Areny-Plandolit: drawn as a building"),
        ("osm:n1699630945", "osm:w761820172", .same, "Hotel Piolets et Spa / Park Piolets Mountain Hotel & Spa"),
        ("osm:n1578367368", "osm:w352338250", .same, "Pyrénées department store: same address and phone"),
        (
            "osm:n2304249711", "osm:w432400670", .same,
            "Refugi de Coms de Jan: the hut drawn as a building, same elevation (alpine_hut, then wilderness_hut)"
        ),
        // Liechtenstein 2015-07-27 against 2021-10-28.
        ("osm:n687031273", "osm:n4762971792", .same, "Restaurant Pur: re-added with its address"),
        ("osm:n26860698", "osm:w173914142", .same, "Camping Mittagspitze: drawn as an area"),
        ("osm:n1378081835", "osm:w529570138", .same, "Marktplatz (parking): now the Marktplatz Garage, underground"),
        ("osm:n315636886", "osm:w514861113", .same, "Marktplatz (parking): now the Marktplatz Garage, multi-storey"),
        ("osm:n454901059", "osm:w105541139", .same, "Gafadurahütte: drawn as a building"),
        ("osm:n761534815", "osm:w297699582", .same, "Restaurant Edelweiss: drawn as a building"),
        ("osm:r3990462", "osm:n9182090458", .same, "Bushof / Schaan Bahnhof bus station"),
        ("osm:w39326626", "osm:w455392952", .same, "Parkplatz Säga: redrawn"),
        (
            "osm:w189749248", "osm:r5422383", .duplicate,
            "Bangs-Matschels Natura 2000 area: the 2021 data has it as a way and a relation"
        ),
        ("osm:w189749249", "osm:r5401257", .duplicate, "Spirkenwälder Saminatal: a way and a relation in 2021"),
        (
            "osm:w121559548", "osm:n5771479192", .different,
            "Schloss Gutenberg (the castle) and an information board about it"
        ),
        ("osm:w125664869", "osm:w571339867", .different, "Sportanlage Rheinau: two pitches of one sports ground"),
    ]
}
