import PlaceKit
import PlaceModel

/// `--batch`: NDJSON requests on standard input, one compact JSON answer
/// line per request line, in order. A bad line gets an error line (the
/// Google API error shape) in its place and the batch goes on; the exit code
/// is then 65. A database failure ends the batch (exit 1).
enum Batch {
    static func run(_ context: CommandContext, answer: (JSONObject) throws -> [UInt8]) throws -> ExitCode {
        if context.arguments.value(CommandSpec.GlobalOptions.output) == "text" {
            throw UsageError(message: "--batch writes NDJSON; --output text is not available with it")
        }
        let console = context.console
        let writer = JSONWriter()
        var line = 0
        var failed = 0
        while let text = console.readInputLine() {
            line += 1
            var reply: [UInt8]
            do {
                var bytes = Array(text.utf8)
                // RFC 7464 record separators and surrounding white space.
                while let first = bytes.first, first == 0x1E || first == 0x20 || first == 0x09 { bytes.removeFirst() }
                while let last = bytes.last, last == 0x0D || last == 0x20 || last == 0x09 { bytes.removeLast() }
                if bytes.isEmpty { throw PlaceDBError.invalidArgument("empty line; expected a JSON object") }
                let value: JSONValue
                do {
                    value = try JSONValue(parsing: bytes)
                } catch let e as JSONSyntaxError {
                    throw PlaceDBError.invalidArgument("not JSON: \(e.message) at byte \(e.offset + 1)")
                }
                guard case .object(let request) = value else {
                    throw PlaceDBError.invalidArgument("expected a JSON object, got \(value.kindDescription)")
                }
                reply = try answer(request)
            } catch PlaceDBError.invalidArgument(let message) {
                failed += 1
                reply = Array(writer.string(errorLine("line \(line): \(message)")).utf8)
            } catch let e as UsageError {
                failed += 1
                reply = Array(writer.string(errorLine("line \(line): \(e.message)")).utf8)
            }
            reply.append(0x0A)
            console.out(String(decoding: reply, as: UTF8.self))
        }
        if failed > 0 {
            console.errLine("placedb \(context.spec.name): \(failed) of \(line) request line\(line == 1 ? "" : "s") failed; each has an error line in the output")
            return .dataError
        }
        return .success
    }

    /// `{"error": {"code": 400, "message": ..., "status": "INVALID_ARGUMENT"}}`.
    static func errorLine(_ message: String) -> JSONValue {
        ["error": ["code": 400, "message": .string(message), "status": "INVALID_ARGUMENT"]]
    }

    /// Options that describe a single query and so cannot go with --batch.
    static func refuse(_ options: [OptionSpec], with context: CommandContext) throws {
        if !context.arguments.positionals.isEmpty {
            throw UsageError(message: "--batch reads its queries from standard input; drop '\(context.arguments.positionals[0])'")
        }
        for option in options where context.arguments.given(option) {
            throw UsageError(message: "--batch reads its queries from standard input; \(option.name) belongs in each request line")
        }
    }
}

/// Reading option values shared by the query commands.
enum QueryOptions {
    /// A type that is neither documented nor in the database is a typo
    /// (the query would find nothing): a usage error with the nearest type.
    static func checkTypes(_ given: [(OptionSpec, [String])], _ client: PlaceReader) throws {
        for (option, types) in given {
            if let bad = try client.read({ try client.unknownTypes(types) }).first {
                var message = "unknown place type '\(bad.prefix(100))' in \(option.name)"
                if let near = PlaceTypes.closest(to: bad) { message += "; did you mean '\(near)'?" }
                throw UsageError(message: message + " (a type of the Places API's table, or one the database holds)")
            }
        }
    }

    /// `--unmerged` of the query commands: linked records answered each as
    /// imported (docs/linking.md).
    static let unmerged = OptionSpec("--unmerged", help: "Answer each stored record as imported, under its own ID: records linked as one place are not merged (see 'placedb link').")

    /// `--language TAG` of the query commands: `displayName` in that
    /// language where the place has a name in it (docs/queries.md#languages).
    static let language = OptionSpec("--language", value: "TAG", help: "Serve displayName in this language (a BCP 47 tag: en, sv, en-GB, zh-Hant) where the place has a name in it (an OpenStreetMap name:xx tag, an Overture name, a Google response in that language), else its default name; as the API's languageCode.")

    /// The `--language` given, checked (a malformed tag is a usage error).
    static func language(_ context: CommandContext) throws -> String? {
        guard let tag = context.arguments.value(language) else { return nil }
        guard NameLanguage.isValidTag(tag) else {
            throw UsageError(message: "invalid --language '\(tag)'; expected a BCP 47 language tag such as en, sv, en-GB or zh-Hant")
        }
        return tag
    }

    /// A batch line's request with `--language` as its `languageCode`
    /// when it gives none.
    static func body(_ body: JSONObject, language: String?) -> JSONObject {
        guard let language, body["languageCode"] == nil else { return body }
        var b = body
        b["languageCode"] = .string(language)
        return b
    }

    static func recordView(_ context: CommandContext) -> RecordView {
        context.arguments.flag(unmerged) ? .unmerged : .merged
    }

    static func coordinate(_ context: CommandContext) throws -> Coordinate {
        let p = context.arguments.positionals
        guard p.count == 1 else {
            throw UsageError(message: p.isEmpty ? "missing LAT,LNG" : "expected one LAT,LNG, got \(p.count) arguments")
        }
        guard let c = Coordinate(parsing: p[0]) else {
            throw UsageError(message: "invalid coordinate '\(p[0])'; expected LAT,LNG in degrees, latitude -90...90, longitude -180...180 (e.g. -33.8688,151.2093)")
        }
        return c
    }

