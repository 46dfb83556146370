import Foundation
import PlaceKit
import PlaceModel

/// `placedb place ID [--fields MASK]`: Place Details from the database.
enum PlaceCommand: Command {
    /// The options, read by these constants (a typo does not compile).
    enum Options {
        static let fields = OptionSpec(
            "--fields", value: "MASK",
            help:
                "Comma-separated field mask: v1 paths (id,displayName,location,...), the Places SDK's names (name, placeID, coordinate, phoneNumber, website, openingHours, ...), or * (default: all). openNow adds whether the place is open now (or at --at), computed at query time."
        )
        static let at = OptionSpec(
            "--at", value: "TIME",
            help:
                "Answer as of this time (RFC 3339; without an offset, the wall clock at the place; or now): openNow at the top and inside the opening hours is computed for it. See 'placedb open'."
        )
        static let provenance = OptionSpec(
            "--provenance",
            help:
                "Add provenance: the source and when each member was captured (RFC 3339, UTC); for records linked as one place, which record gave each member and the records."
        )
        static let all = [fields, at, QueryOptions.language, provenance, QueryOptions.unmerged]
    }

    static let spec = CommandSpec(
        name: "place",
        abstract: "Print one place by ID (Place Details), in the Places API (New) JSON shape.",
        arguments: [ArgumentSpec(name: "ID", help: "A place ID, or its resource name places/ID.")],
        options: Options.all,
        discussion: """
            openNow inside regularOpeningHours, currentOpeningHours and the secondary hours is
            computed for the time of asking (or --at), as 'placedb open'
            answers, and left out when it cannot be decided; currentOpeningHours whose days all
            ended more than 7 days before that time is left out (the regular hours answer).
            """,
        examples: [
            "placedb place ChIJN1t_tDeuEmsRUsoyG83frY4 --language fr",
            "placedb place demo-lsn-001 --fields name,coordinate,phoneNumber,website --output json",
            "placedb place demo-lsn-003 --at 2026-03-30T12:00 --provenance",
        ],
        seeAlso: ["open", "resolve", "photos"],
        docs: ["queries.md", "hours.md", "merging.md"])

    static func run(_ context: CommandContext) throws -> ExitCode {
        guard context.arguments.positionals.count == 1 else {
            throw UsageError(
                message: context.arguments.positionals.isEmpty
                    ? "missing place ID" : "expected one place ID, got \(context.arguments.positionals.count)")
        }
        // `openNow` is computed, not stored: take it out of the mask (a mask
        // of only `openNow` prints only it).
        var maskText = context.arguments.value(Options.fields)
        var openNow = context.arguments.value(Options.at) != nil
        if let text = maskText {
            let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if items.contains("openNow") {
                openNow = true
                maskText = items.filter { $0 != "openNow" }.joined(separator: ",")
            }
        }
        let mask = try parseMask(maskText)
        let time = try OpenCommand.queryTime(context.arguments.value(Options.at))
        let client = try PlaceReader(databasePath: context.databasePath, recordView: QueryOptions.recordView(context))
        let requested = PlaceID(parsing: context.arguments.positionals[0])
        // An old ID gives the current place, with its current id, as the
        // Places API does; the answer says which ID was asked for.
        let resolution = try client.resolvePlaceID(requested)
        guard let current = resolution.placeID else { throw PlaceDBError.notFound(requested) }
        // Whole and served at `time` (openNow inside the hours computed); then masked.
        let place = try client.fetchPlace(
            id: PlaceID(current), language: try QueryOptions.language(context), followAliases: false, at: time)
        var json = mask.map { place.apiJSON(fields: $0) } ?? JSONObject()
        if resolution.status == .moved {
            json["requestedId"] = .string(requested.rawValue)
            let reasons = resolution.chain.map(\.reason.rawValue).joined(separator: ", ")
            context.console.errLine("placedb place: '\(requested)' resolved to '\(current)' (\(reasons))")
        } else if resolution.status == .removed {
            json["removedAt"] = resolution.removedAt.map(JSONValue.string) ?? .null
            context.console.errLine(
                "placedb place: '\(current)' was removed\(resolution.removedAt.map { " at \($0)" } ?? ""); this is its last record"
            )
        }
        if openNow, let isOpen = place.isOpen(at: time).isOpen { json["openNow"] = .bool(isOpen) }
        if context.arguments.flag(Options.provenance) {
            json["provenance"] = .object(try client.provenance(of: PlaceID(current)).json)
        }
        switch context.output {
        case .json: context.writeJSON(.object(json))
        case .text: context.console.out(TextTable.place(json))
        }
        return .success
    }

    /// The mask: nil for an empty one (only computed fields asked for),
    /// every field when none is given; an unknown field is a usage error.
    static func parseMask(_ text: String?) throws(UsageError) -> FieldMask? {
        guard let text else { return .all }
        if text.isEmpty { return nil }
        do {
            return try FieldMask(parsing: text)
        } catch {
            throw UsageError(message: error.commandLineMessage)
        }
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
