/// What a place's footprint is: where a visitor of it may stand.
package enum FootprintSource: UInt8 {
    /// A square of its type's size around its location.
    case type
    /// Its viewport.
    case viewport
    /// Its stored polygons or lines (`place_footprint`).
    case shape
}

/// The footprint rule and the candidacy rule of the current-place model,
/// written once: `score` weighs each candidate's footprint by them, and
/// the spatial index (PlaceKit's `SpatialEngine`) sizes how far from its
/// location each place may be found by them.
extension LikelihoodModel {
    /// Whether a visitor can be at a place at all: its type has some prior
    /// mass (`typeFactor(_:kind:)`) and it is not closed for good.
    package static func canBeAt(typeFactor: Double, closedPermanently: Bool) -> Bool {
        typeFactor > 0 && !closedPermanently
    }

    /// Whether places of `type` are containers (`containerTypes`).
    package func isContainer(_ type: String?) -> Bool {
        type.map(containerTypes.contains) ?? false
    }

    /// The footprint of a place at (`latitude`, `longitude`): its stored
    /// shape (polygons or lines; `shapeReach` is its farthest vertex) when
    /// it reaches no farther than `maxViewportRadius`; else its viewport
    /// when `viewportRule` takes it and no corner lies farther than
    /// `maxViewportRadius`; else a square by type (`typeHalfSide`).
    /// `reach`: how far the shape or viewport reaches (0 for the square).
    package func footprintSource(shapeReach: Double?, viewport: GeoRect?, latitude: Double, longitude: Double)
        -> (source: FootprintSource, reach: Double)
    {
        if let reach = shapeReach, reach <= maxViewportRadius { return (.shape, reach) }
        if let v = viewport, viewportRule == .always || ViewportEvidence.classify(v) == .extent {
            var reach = 0.0
            for (la, ln) in [(v.south, v.west), (v.south, v.east), (v.north, v.west), (v.north, v.east)] {
                reach = max(reach, haversineMeters(latitude, longitude, la, ln))
            }
            if reach <= maxViewportRadius { return (.viewport, reach) }
        }
        return (.type, 0)
    }

    /// Half the side of the square footprint of a type radius (equal area).
    package static func halfSide(radius: Double) -> Double { radius * Double.pi.squareRoot() / 2 }

    /// Half the side of the square footprint of a place of `type`.
    package func typeHalfSide(_ type: String?) -> Double { Self.halfSide(radius: radius(forType: type)) }

    /// How far from its location a visitor of a place may stand, for a
    /// footprint reaching `reach` meters: with slack for the local plane.
    package static func extent(reach: Double) -> Double { reach * 1.01 + 1 }

    /// `extent(reach:)` of a square footprint: its corner's distance.
    package static func extent(halfSide: Double) -> Double { extent(reach: halfSide * 2.0.squareRoot()) }

    /// The largest extent a place without a usable viewport can have.
    package var maxTypeExtent: Double {
        Self.extent(halfSide: Self.halfSide(radius: max(defaultFootprintRadius, footprintRadius.values.max() ?? 0)))
    }
}
