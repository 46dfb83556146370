import Foundation
import PlaceModel

/// The time zone of a place known by its UTC offset and location only (a
/// legacy web service record: `utc_offset`, no zone), from the system's
/// time zone database: `/usr/share/zoneinfo/zone1970.tab` gives each
/// zone's reference point (its main city) and the countries it covers.
///
/// The rule: among the zones whose UTC offset at the capture time equals
/// the record's (for a record nothing dates, in January or July of the
/// year of the import: either season's offset), the one whose reference
/// point is nearest the place, looked for first among the zones of the
/// place's country (its `country` address component) and then among
/// all; none farther than `maxDistanceMeters`. Limits: reference points
/// are cities, so near a border inside one country (the United States,
/// Russia, Brazil ...) the neighbouring zone of the same offset can be
/// nearer, and the zone's rules may then differ in the past; a place
/// whose offset no zone had at that time (a wrong offset) gets none; a
/// system without the file derives none.
enum OffsetTimeZone {
    struct Zone {
        let id: String
        let countries: [String]
        let coordinate: Coordinate
        let timeZone: TimeZone
    }

    /// The file read.
    static let path = "/usr/share/zoneinfo/zone1970.tab"
    /// Farther than this, a zone of the same offset is not the place's.
    static let maxDistanceMeters = 2_000_000.0

    /// The zones of `path` (empty when it cannot be read).
    static let zones: [Zone] = (try? String(contentsOfFile: path, encoding: .utf8)).map(parse) ?? []

    /// The zones of a zone1970.tab text, those Foundation knows.
    static func parse(_ text: String) -> [Zone] {
        var out: [Zone] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 3, let c = coordinate(String(fields[1])),
                let tz = TimeZone(identifier: String(fields[2]))
            else { continue }
            out.append(
                Zone(
                    id: String(fields[2]), countries: fields[0].split(separator: ",").map(String.init), coordinate: c,
                    timeZone: tz))
        }
        return out
    }

    /// An ISO 6709 point as zone1970.tab writes it: `+4230+00131`
    /// (±DDMM±DDDMM) or `+433600+0073000` (with seconds).
    static func coordinate(_ text: String) -> Coordinate? {
        let chars = Array(text)
        guard chars.count >= 11, chars[0] == "+" || chars[0] == "-",
            let split = chars.indices.dropFirst().first(where: { chars[$0] == "+" || chars[$0] == "-" })
        else { return nil }
        func degrees(_ part: ArraySlice<Character>, degreeDigits: Int) -> Double? {
            let sign: Double = part.first == "-" ? -1 : 1
            let digits = String(part.dropFirst())
            guard digits.allSatisfy(\.isNumber), digits.count == degreeDigits + 2 || digits.count == degreeDigits + 4
            else { return nil }
            let d = Double(digits.prefix(degreeDigits))!, m = Double(digits.dropFirst(degreeDigits).prefix(2))!
            let s = digits.count == degreeDigits + 4 ? Double(digits.suffix(2))! : 0
            return sign * (d + m / 60 + s / 3600)
        }
        guard let lat = degrees(chars[..<split], degreeDigits: 2), let lng = degrees(chars[split...], degreeDigits: 3)
        else { return nil }
        return Coordinate(latitude: lat, longitude: lng)
    }

    /// The zone of a place at `location` whose UTC offset was
    /// `offsetMinutes` at one of `times`, by the rule above; nil when none.
    static func zone(
        offsetMinutes: Int, location: Coordinate, country: String?, at times: [Date], zones: [Zone] = zones
    ) -> String? {
        let matching = zones.filter { z in times.contains { z.timeZone.secondsFromGMT(for: $0) == offsetMinutes * 60 } }
        func nearest(_ list: [Zone]) -> String? {
            let best = list.map { ($0, $0.coordinate.distance(to: location)) }.filter { $0.1 <= maxDistanceMeters }.min
            { $0.1 < $1.1 }
            return best?.0.id
        }
        if let country = country?.uppercased(), let z = nearest(matching.filter { $0.countries.contains(country) }) {
            return z
        }
        return nearest(matching)
    }

    /// The times a record's offset is compared at: its capture time, or
    /// (nothing dates it) mid-January and mid-July of `now`'s year.
    static func times(capturedAt: Int64?, now: Date) -> [Date] {
        if let t = capturedAt { return [Date(timeIntervalSince1970: TimeInterval(t))] }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let year = calendar.component(.year, from: now)
        return [1, 7].compactMap { calendar.date(from: DateComponents(year: year, month: $0, day: 15, hour: 12)) }
    }

    /// Gives a place with a UTC offset and no zone the zone of the rule
    /// (`timeZone: {"id": ...}`), when one is found.
    static func apply(to place: inout Place, capturedAt: Int64?, now: Date) {
        guard place.timeZone == nil, let offset = place.utcOffsetMinutes else { return }
        let country = (place.document["addressComponents"]?.arrayValue ?? []).first { c in
            c["types"]?.arrayValue?.contains(.string("country")) == true
        }?["shortText"]?.stringValue
        guard
            let id = zone(
                offsetMinutes: offset, location: place.coordinate, country: country,
                at: times(capturedAt: capturedAt, now: now))
        else { return }
        place.document["timeZone"] = ["id": .string(id)]
    }
}
