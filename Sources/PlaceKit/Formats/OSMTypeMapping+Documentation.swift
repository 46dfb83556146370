import PlaceModel

/// The table of docs/osm-tags.md, "what each common tag becomes", made from
/// the mapping itself (`OSMTagTableTests` holds the page to it, so it
/// cannot drift).
extension OSMTypeMapping {
    /// Tags of named features without a POI key, one example per rule of
    /// `kind` (each `key=value`, joined by " + ").
    static let kindExamples: [[(String, String)]] = [
        [("highway", "residential")], [("highway", "footway")], [("highway", "motorway_junction")],
        [("highway", "bus_stop")],
        [("highway", "services")], [("highway", "rest_area")], [("highway", "pedestrian"), ("area", "yes")],
        [("traffic_sign", "city_limit")], [("route", "hiking")], [("type", "route")], [("piste:type", "downhill")],
        [("aerialway", "chair_lift")], [("aerialway", "station")],
        [("railway", "rail")], [("railway", "tram")], [("railway", "platform")], [("railway", "subway_entrance")],
        [("public_transport", "platform")], [("public_transport", "stop_position")],
        [("waterway", "river")], [("waterway", "stream")], [("waterway", "canal")], [("waterway", "waterfall")],
        [("waterway", "dam")],
        [("boundary", "administrative")], [("boundary", "postal_code")], [("boundary", "national_park")],
        [("boundary", "protected_area")],
        [("place", "country")], [("place", "municipality")], [("place", "city")], [("place", "village")],
        [("place", "isolated_dwelling")],
        [("place", "borough")], [("place", "suburb")], [("place", "neighbourhood")], [("place", "locality")],
        [("place", "square")],
        [("place", "island")], [("place", "archipelago")], [("place", "plot")],
        [("natural", "peak")], [("natural", "water")], [("natural", "tree")], [("natural", "beach")],
        [("water", "lake")],
        [("landuse", "residential")], [("landuse", "retail")], [("landuse", "cemetery")],
        [("landuse", "winter_sports")],
        [("building", "yes")], [("building", "church")], [("building:part", "yes")], [("entrance", "main")],
        [("man_made", "tower")], [("man_made", "bridge")], [("power", "line")], [("barrier", "wall")],
        [("bridge", "yes")],
        [("junction", "roundabout")], [("rcn_ref", "12")], [("naptan:AtcoCode", "490010211N")],
        [("disused:amenity", "pub")],
        [("amenity:disused", "restaurant")], [("emergency", "fire_hydrant")],
    ]

    /// The page's table: every mapped POI tag, each key's fallback, the
    /// `information=*` kinds, and the named features of `kindExamples`,
    /// with the types they get, whether nearby lists them by default and
    /// their prior in current place (named; an unnamed feature's is 0).
    static func documentationTable() -> String {
        let model = LikelihoodModel()
        var rows: [String] = [
            "| tags | types (primary first) | nearby by default | current-place prior, named |", "|---|---|---|---|",
        ]
        func row(_ tags: String, _ types: [String]) {
            let primary = types.first ?? ""
            let listed = NearbySearchRequest.unlistedTypes.contains(primary) ? "no (`--type \(primary)`)" : "yes"
            let prior = model.typeFactor(primary)
            let typeList = types.isEmpty ? "(none)" : types.map { "`\($0)`" }.joined(separator: ", ")
            rows.append(
                "| `\(tags)` | \(typeList) | \(listed) | \(prior == prior.rounded() ? String(Int(prior)) : String(prior)) |"
            )
        }
        for key in keys {
            if key == "tourism" {
                for value in informationTypes.keys.sorted() {
                    row(
                        "tourism=information + information=\(value)",
                        types(JSONObject([("tourism", "information"), ("information", .string(value))])))
                }
                row("tourism=information", types(JSONObject([("tourism", "information")])))
                row(
                    "tourism=information + information=(other)",
                    types(JSONObject([("tourism", "information"), ("information", "tactile_model")])))
            }
            for value in (byTag[key] ?? [:]).keys.sorted() {
                row("\(key)=\(value)", types(JSONObject([(key, .string(value))])))
            }
            if fallback[key] != nil {
                row("\(key)=(other)", types(JSONObject([(key, "some_other_value")])))
            }
        }
        for example in kindExamples {
            var tags = JSONObject([("name", "A name")])
            for (k, v) in example { tags[k] = .string(v) }
            let kindType = types(tags).isEmpty ? kind(tags) : nil
            row(
                example.map { "\($0.0)=\($0.1)" }.joined(separator: " + ") + " (named)",
                kindType.map { [$0] } ?? types(tags))
        }
        row("name only, or tags placedb does not know (named)", [])
        return rows.joined(separator: "\n") + "\n"
    }
}
