import PlaceKit
import PlaceModel

/// Reading option values shared by the query commands.
enum QueryOptions {
    /// A type that is neither documented nor in the database is a typo
    /// (the query would find nothing): a usage error with the nearest type.
    static func checkTypes(_ given: [(OptionSpec, [String])], _ client: PlaceReader) throws {
        for (option, types) in given where !types.isEmpty {
            if let bad = try client.read({ try client.unknownTypes(types) }).first {
                var message = "unknown place type '\(bad.prefix(100))' in \(option.name)"
                if let near = PlaceTypes.closest(to: bad) { message += "; did you mean '\(near)'?" }
                throw UsageError(message: message + " (a type of the Places API's table, or one the database holds)")
            }
        }
    }

    /// `--unmerged` of the query commands: linked records answered each as
    /// imported (docs/linking.md).
    static let unmerged = OptionSpec(
        "--unmerged",
        help:
            "Answer each stored record as imported, under its own ID: records linked as one place are not merged (see 'placedb link')."
    )

    /// `--language TAG` of the query commands: `displayName` in that
    /// language where the place has a name in it (docs/queries.md#languages).
    static let language = OptionSpec(
        "--language", value: "TAG",
        help:
            "Serve displayName in this language (a BCP 47 tag: en, sv, en-GB, zh-Hant) where the place has a name in it (an OpenStreetMap name:xx tag, an Overture name, a Google response in that language), else its default name; as the API's languageCode."
    )

    /// The `--language` given, checked (a malformed tag is a usage error).
    static func language(_ context: CommandContext) throws -> String? {
        guard let tag = context.arguments.value(language) else { return nil }
        guard NameLanguage.isValidTag(tag) else {
            throw UsageError(
                message: "invalid --language '\(tag)'; expected a BCP 47 language tag such as en, sv, en-GB or zh-Hant")
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
            throw UsageError(
                message:
                    "invalid coordinate '\(p[0])'; expected LAT,LNG in degrees, latitude -90...90, longitude -180...180 (e.g. -33.8688,151.2093)"
            )
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
            throw UsageError(
                message:
                    "invalid time '\(text)' for '--at': expected RFC 3339 such as 2026-03-29T10:00:00+02:00, 2026-03-29T08:00:00Z, 2026-03-29T10:00 (the wall clock at the place), or now"
            )
        }
        return time
    }

    /// A number of meters, more than 0 and at most `limit` (the library's
    /// bound: `CurrentPlaceRequest.maxAccuracyMeters`,
    /// `NearbySearchRequest.maxRadiusMeters`); nil when not given.
    static func number(_ context: CommandContext, _ option: OptionSpec, atMost limit: Double) throws -> Double? {
        guard let text = context.arguments.value(option) else { return nil }
        guard let v = Coordinate.decimal(text), v > 0, v <= limit else {
            throw UsageError(
                message:
                    "invalid value '\(text)' for '\(option.name)'; expected a positive number of meters, at most \(Int(limit))"
            )
        }
        return v
    }

    static func limit(_ context: CommandContext, _ option: OptionSpec, default d: Int) throws -> Int {
        guard let text = context.arguments.value(option) else { return d }
        guard let v = Int(text), (1...NearbySearchRequest.maxResultLimit).contains(v) else {
            throw UsageError(
                message:
                    "invalid value '\(text)' for '--limit'; expected an integer in 1...\(NearbySearchRequest.maxResultLimit)"
            )
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
