import Foundation
package import PlaceModel
import PlaceStorage

/// A footprint as the current-place model used it for one place, in meters
/// east and north of the fix (the local plane the model works in): the
/// place's stored polygons (holes kept) or lines, or the box it fell back
/// to (its viewport or its type's size).
public struct FootprintOutline: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// Closed rings: outer rings counter-clockwise, holes clockwise.
        case polygon
        /// Open polylines (an open OSM way).
        case line
        /// A box: its one ring runs south-west, south-east, north-east, north-west.
        case box
    }

    /// A point of the plane: meters east and north of the fix.
    public struct Point: Sendable, Equatable {
        public var east: Double
        public var north: Double
        public init(east: Double, north: Double) {
            self.east = east
            self.north = north
        }
    }

    public var kind: Kind
    /// Where the footprint came from, as `--explain` names it: "polygon",
    /// "line", "viewport" or "type".
    public var source: String
    /// The rings of a polygon or a box, or the lines of a line.
    public var parts: [[Point]]
    /// The place's own location in the plane.
    public var location: Point

    /// The box around every part: west, east, south, north.
    public var bounds: (west: Double, east: Double, south: Double, north: Double) {
        var b = (west: Double.infinity, east: -Double.infinity, south: Double.infinity, north: -Double.infinity)
        for p in parts.joined() {
            b.west = min(b.west, p.east); b.east = max(b.east, p.east)
            b.south = min(b.south, p.north); b.north = max(b.north, p.north)
        }
        return b
    }
}

extension PlaceReader {
    /// The answer of `findPlaceLikelihoods` with the footprint the model
    /// used for each place listed (for a picture of it: `placedb current
    /// --svg`).
    package func findPlaceLikelihoodScene(_ request: CurrentPlaceRequest, fields: FieldMask = .all) throws
        -> CurrentPlaceScene
    {
        try request.validate()
        let plan = maskPlan(fields, language: request.languageCode)
        return try store.read {
            let run = try runModel(request)
            var listed: [PlaceLikelihood] = []
            var outlines: [FootprintOutline] = []
            for i in try listedCandidates(run, request) {
                let l = run.scores.likelihoods[i]
                let place: Place
                if let p = run.decoded[l.candidate] {
                    place = try localized(p.served(at: request.servedAt), request.languageCode).masked(fields)
                } else if let p = try store.servedPlace(
                    rowid: run.rowids[l.candidate], plan: plan, coordinate: run.candidates[l.candidate].location,
                    at: request.servedAt)
                {
                    place = p
                } else {
                    continue
                }
                listed.append(PlaceLikelihood(place: place, likelihood: l.likelihood))
                outlines.append(Self.outline(l, run))
            }
            let result = PlaceLikelihoodList(
                placeLikelihoods: listed, noneLikelihood: run.scores.noneLikelihood, sigmaMeters: run.sigma,
                searchRadiusMeters: run.reach, candidateCount: run.scores.likelihoods.count)
            var scene = CurrentPlaceScene(request: request, result: result, footprints: outlines)
            let view = scene.view()
            if view.side <= CurrentPlaceScene.maxStreetViewMeters {
                scene.streets = try streets(in: view, fix: request.location)
            }
            return scene
        }
    }

    /// The footprint of a candidate as the model weighed it.
    static func outline(_ l: Likelihood, _ run: ModelRun) -> FootprintOutline {
        let f = l.footprint
        let source = f.source.rawValue
        if f.source == .polygon || f.source == .line, let shape = run.candidates[l.candidate].shape {
            var parts: [[FootprintOutline.Point]] = []
            var vertex = 0
            for count in shape.partCounts {
                let n = Int(count)
                parts.append(
                    (vertex..<vertex + n).map {
                        FootprintOutline.Point(
                            east: f.originEast + Double(shape.coordinates[2 * $0]),
                            north: f.originNorth + Double(shape.coordinates[2 * $0 + 1]))
                    })
                vertex += n
            }
            return FootprintOutline(
                kind: shape.kind == .area ? .polygon : .line, source: source, parts: parts,
                location: .init(east: f.originEast, north: f.originNorth))
        }
        let w = f.centerEast - f.halfWidth, e = f.centerEast + f.halfWidth
        let s = f.centerNorth - f.halfHeight, n = f.centerNorth + f.halfHeight
        let ring = [
            FootprintOutline.Point(east: w, north: s), .init(east: e, north: s), .init(east: e, north: n),
            .init(east: w, north: n),
        ]
        // The place's location as the model measured it (its exact distance).
        return FootprintOutline(
            kind: .box, source: source, parts: [ring], location: .init(east: f.originEast, north: f.originNorth))
    }
}
