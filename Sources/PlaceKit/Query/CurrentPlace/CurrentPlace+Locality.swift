import Foundation
package import PlaceModel
import PlaceStorage

extension PlaceReader {
    /// The types of the places that can name where a fix is, each with its
    /// rank (lower first): towns and cities, then municipalities, then
    /// parts of towns, then counties and states.
    static let localityRanks: [String: Int] = {
        var r: [String: Int] = [
            "locality": 0, "postal_town": 0, "political": 1, "sublocality": 2, "administrative_area_level_2": 3,
            "administrative_area_level_1": 4,
        ]
        for level in 3...7 { r["administrative_area_level_\(level)"] = 1 }
        for level in 1...5 { r["sublocality_level_\(level)"] = 2 }
        return r
    }()

    /// How far from a fix a locality is looked for: the farthest a stored
    /// footprint reaches from its place (`LikelihoodModel.maxViewportRadius`,
    /// 20 km), so an area holding the fix is always found.
    static let localityReach = 20_000.0

    /// The locality `point` falls in, from the places of the database of
    /// a `localityRanks` type within `localityReach`:
    ///
    /// 1. the stored area (an OpenStreetMap boundary or place polygon)
    ///    that holds the point, of a town or municipality (rank 0 or 1),
    ///    the best rank first, then the smallest;
    /// 2. else the nearest town or city point (`locality`, `postal_town`:
    ///    OpenStreetMap `place=city/town/village` nodes, Google `locality`
    ///    records, GeoNames cities);
    /// 3. else an area of a larger or smaller kind that holds the point
    ///    (a suburb, a county, a state), as in 1;
    /// 4. else the nearest of any of those types.
    ///
    /// Nil when the database has none of them near.
    package func locality(at point: Coordinate) throws -> PlaceLocality? {
        try store.read {
            let types = Array(Self.localityRanks.keys).sorted()
            let filter = TypeFilter(includedTypes: types)
            let perDegree = Earth.meanRadius * Earth.radiansPerDegree
            var containing: [(input: Int, slot: Int, rank: Int, area: Double)] = []
            var nearestTown: (input: Int, slot: Int, meters: Double)?
            var nearestAny: (input: Int, slot: Int, meters: Double)?
            var inputs: [PlaceIndexInput] = []
            var seen = Set<Int64>()
            // The places as read, not an index built for the model: the
            // model keeps no footprint for types it gives no mass
            // (boundaries), and those are what holds a fix here.
            func scan(_ input: PlaceIndexInput) {
                let n = inputs.count
                inputs.append(input)
                for slot in 0..<input.count where seen.insert(input.rowids[slot]).inserted {
                    let type = IndexedType.primaryType(input.types.name(input.typeCodes[slot])) ?? ""
                    // A record of several of the types (Google's `locality,
                    // political`) is ranked by its primary type; one without
                    // a listed primary type as a municipality.
                    let rank = Self.localityRanks[type] ?? 1
                    let c = Coordinate(latitude: input.latitudes[slot], longitude: input.longitudes[slot])
                    let meters = point.distance(to: c)
                    let s = Int(input.shapeIndexes[slot])
                    if s >= 0, input.shapes.info(s).kind == .area {
                        var dl = point.longitude - c.longitude
                        if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
                        let east = dl * cos(c.latitude * Earth.radiansPerDegree) * perDegree
                        let north = (point.latitude - c.latitude) * perDegree
                        if input.shapes.contains(s, east: east, north: north) {
                            containing.append((n, slot, rank, input.shapes.shape(s).area))
                            continue
                        }
                    }
                    guard meters <= Self.localityReach else { continue }
                    if rank == 0, nearestTown.map({ meters < $0.meters }) ?? true { nearestTown = (n, slot, meters) }
                    if nearestAny.map({ meters < $0.meters }) ?? true { nearestAny = (n, slot, meters) }
                }
            }
            if let typed = try store.loadPlaces(ofTypes: types, limit: localityTypeScanLimit) {
                // Few places of these types (a city's extract): all of them.
                scan(typed)
            } else {
                // Many (GeoNames cities, a country's boundaries): the areas
                // whose box holds the point, then the points in circles
                // growing until a town is in one.
                scan(
                    try store.loadPlaces(
                        in: [], extentRects: GeoRect.covering(center: point, meters: 1), typeFilter: filter))
                var reach = 2_500.0
                while nearestTown == nil && reach <= Self.localityReach {
                    scan(try store.loadPlaces(in: GeoRect.covering(center: point, meters: reach), typeFilter: filter))
                    reach *= 2
                }
            }
            containing.sort { $0.rank != $1.rank ? $0.rank < $1.rank : $0.area < $1.area }
            let chosen: (input: Int, slot: Int, contains: Bool)
            if let best = containing.first, best.rank <= 1 {
                chosen = (best.input, best.slot, true)
            } else if let town = nearestTown {
                chosen = (town.input, town.slot, false)
            } else if let best = containing.first {
                chosen = (best.input, best.slot, true)
            } else if let any = nearestAny {
                chosen = (any.input, any.slot, false)
            } else {
                return nil
            }
            let input = inputs[chosen.input]
            let c = Coordinate(latitude: input.latitudes[chosen.slot], longitude: input.longitudes[chosen.slot])
            guard
                let place = try store.place(
                    rowid: input.rowids[chosen.slot], plan: MaskPlan(Self.localityMask), coordinate: c)
            else { return nil }
            return PlaceLocality(
                placeID: place.id, displayName: place.displayName, primaryType: place.primaryType ?? place.types.first,
                location: c, distanceMeters: point.distance(to: c), containsFix: chosen.contains)
        }
    }

    private static let localityMask = (try? FieldMask(parsing: "id,displayName,primaryType,types")) ?? .all

    /// `{"id", "name": "places/ID", "displayName", "primaryType",
    /// "location", "distanceMeters", "containsFix"}`.
    package static func localityJSON(_ l: PlaceLocality) -> JSONValue {
        var o = JSONObject()
        o["name"] = .string(l.placeID.resourceName)
        o["id"] = .string(l.placeID.rawValue)
        if let d = l.displayName {
            var t = JSONObject()
            t["text"] = .string(d.text)
            if let code = d.languageCode { t["languageCode"] = .string(code) }
            o["displayName"] = .object(t)
        }
        if let t = l.primaryType { o["primaryType"] = .string(t) }
        o["location"] = ["latitude": .double(l.location.latitude), "longitude": .double(l.location.longitude)]
        o["distanceMeters"] = .int(Int64(l.distanceMeters.rounded()))
        o["containsFix"] = .bool(l.containsFix)
        return .object(o)
    }

    /// Whether the `approximateListLength` most likely candidates of a run
    /// hold less than `approximateMass` while there are more candidates
    /// than that (the mass is spread over places the list cannot hold: a
    /// fix with few or no places near is answered "none of these", which
    /// needs no flag), and how much they hold.
    static func approximate(_ scores: LikelihoodScores, _ model: LikelihoodModel) -> (
        approximate: Bool, topMass: Double
    ) {
        var top: [Double] = []
        let k = max(1, model.approximateListLength)
        for l in scores.likelihoods {
            let p = l.likelihood
            if top.count < k {
                top.append(p)
                top.sort(by: >)
            } else if p > top[k - 1] {
                top[k - 1] = p
                top.sort(by: >)
            }
        }
        let mass = top.reduce(0, +)
        return (mass < model.approximateMass && scores.likelihoods.count > k, mass)
    }
}
