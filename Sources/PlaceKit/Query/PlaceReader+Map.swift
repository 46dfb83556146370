import Foundation
package import PlaceModel
package import PlaceStorage

/// What the map page of `placedb serve` draws (docs/server.md#the-map-page):
/// the places' points and the footprints the database holds (buildings,
/// streets, land use: the basemap), as GeoJSON, bounded per request.
package struct MapFeatureRequest: Sendable {
    package var rect: GeoRect
    /// The map's zoom (Web Mercator levels, 0...22): footprints are drawn
    /// from `footprintZoom` up, those under two pixels left out, and
    /// vertices closer than a pixel merged.
    package var zoom: Int
    /// At most this many points and as many footprints.
    package var limit: Int

    package static let footprintZoom = 12
    package static let maxLimit = 5000
    package static let defaultLimit = 2000
    /// Names longer than this are cut (with an ellipsis) in the features: a
    /// map label, not the record (Place Details gives the whole name).
    package static let maxNameCharacters = 200

    package init(rect: GeoRect, zoom: Int, limit: Int = MapFeatureRequest.defaultLimit) {
        self.rect = rect
        self.zoom = zoom
        self.limit = limit
    }

    /// Meters a screen pixel spans at `latitude` (256-pixel tiles).
    package func metersPerPixel(at latitude: Double) -> Double {
        156_543.033_92 * cos(latitude * .pi / 180) / pow(2, Double(zoom))
    }

    /// Degrees of longitude a pixel spans.
    package var degreesPerPixel: Double { 360 / (256 * pow(2, Double(zoom))) }
}

extension PlaceReader {
    /// The GeoJSON FeatureCollection the map page draws for `request`:
    /// footprints first (Polygon or MultiLineString, `layer` by type), then
    /// points (`layer` "point"), each with `id`, `name`, `type` and
    /// `source`; `truncated` says which of the two was sampled (more were
    /// there than the limit), `zoomForFootprints` when footprints were
    /// left out for the zoom. One read transaction.
    package func mapFeaturesJSON(_ request: MapFeatureRequest) throws -> [UInt8] {
        try read {
            var features: [JSONValue] = []
            var footprintsTruncated = false
            var footprints = 0
            if request.zoom >= MapFeatureRequest.footprintZoom {
                footprintsTruncated = try store.mapFootprints(
                    in: request.rect, minSpan: 2 * request.degreesPerPixel, limit: request.limit
                ) { row in
                    guard let shape = row.shape,
                        let geometry = Self.geometry(
                            shape, at: row.point, tolerance: request.metersPerPixel(at: row.point.latitude))
                    else { return }
                    features.append(
                        Self.feature(
                            row, geometry: geometry,
                            layer: MapLayer.of(primaryType: row.primaryType, kind: shape.kind, cover: row.cover)))
                    footprints += 1
                }
            }
            var points = 0
            let pointsTruncated = try store.mapPoints(in: request.rect, limit: request.limit) { row in
                features.append(
                    Self.feature(
                        row,
                        geometry: .object(JSONObject([("type", "Point"), ("coordinates", Self.position(row.point))])),
                        layer: .point))
                points += 1
            }
            var o = JSONObject()
            o["type"] = "FeatureCollection"
            o["features"] = .array(features)
            o["counts"] = .object(
                JSONObject([("points", .int(Int64(points))), ("footprints", .int(Int64(footprints)))]))
            o["truncated"] = .object(
                JSONObject([("points", .bool(pointsTruncated)), ("footprints", .bool(footprintsTruncated))]))
            if request.zoom < MapFeatureRequest.footprintZoom {
                o["zoomForFootprints"] = .int(Int64(MapFeatureRequest.footprintZoom))
            }
            var out: [UInt8] = []
            JSONWriter().write(.object(o), into: &out)
            return out
        }
    }

    /// The landing view's figures (`PlaceStore.mapSummary`).
    package func mapSummary() throws -> MapSummary {
        try store.mapSummary()
    }