    /// `--at TIME` of `open`, `place` and `current`, all read alike
    /// (`HoursQueryTime(parsing:)`): RFC 3339 with an offset or Z is an
    /// instant, without one the wall clock at the place, `now` the current
    /// instant. Nil when not given; malformed is a usage error.
    static func time(_ text: String?) throws -> HoursQueryTime? {
        guard let text else { return nil }
        guard let time = HoursQueryTime(parsing: text) else {
            throw UsageError(message: "invalid time '\(text)' for '--at': expected RFC 3339 such as 2026-03-29T10:00:00+02:00, 2026-03-29T08:00:00Z, 2026-03-29T10:00 (the wall clock at the place), or now")
        }
        return time
    }

    /// A number of meters, more than 0 and at most `limit` (the library's
    /// bound: `CurrentPlaceRequest.maxAccuracyMeters`,
    /// `NearbySearchRequest.maxRadiusMeters`); nil when not given.
    static func number(_ context: CommandContext, _ option: OptionSpec, atMost limit: Double) throws -> Double? {
        guard let text = context.arguments.value(option) else { return nil }
        guard let v = Coordinate.decimal(text), v > 0, v <= limit else {
            throw UsageError(message: "invalid value '\(text)' for '\(option.name)'; expected a positive number of meters, at most \(Int(limit))")
        }
        return v
    }

    static func limit(_ context: CommandContext, _ option: OptionSpec, default d: Int) throws -> Int {
        guard let text = context.arguments.value(option) else { return d }
        guard let v = Int(text), (1...NearbySearchRequest.maxResultLimit).contains(v) else {
            throw UsageError(message: "invalid value '\(text)' for '--limit'; expected an integer in 1...\(NearbySearchRequest.maxResultLimit)")
        }
        return v
    }

    static func fields(_ context: CommandContext, _ option: OptionSpec) throws -> FieldMask {
        do {
            return try context.arguments.value(option).map { try FieldMask(parsing: $0) } ?? .all
        } catch let error as FieldMaskError {
            throw UsageError(message: error.commandLineMessage)
        }
    }

    /// Runs a request's validation, turning its complaint into a usage error.
    static func validate(_ check: () throws(PlaceDBError) -> Void) throws {
        do {
            try check()
        } catch {
            if case .invalidArgument(let message) = error { throw UsageError(message: message) }
            throw error
        }
    }

    /// A distance for people: "12 m", "1.4 km".
    static func distance(_ m: Double) -> String {
        m < 1000 ? "\(Int(m.rounded())) m" : "\((m / 100).rounded() / 10) km"
    }
}

/// A query point far from every place of the database: most often latitude
/// and longitude given the wrong way round. One warning line on stderr
/// (the answer is still given): how far the point is from the box around
/// the places, and the swapped point when that one is inside the box.
enum FarPoint {
    /// A point more than this beyond the box around the places is far.
    static let thresholdMeters = 100_000.0

    /// The distance from `point` to the nearest point of `box` (the box's
    /// edge on the side the point is, across the antimeridian too).
    static func distance(from point: Coordinate, to box: GeoRect) -> Double {
        let lat = min(max(point.latitude, box.south), box.north)
        var lng = point.longitude
        if lng < box.west || lng > box.east {
            // The nearer edge, going either way round the Earth.
            func gap(_ a: Double, _ b: Double) -> Double { let d = abs(a - b).truncatingRemainder(dividingBy: 360); return min(d, 360 - d) }
            lng = gap(lng, box.west) <= gap(lng, box.east) ? box.west : box.east
        }
        return point.distance(to: Coordinate(latitude: lat, longitude: lng))
    }

    static func contains(_ box: GeoRect, _ p: Coordinate) -> Bool {
        (box.south...box.north).contains(p.latitude) && (box.west...box.east).contains(p.longitude)
    }

    /// The warning for `point` (as typed: `text`), nil when it is near the
    /// places or the database has none.
    static func warning(point: Coordinate, text: String, extent: GeoRect?) -> String? {
        guard let box = extent else { return nil }
        let d = distance(from: point, to: box)
        guard d > thresholdMeters else { return nil }
        var message = "the point \(text) is \(kilometres(d)) km from the places of the database"
            + " (latitude \(degrees(box.south)) to \(degrees(box.north)), longitude \(degrees(box.west)) to \(degrees(box.east)))"
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count == 2, abs(point.longitude) <= 90 {
            let swapped = Coordinate(latitude: point.longitude, longitude: point.latitude)
            if distance(from: swapped, to: box) <= thresholdMeters {
                message += "; did you mean \(parts[1].filter { $0 != " " }),\(parts[0].filter { $0 != " " })? (LAT,LNG: latitude first)"
            }
        }
        return message
    }

    /// Warns on stderr when `point` is far from the places `reader` holds.
    static func warn(_ context: CommandContext, reader: PlaceReader, point: Coordinate, text: String) {
        guard let extent = try? reader.placesExtent(), let message = warning(point: point, text: text, extent: extent) else { return }
        context.console.errLine("placedb \(context.spec.name): warning: \(message)")
    }

    static func kilometres(_ meters: Double) -> String {
        DigitGrouping.grouped(Int64((meters / 1000).rounded()))
    }

    static func degrees(_ x: Double) -> String {
        "\((x * 100).rounded() / 100)"
    }
}
