/// A WGS 84 position in degrees.
public struct Coordinate: Sendable, Hashable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// True when latitude is in [-90, 90] and longitude in [-180, 180].
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }

    public var description: String { "\(latitude),\(longitude)" }

    /// A decimal number as people and JSON write it: an optional sign,
    /// digits with an optional fraction (`46.52`, `-0.5`, `.5`, `5.`) and an
    /// optional exponent (`1e3`). Nil for anything else, among them what
    /// `Double(String)` also reads: hexadecimal (`0x10`, which would be
    /// 16), `inf`, `nan`, and surrounding blanks. The one reader of numbers
    /// typed on the command line (coordinates, meters).
    public static func decimal<S: StringProtocol>(_ text: S) -> Double? {
        let b = Array(text.utf8)
        var i = 0
        if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
        var digits = 0
        while i < b.count, (48...57).contains(b[i]) { i += 1; digits += 1 }
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            while i < b.count, (48...57).contains(b[i]) { i += 1; digits += 1 }
        }
        guard digits > 0 else { return nil }
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            let start = i
            while i < b.count, (48...57).contains(b[i]) { i += 1 }
            guard i > start else { return nil }
        }
        guard i == b.count, let v = Double(String(decoding: b, as: UTF8.self)), v.isFinite else { return nil }
        return v
    }

    /// Parses `LAT,LNG` (as on the command line) as decimal degrees
    /// (`Coordinate.decimal`). Nil when malformed or out of range.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
            let lat = Coordinate.decimal(parts[0].trimmingSpaces), let lng = Coordinate.decimal(parts[1].trimmingSpaces)
        else { return nil }
        self.init(latitude: lat, longitude: lng)
        guard isValid else { return nil }
    }
}