    /// The landing view's figures as the map page reads them: `places`,
    /// `extent` (south, west, north, east), `bySource`, `byType`,
    /// `examples`, `footprints`, `textIndex`.
    package func mapSummaryJSON() throws -> JSONObject {
        let s = try mapSummary()
        var o = JSONObject()
        o["places"] = .int(Int64(s.places))
        if let e = s.extent {
            o["extent"] = .object(
                JSONObject([
                    ("south", .double(e.south)), ("west", .double(e.west)), ("north", .double(e.north)),
                    ("east", .double(e.east)),
                ]))
        }
        o["bySource"] = .array(
            s.bySource.map { .object(JSONObject([("source", .string($0.name)), ("count", .int(Int64($0.count)))])) })
        o["byType"] = .array(
            s.byType.map { .object(JSONObject([("type", .string($0.name)), ("count", .int(Int64($0.count)))])) })
        o["examples"] = .array(
            s.examples.map { e in
                var x = JSONObject()
                x["id"] = .string(e.placeID)
                x["name"] = .string(e.name)
                if let t = e.primaryType { x["type"] = .string(t) }
                x["location"] = .object(
                    JSONObject([("latitude", .double(e.point.latitude)), ("longitude", .double(e.point.longitude))]))
                return .object(x)
            })
        o["footprints"] = .int(Int64(s.footprints))
        o["textIndex"] = .bool(s.textIndex)
        return o
    }

    /// Changes whenever the database does (`PlaceStore.changeMarker`).
    package func changeMarker() throws -> String {
        try store.changeMarker()
    }

    /// The place's stored `extra` (OpenStreetMap tags under `osm.tags`,
    /// Overture's attributes) parsed, nil when it has none.
    package func storedExtra(of id: PlaceID) throws -> JSONValue? {
        guard let text = try store.extraJSON(placeID: id.rawValue), !text.isEmpty else { return nil }
        return try JSONValue(parsing: Array(text.utf8))
    }

    private static func feature(_ row: MapPlaceRow, geometry: JSONValue, layer: MapLayer) -> JSONValue {
        var p = JSONObject()
        p["id"] = .string(row.placeID)
        if let name = row.name {
            p["name"] = .string(
                name.count > MapFeatureRequest.maxNameCharacters
                    ? String(name.prefix(MapFeatureRequest.maxNameCharacters)) + "…" : name)
        }
        if let t = row.primaryType { p["type"] = .string(t) }
        p["source"] = .string(row.source)
        p["layer"] = .string(layer.rawValue)
        return .object(JSONObject([("type", "Feature"), ("geometry", geometry), ("properties", .object(p))]))
    }

    /// [longitude, latitude], rounded to 6 decimals (11 cm at most).
    static func position(_ c: Coordinate) -> JSONValue {
        .array([.double((c.longitude * 1e6).rounded() / 1e6), .double((c.latitude * 1e6).rounded() / 1e6)])
    }

    /// The footprint in degrees (the plane `FootprintShape.make` used),
    /// vertices closer than `tolerance` meters to the last one kept merged;
    /// a ring left with fewer than 3 vertices (a line with fewer than 2) is
    /// dropped, and a shape left with nothing is nil.
    static func geometry(_ shape: FootprintShape, at origin: Coordinate, tolerance: Double) -> JSONValue? {
        let perDegree = Earth.meanRadius * .pi / 180
        let cosLat = max(1e-9, cos(origin.latitude * .pi / 180))
        var parts: [JSONValue] = []
        var start = 0
        let minimum = shape.kind == .area ? 3 : 2
        for count in shape.partCounts {
            let n = Int(count)
            var kept: [(Double, Double)] = []
            for i in start..<(start + n) {
                let e = Double(shape.coordinates[2 * i]), north = Double(shape.coordinates[2 * i + 1])
                if let last = kept.last, i != start + n - 1 || shape.kind == .area,
                    hypot(e - last.0, north - last.1) < tolerance
                {
                    continue
                }
                kept.append((e, north))
            }
            start += n
            guard kept.count >= minimum else { continue }
            var ring = kept.map { v in
                Self.position(
                    Coordinate(
                        latitude: origin.latitude + v.1 / perDegree,
                        longitude: origin.longitude + v.0 / (perDegree * cosLat)))
            }
            if shape.kind == .area { ring.append(ring[0]) }
            parts.append(.array(ring))
        }
        if parts.isEmpty { return nil }
        let type = shape.kind == .area ? "Polygon" : "MultiLineString"
        return .object(JSONObject([("type", .string(type)), ("coordinates", .array(parts))]))
    }
}
