import Foundation

/// Why a candidate got its likelihood: every factor of the model.
public struct LikelihoodExplanation: Sendable, Equatable {
    /// Great-circle distance from the fix to the place's location.
    public var distanceMeters: Double
    /// The footprint's source, strongest evidence first: "polygon" (the
    /// stored area), "line" (the stored lines of an open way), "viewport"
    /// (one that departs from the default map view) or "type".
    public var footprint: String
    /// Half the footprint's width (east-west) and height (north-south), m
    /// (of its box, for a polygon or a line).
    public var footprintHalfWidth: Double
    public var footprintHalfHeight: Double
    /// The footprint's area in m² (a polygon's own; a box's for the
    /// others; 0 for lines).
    public var footprintArea: Double
    /// The length of a line footprint, m (nil for the others).
    public var footprintLength: Double?
    /// The place's viewport, when it has one: what it says (`.extent`: a
    /// size; else why it is not the footprint), and its width and height
    /// in meters. With `footprint` "viewport" it is the footprint.
    public var viewport: ViewportEvidence? = nil
    public var viewportWidth: Double? = nil
    public var viewportHeight: Double? = nil
    /// The footprint's centre relative to the fix (east, north), in meters.
    public var footprintOffsetEast: Double
    public var footprintOffsetNorth: Double
    /// p(fix | place), per square meter.
    public var density: Double
    public var typeFactor: Double
    public var popularityFactor: Double
    public var sourceFactor: Double
    public var statusFactor: Double
    /// `extentFactor` for a place with a stored shape, else 1.
    public var extentFactor: Double = 1
    /// 1 when open or unknown, `closedFactor` when closed; `openNow` says which.
    public var hoursFactor: Double
    public var openNow: Bool?
    /// The product of the factors.
    public var prior: Double
    /// prior × density: the unnormalized likelihood.
    public var weight: Double

    package init(
        distanceMeters: Double, footprint: String, footprintHalfWidth: Double, footprintHalfHeight: Double,
        footprintArea: Double, footprintLength: Double? = nil, viewport: ViewportEvidence? = nil,
        viewportWidth: Double? = nil, viewportHeight: Double? = nil, footprintOffsetEast: Double,
        footprintOffsetNorth: Double, density: Double, typeFactor: Double, popularityFactor: Double,
        sourceFactor: Double, statusFactor: Double, extentFactor: Double = 1, hoursFactor: Double, openNow: Bool? = nil,
        prior: Double, weight: Double
    ) {
        self.distanceMeters = distanceMeters
        self.footprint = footprint
        self.footprintHalfWidth = footprintHalfWidth
        self.footprintHalfHeight = footprintHalfHeight
        self.footprintArea = footprintArea
        self.footprintLength = footprintLength
        self.viewport = viewport
        self.viewportWidth = viewportWidth
        self.viewportHeight = viewportHeight
        self.footprintOffsetEast = footprintOffsetEast
        self.footprintOffsetNorth = footprintOffsetNorth
        self.density = density
        self.typeFactor = typeFactor
        self.popularityFactor = popularityFactor
        self.sourceFactor = sourceFactor
        self.statusFactor = statusFactor
        self.extentFactor = extentFactor
        self.hoursFactor = hoursFactor
        self.openNow = openNow
        self.prior = prior
        self.weight = weight
    }
}

extension LikelihoodExplanation {
    /// `x` rounded to `digits` significant digits, for JSON people read.
    package static func significant(_ x: Double) -> Double { rounded(x, digits: 4) }

    package static func rounded(_ x: Double, digits: Int) -> Double {
        guard x != 0, x.isFinite else { return x }
        let scale = pow(10, Double(digits - 1) - floor(log10(abs(x))))
        let r = (x * scale).rounded() / scale
        return r.isFinite ? r : x
    }

    /// The explanation as JSON (the `explain` object of `placedb current`).
    public var json: JSONObject {
        let s = Self.significant
        var factors = JSONObject([
            ("type", .double(s(typeFactor))), ("popularity", .double(s(popularityFactor))),
            ("source", .double(s(sourceFactor))), ("businessStatus", .double(s(statusFactor))),
            ("hours", .double(s(hoursFactor))),
        ])
        if let openNow { factors["openNow"] = JSONValue.bool(openNow) }
        // Only when the model weighs shapes at all (LikelihoodModel.extentFactor ≠ 1).
        if extentFactor != 1 { factors["extent"] = .double(s(extentFactor)) }
        var shape = JSONObject([
            ("from", .string(footprint)),
            ("halfWidthMeters", .double(s(footprintHalfWidth))), ("halfHeightMeters", .double(s(footprintHalfHeight))),
            ("centerEastMeters", .double(s(footprintOffsetEast))),
            ("centerNorthMeters", .double(s(footprintOffsetNorth))),
            ("areaSquareMeters", .double(s(footprintArea))),
        ])
        if let footprintLength { shape["lengthMeters"] = .double(s(footprintLength)) }
        if let viewport {
            var v = JSONObject([("evidence", .string(viewport.rawValue)), ("used", .bool(footprint == "viewport"))])
            if let viewportWidth, let viewportHeight {
                v["widthMeters"] = .double(s(viewportWidth))
                v["heightMeters"] = .double(s(viewportHeight))
            }
            shape["viewport"] = .object(v)
        }
        return JSONObject([
            ("distanceMeters", .double((distanceMeters * 100).rounded() / 100)),
            ("footprint", .object(shape)),
            ("densityPerSquareMeter", .double(s(density))),
            ("factors", .object(factors)),
            ("prior", .double(s(prior))),
            ("weight", .double(s(weight))),
        ])
    }
}
