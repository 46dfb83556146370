import Foundation
import PlaceDBServer
import PlaceKit
import PlaceModel

/// `placedb open ID [--at TIME] [--hours regular|DELIVERY|...]`: whether a
/// place is open at a time, from its stored hours.
enum OpenCommand: Command {
    /// The options, read by these constants (a typo does not compile).
    enum Options {
        static let at = OptionSpec(
            "--at", value: "TIME",
            help:
                "The time to ask about (default: now). RFC 3339 with an offset or Z (2026-03-29T10:00:00+02:00) is that instant; without one (2026-03-29T10:00) it is the wall-clock time at the place, in the place's own time zone; now is the current instant."
        )
        static let hours = OptionSpec(
            "--hours", value: "KIND",
            help: "Which hours: regular (the place's opening hours, the default) or a secondary hours type.",
            choices: ["regular"] + SecondaryHoursType.allKnown.map(\.rawValue))
        static let all = [at, hours]
    }

    static let spec = CommandSpec(
        name: "open",
        abstract:
            "Say whether a place is open at a time (OPEN, CLOSED or UNKNOWN), why, and when it next opens and closes.",
        arguments: [ArgumentSpec(name: "ID", help: "A place ID, or its resource name places/ID.")],
        options: Options.all,
        discussion: """
            The answer comes from the place's current hours (the seven days they cover, special days
            included), else its regular hours, read in its time zone (timeZone; else the fixed
            utcOffsetMinutes; else the zone set by 'placedb import --time-zone'). Permanently or
            temporarily closed places are CLOSED; a FUTURE_OPENING place is CLOSED until its
            openingDate. UNKNOWN whenever the data cannot decide: no hours, no time zone or offset,
            hours that cannot be read, OpenStreetMap opening_hours placedb does not evaluate.
            nextOpenTime and nextCloseTime are UTC in JSON, local in text; when the place is open,
            nextOpenTime is the opening after nextCloseTime. The exit status is 0 for any answer.
            """,
        examples: [
            "placedb open ChIJN1t_tDeuEmsRUsoyG83frY4",
            "placedb open demo-lsn-003 --at 2026-03-30T12:00 --output json",
        ],
        seeAlso: ["place", "import"],
        docs: ["hours.md"])

    static func run(_ context: CommandContext) throws -> ExitCode {
        let args = context.arguments
        guard args.positionals.count == 1 else {
            throw UsageError(
                message: args.positionals.isEmpty
                    ? "missing place ID" : "expected one place ID, got \(args.positionals.count)")
        }
        let time = try queryTime(args.value(Options.at))
        var secondary: SecondaryHoursType?
        if let kind = args.value(Options.hours), kind != "regular" { secondary = SecondaryHoursType(rawValue: kind) }

        let client = try PlaceReader(databasePath: context.databasePath)
        // As captured: the hours engine says why it does not use stale current hours.
        let place = try client.fetchStoredPlace(id: PlaceID(parsing: args.positionals[0]))
        let status = place.isOpen(at: time, secondaryHoursType: secondary)
        switch context.output {
        case .json: context.writeJSON(.object(OpenStatus.json(place, status, time: time, secondary: secondary)))
        case .text: context.console.out(text(place, status, secondary: secondary))
        }
        return .success
    }

    /// `--at`: absent is now; a malformed time is a usage error.
    static func queryTime(_ text: String?) throws -> HoursQueryTime {
        try QueryOptions.time(text) ?? .instant(Date())
    }

    static func text(_ place: Place, _ s: OpenStatus, secondary: SecondaryHoursType?) -> String {
        let title = place.displayName?.text ?? place.id.rawValue
        var lines = ["\(title): \(s.state.rawValue)\(secondary.map { " (\($0.rawValue) hours)" } ?? "")"]
        func row(_ key: String, _ value: String) { lines.append("  " + key.padding(16) + value) }
        row("reason", s.answerReason)
        if let local = s.localTime { row("at", local) }
        let clock = place.clock
        func local(_ d: Date) -> String { clock?.localTimeString(d) ?? d.rfc3339UTC }
        if let d = s.nextCloseTime { row("nextCloseTime", local(d)) }
        if let d = s.nextOpenTime { row("nextOpenTime", local(d)) }
        if let tz = s.timeZone { row("timeZone", tz + (s.timeZoneSource.map { " (from \($0.answerName))" } ?? "")) }
        if let h = s.hours { row("hours", h) }
        for (i, d) in s.weekdayDescriptions.enumerated() { row(i == 0 ? "weekdays" : "", d) }
        for (i, n) in s.notes.enumerated() { row(i == 0 ? "notes" : "", n) }
        return HumanText.lines(lines)
    }
}
