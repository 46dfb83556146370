import Foundation

/// OpenStreetMap `opening_hours` (the wiki's specification), for the forms
/// whose answer is certain: weekday ranges and lists, several time ranges a
/// day, ranges past midnight (`18:00-03:00`, `20:00-26:00`), `24/7`,
/// `off`/`closed`, `PH off` (and other `PH` rules), additional rules (`,`),
/// month and date ranges (`Apr-Oct`, `Jun 15-Sep 15`, `Dec 25 off`,
/// `2017 Jul 1-2017 Aug 8 off`). Anything else is `unsupported` with the
/// form and the reason, and evaluates to UNKNOWN: sunrise/sunset, school
/// holidays, comments, open ends, week numbers, fallback rules, and rule
/// orders whose literal reading is almost never what was meant (a later rule
/// that wipes out an earlier one, a date exception before the rule it
/// amends). Weekday and month names are read case-insensitively and hours
/// may have one digit (`8:30`); nothing else is guessed.
///
/// Public holidays are not known offline: a `PH` rule never matches, so the
/// answer on a public holiday may differ (the status says so in a note).
///
/// A value longer than `maxBytes` is `unsupported` (too long) without being
/// read. Below it, parsing takes time linear in the value's length for
/// values without date ranges (the rule-order check compares each rule
/// with the weekday sets seen before it, at most 127 of them); with date
/// ranges it compares rules pairwise, within the bound.
public enum OSMOpeningHours {
    /// The longest value read, in UTF-8 bytes: 8 times the 255 characters
    /// OpenStreetMap allows a tag value (the longest `opening_hours` in
    /// `../shared/data/osm` has 137), so that a hostile value of many
    /// thousand rules costs no more than a real one.
    public static let maxBytes = 2048

    /// The key that carries the OSM text inside `regularOpeningHours`.
    public static let jsonKey = "osmOpeningHours"

    /// The `regularOpeningHours` object for an OSM `opening_hours` value:
    /// `periods` and generated `weekdayDescriptions` when the hours are the
    /// same every week, and the original text under `osmOpeningHours`
    /// always (`isOpen(at:)` evaluates from it; UNKNOWN when unsupported).
    /// The one call an OSM decoder makes:
    ///
    ///     doc["regularOpeningHours"] = OSMOpeningHours.regularOpeningHours(text)
    public static func regularOpeningHours(_ text: String) -> JSONValue {
        var o = JSONObject()
        if case .supported(let parsed) = parse(text), let periods = parsed.weeklyPeriods {
            o["periods"] = .array(periods.map(\.json))
            if let descriptions = parsed.weekdayDescriptions {
                o["weekdayDescriptions"] = .array(descriptions.map { .string($0) })
            }
        }
        o[jsonKey] = .string(text)
        return .object(o)
    }

    public enum ParseResult: Sendable {
        case supported(Parsed)
        case unsupported(Unsupported)
    }

    /// The forms placedb leaves unevaluated.
    public enum UnsupportedForm: String, Sendable, CaseIterable {
        case empty = "empty value"
        case comment = "comment (\"...\")"
        case variableTime = "sunrise/sunset/dawn/dusk"
        case openEnd = "open end (+)"
        case pointInTime = "time without an end"
        case repeatingTime = "repeating time (/)"
        case schoolHolidays = "school holidays (SH)"
        case holidayOffset = "holiday with a day offset"
        case nthWeekday = "nth weekday of the month (Mo[1])"
        case weekNumbers = "week numbers"
        case easter = "easter"
        case fallbackRule = "fallback rule (||)"
        case unknownState = "unknown modifier"
        case offWithTimes = "off with times"
        case daysWithoutTimes = "days or dates without times"
        case ambiguousOrder = "rule order that wipes out a rule"
        case additionalAfterDates = "additional rule after a date range"
        case invalidTime = "invalid time or date"
        case syntax = "not opening_hours syntax"
        case tooLong = "too long"
    }

    public struct Unsupported: Error, Sendable, Equatable, CustomStringConvertible {
        public let form: UnsupportedForm
        public let reason: String
        public var description: String { reason }
    }

    /// A parsed value: its rules, in order.
    public struct Parsed: Sendable {
        public let text: String
        let rules: [Rule]

        /// True when some rule has a month or date range (the hours change
        /// over the year).
        public var hasDateRanges: Bool { rules.contains { $0.dates != nil } }
        /// True when some rule is for public holidays (`PH`).
        public var mentionsPublicHolidays: Bool { rules.contains { $0.publicHoliday } }

        /// The ranges the rules give the day `date` (minutes from its
        /// midnight; an end past 24:00 runs into the next day): rules in
        /// order, a `;` rule replacing the day, a `,` rule adding to it.
        /// Public holidays are not known: `PH` rules never match.
        func schedule(on date: LocalDate, strict: Bool = false) -> [(start: Int, end: Int)] {
            var day: [(start: Int, end: Int)] = []
            for rule in rules where rule.matches(date) {
                if rule.additional {
                    if !rule.off { day += rule.times } else if strict { day = [] }
                } else {
                    day = rule.off ? [] : rule.times
                }
            }
            return day
        }

        /// What the rules decide on the day `date`, in minutes from its
        /// midnight (within 0..<1440): when it is open, and when the two
        /// readings of a range past midnight disagree. One reading keeps the
        /// part past midnight with the day it started on (what mappers
        /// mean by `Fr 20:00-03:00; Sa 12:00-03:00`); the other, which the
        /// specification's strict implementations take, lets a `;` rule for
        /// the next day replace it. Where they differ the answer is unknown.
        package func day(_ date: LocalDate) -> (open: [(start: Int, end: Int)], unknown: [(start: Int, end: Int)]) {
            let yesterday = date.adding(days: -1)
            // Reading 1: the day before keeps its ranges past midnight; a `,`
            // rule with `off` closes nothing.
            let kept = MinuteSet(schedule(on: date), within: 0, 1440)
                .union(MinuteSet(schedule(on: yesterday), within: 1440, 2880).shifted(-1440))
            // Reading 2: a range past midnight survives only where no later
            // `;` rule (nor a later `,` rule with `off`) names the next day:
            // rules apply in order, so an earlier rule replaces nothing a
            // later one adds (`Mo-Fr 16:00-01:00, Sa,Su 12:00-01:00` is open
            // Monday 00:00-01:00 in both readings).
            let replacing = rules.indices.filter { (!rules[$0].additional || rules[$0].off) && rules[$0].matches(date) }
            var spilled = MinuteSet(schedule(on: date, strict: true), within: 0, 1440)
            for (i, rule) in rules.enumerated()
            where !rule.off && rule.matches(yesterday) && !replacing.contains(where: { $0 > i }) {
                spilled = spilled.union(MinuteSet(rule.times, within: 1440, 2880).shifted(-1440))
            }
            return (kept.intersection(spilled).ranges, kept.symmetricDifference(spilled).ranges)
        }

        /// True when some day of a week (the first of 2024) has hours the two
        /// readings of a range past midnight disagree on: those hours are
        /// UNKNOWN.
        public var hasUndecidedHours: Bool {
            let sunday = LocalDate(year: 2024, month: 1, day: 7)!
            return (0..<7).contains { !day(sunday.adding(days: $0)).unknown.isEmpty }
        }

        /// Places API (New) periods when the hours are the same every week
        /// (no date ranges) and decided at every minute; nil otherwise.
        /// Ranges that meet across midnight join into one period; a week
        /// open throughout is one period with no close, as the API writes
        /// "always open".
        public var weeklyPeriods: [OpeningPeriod]? {
            guard !hasDateRanges else { return nil }
            // 2024-01-07 is a Sunday: weekday numbers match the API's.
            let sunday = LocalDate(year: 2024, month: 1, day: 7)!
            var ranges: [(start: Int, end: Int)] = []
            for d in 0..<7 {
                let decided = day(sunday.adding(days: d))
                guard decided.unknown.isEmpty else { return nil }
                for r in decided.open { ranges.append((d * 1440 + r.start, d * 1440 + r.end)) }
            }
            return WeeklyRanges.periods(fromWeekMinutes: ranges)
        }

        /// English descriptions of `weeklyPeriods`.
        public var weekdayDescriptions: [String]? { weeklyPeriods.map(WeekdayDescriptions.generate) }
    }

    package struct Rule: Sendable {
        /// A `,` rule adds to the day instead of replacing it.
        var additional = false
        /// Month/date ranges; nil means every date.
        var dates: [DateRange]?
        /// Weekdays as the API numbers them (0 = Sunday); nil means every day.
        var weekdays: Set<Int>?
        /// The rule names public holidays (`PH`).
        var publicHoliday = false
        var times: [(start: Int, end: Int)] = []
        var off = false
        /// The rule's text, for messages.
        var source = ""

        func matchesDate(_ date: LocalDate) -> Bool {
            guard let dates else { return true }
            return dates.contains { $0.contains(date) }
        }

        func matches(_ date: LocalDate) -> Bool {
            guard matchesDate(date) else { return false }
            if let weekdays { return weekdays.contains(date.weekday) }
            return !publicHoliday // a PH-only rule: holidays are not known
        }
    }

    /// An inclusive range of dates that recurs every year, or of absolute
    /// dates when it names years.
    struct DateRange: Sendable {
        struct End: Sendable { var year: Int?; var month: Int; var day: Int }
        var from: End
        var to: End
        /// Written as one date (Dec 25).
        var singleDay = false

        func contains(_ date: LocalDate) -> Bool {
            if let fy = from.year {
                let ty = to.year ?? (Self.key(to) >= Self.key(from) ? fy : fy + 1)
                let d = (date.year, Self.key(date.month, date.day))
                let a = (fy, Self.key(from)), b = (ty, Self.key(to))
                return d >= a && d <= b
            }
            let k = Self.key(date.month, date.day), a = Self.key(from), b = Self.key(to)
            return a <= b ? (k >= a && k <= b) : (k >= a || k <= b) // Nov-Mar wraps the new year
        }

        static func key(_ e: End) -> Int { key(e.month, e.day) }
        static func key(_ month: Int, _ day: Int) -> Int { month * 100 + day }
    }

    // MARK: Parsing

    public static func parse(_ text: String) -> ParseResult {
        var steps = 0
        return parse(text, maxBytes: maxBytes, steps: &steps)
    }

    /// `parse`, with the bound given and the work counted: `steps` grows by
    /// one for each character the tokenizer reads or a rule's source
    /// copies, each rule parsed and each comparison the rule-order check
    /// makes (the regression test of the quadratic parse counts them).
    package static func parse(_ text: String, maxBytes: Int, steps: inout Int) -> ParseResult {
        let length = text.utf8.count
        guard length <= maxBytes else {
            return .unsupported(
                Unsupported(
                    form: .tooLong,
                    reason:
                        "the value is \(length) bytes long; placedb reads at most \(maxBytes) (OpenStreetMap allows 255 characters)"
                ))
        }
        do {
            let tokens = try Tokenizer.tokenize(text, steps: &steps)
            var parser = Parser(tokens: tokens, text: text)
            let rules = try parser.parseRules()
            steps += parser.steps
            try checkOrder(rules, steps: &steps)
            return .supported(Parsed(text: text, rules: rules))
        } catch {
            return .unsupported(error)
        }
    }

    /// Refuses rule orders whose literal reading is almost surely not what
    /// the mapper meant: a later `;` rule that overrides an earlier one on
    /// every day the earlier one names (`Su 08:30-14:00; Su 16:30-20:00`,
    /// `Tu 09:00-12:00; 13:00-18:30`), a date exception or `PH` rule placed
    /// before a rule that overrides it (`May 29 off; Mo-Fr 09:00-18:00`),
    /// and a `,` rule without dates after one with dates (does the range
    /// carry over?).
    static func checkOrder(_ rules: [Rule], steps: inout Int) throws(Unsupported) {
        // Dates to compare on: four years (a leap year among them) and any
        // year the value names.
        var years = Set(2024...2027)
        for r in rules {
            for d in r.dates ?? [] {
                for y in [d.from.year, d.to.year].compactMap({ $0 }) { years.insert(y); years.insert(y + 1) }
            }
        }
        let dated = rules.contains { $0.dates != nil }
        if !dated { return try checkWeeklyOrder(rules, steps: &steps) }
        var days: [LocalDate] = []
        if dated {
            // A named year of 9999 adds 10000, which no date has.
            for y in years.sorted() {
                guard let first = LocalDate(year: y, month: 1, day: 1),
                    let last = LocalDate(year: y, month: 12, day: 31)
                else { continue }
                for i in 0..<(last.dayNumber - first.dayNumber + 1) { days.append(first.adding(days: i)) }
            }
        } else {
            let sunday = LocalDate(year: 2024, month: 1, day: 7)!
            days = (0..<7).map { sunday.adding(days: $0) }
        }
        func matchSet(_ r: Rule) -> Set<Int> { Set(days.filter { r.matches($0) }.map(\.dayNumber)) }
        let sets = rules.map(matchSet)
        steps += rules.count * days.count
        for (j, later) in rules.enumerated() {
            if later.additional {
                if later.dates == nil, j > 0, rules[j - 1].dates != nil {
                    throw Unsupported(
                        form: .additionalAfterDates,
                        reason:
                            "the additional rule \(quoted(later.source)) follows the date rule \(quoted(rules[j - 1].source)): it is unclear whether the dates carry over"
                    )
                }
                continue
            }
            steps += j
            for i in 0..<j {
                let earlier = rules[i]
                // A PH rule is overridden on holidays by a later weekday
                // rule (a later date exception is meant to override it).
                if earlier.publicHoliday, !later.publicHoliday, later.dates == nil,
                    later.weekdays == nil || !(later.weekdays!.isEmpty),
                    days.contains(where: { earlier.matchesDate($0) && later.matches($0) })
                {
                    throw Unsupported(
                        form: .ambiguousOrder,
                        reason:
                            "the holiday rule \(quoted(earlier.source)) comes before \(quoted(later.source)), which overrides it on holidays (put PH rules last)"
                    )
                }
                guard !sets[i].isEmpty else { continue }
                let overlap = !sets[i].isDisjoint(with: sets[j])
                if overlap && sets[i].isSubset(of: sets[j]) {
                    throw Unsupported(
                        form: .ambiguousOrder,
                        reason:
                            "the rule \(quoted(later.source)) overrides the earlier rule \(quoted(earlier.source)) on every day it names (did you mean ',' instead of ';'?)"
                    )
                }
                if overlap && earlier.dates != nil && later.dates == nil {
                    throw Unsupported(
                        form: .ambiguousOrder,
                        reason:
                            "the date rule \(quoted(earlier.source)) comes before \(quoted(later.source)), which overrides it (put date exceptions last)"
                    )
                }
            }
        }
    }

    /// `checkOrder` for a value without date ranges, in one pass: a rule's
    /// days are a set of the 7 weekdays (a 7-bit mask), so instead of
    /// comparing each rule with every earlier one, the pass keeps the first
    /// rule seen with each mask (128) and the first `PH` rule, and looks up
    /// the masks inside a rule's own. Same errors, naming the same rules,
    /// as the pairwise check (the earliest rule it finds).
    static func checkWeeklyOrder(_ rules: [Rule], steps: inout Int) throws(Unsupported) {
        let sunday = LocalDate(year: 2024, month: 1, day: 7)!
        let week = (0..<7).map { sunday.adding(days: $0) }
        var firstWithMask = [Int](repeating: Int.max, count: 128)
        var firstHoliday = Int.max
        for (j, later) in rules.enumerated() {
            var mask = 0
            for (d, date) in week.enumerated() where later.matches(date) { mask |= 1 << d }
            steps += 1
            if !later.additional {
                // The earliest earlier rule the pairwise check would stop at:
                // a PH rule the later one overrides on holidays, or a rule
                // whose days all lie within the later one's.
                var culprit = Int.max
                var holiday = false
                if firstHoliday < j, !later.publicHoliday, later.weekdays == nil || !later.weekdays!.isEmpty, mask != 0
                {
                    culprit = firstHoliday
                    holiday = true
                }
                var sub = mask
                while sub != 0 {
                    steps += 1
                    if firstWithMask[sub] < culprit { culprit = firstWithMask[sub]; holiday = false }
                    sub = (sub - 1) & mask
                }
                if culprit != Int.max {
                    let earlier = rules[culprit]
                    if holiday {
                        throw Unsupported(
                            form: .ambiguousOrder,
                            reason:
                                "the holiday rule \(quoted(earlier.source)) comes before \(quoted(later.source)), which overrides it on holidays (put PH rules last)"
                        )
                    }
                    throw Unsupported(
                        form: .ambiguousOrder,
                        reason:
                            "the rule \(quoted(later.source)) overrides the earlier rule \(quoted(earlier.source)) on every day it names (did you mean ',' instead of ';'?)"
                    )
                }
            }
            if mask != 0, firstWithMask[mask] == Int.max { firstWithMask[mask] = j }
            if later.publicHoliday, firstHoliday == Int.max { firstHoliday = j }
        }
    }

    // MARK: Tokens

    enum Token: Equatable {
        case weekday(Int) // API numbering, 0 = Sunday
        case month(Int)
        case publicHoliday, schoolHoliday
        case number(Int, digits: Int)
        case time(Int) // minutes
        case word(String) // lower-cased
        case symbol(Character)
        case fallback // ||
        case always // 24/7
    }

    struct Tokenizer {
        static let weekdays = ["mo": 1, "tu": 2, "we": 3, "th": 4, "fr": 5, "sa": 6, "su": 0]
        static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

        /// The tokens and the character offset each starts at.
        static func tokenize(_ text: String, steps: inout Int) throws(Unsupported) -> [(token: Token, at: Int)] {
            let c = Array(text.unicodeScalars)
            steps += c.count
            var out: [(Token, Int)] = []
            var i = 0
            func isDigit(_ s: Unicode.Scalar) -> Bool { ("0"..."9").contains(s) }
            func isLetter(_ s: Unicode.Scalar) -> Bool { ("a"..."z").contains(s) || ("A"..."Z").contains(s) }
            while i < c.count {
                let s = c[i]
                if s == " " || s == "\t" || s == "\u{A0}" || s == "\n" || s == "\r" { i += 1; continue }
                let start = i
                if s == "\"" {
                    throw Unsupported(
                        form: .comment, reason: "it holds a comment (\"...\"), free text placedb does not read")
                }
                if s == "2", i + 3 < c.count, c[i + 1] == "4", c[i + 2] == "/", c[i + 3] == "7" {
                    out.append((.always, start)); i += 4; continue
                }
                if s == "|", i + 1 < c.count, c[i + 1] == "|" { out.append((.fallback, start)); i += 2; continue }
                if isDigit(s) {
                    var v = 0, n = 0
                    while i < c.count, isDigit(c[i]) {
                        v = v * 10 + Int(c[i].value - 48); n += 1; i += 1; if n > 4 { break }
                    }
                    if i + 1 < c.count, c[i] == ":", isDigit(c[i + 1]), n <= 2 {
                        // hh:mm (one-digit hours accepted). A ':' not followed
                        // by a digit ends a date selector (Oct 15: 09:00).
                        guard i + 2 < c.count, isDigit(c[i + 2]), i + 3 >= c.count || !isDigit(c[i + 3]) else {
                            throw Unsupported(
                                form: .invalidTime, reason: "a time at character \(start + 1) is not hh:mm")
                        }
                        let m = Int(c[i + 1].value - 48) * 10 + Int(c[i + 2].value - 48)
                        guard m <= 59, v <= 48 else {
                            throw Unsupported(form: .invalidTime, reason: "the time \(v):\(m) is not a valid time")
                        }
                        out.append((.time(v * 60 + m), start))
                        i += 3
                    } else {
                        out.append((.number(v, digits: n), start))
                    }
                    continue
                }
                if isLetter(s) {
                    var w = ""
                    while i < c.count, isLetter(c[i]) { w.unicodeScalars.append(c[i]); i += 1 }
                    let lower = w.lowercased()
                    if let d = weekdays[lower] {
                        out.append((.weekday(d), start))
                    } else if let m = months.firstIndex(of: lower) {
                        out.append((.month(m + 1), start))
                    } else if lower == "ph" {
                        out.append((.publicHoliday, start))
                    } else if lower == "sh" {
                        out.append((.schoolHoliday, start))
                    } else {
                        out.append((.word(lower), start))
                    }
                    continue
                }
                if ["-", ",", ";", ":", "[", "]", "+", "/", "(", ")"].contains(s) {
                    out.append((.symbol(Character(s)), start))
                    i += 1
                    continue
                }
                if s == "\u{2013}" || s == "\u{2014}" { // en/em dash typed for a hyphen
                    throw Unsupported(
                        form: .syntax,
                        reason: "character \(start + 1) is a dash ('\(Character(s))'), not the '-' the syntax uses")
                }
                throw Unsupported(form: .syntax, reason: "unexpected '\(Character(s))' at character \(start + 1)")
            }
            return out
        }
    }

    // MARK: Grammar

    struct Parser {
        let tokens: [(token: Token, at: Int)]
        let text: String
        /// The text's scalars, which the tokens' offsets count: made once
        /// (each rule's source made its own copy of the whole text, which
        /// made parsing quadratic in the number of rules).
        let scalars: [Unicode.Scalar]
        var i = 0
        /// Work done, for `parse(_:maxBytes:steps:)`.
        var steps = 0

        init(tokens: [(token: Token, at: Int)], text: String) {
            self.tokens = tokens
            self.text = text
            self.scalars = Array(text.unicodeScalars)
        }

        var current: Token? { i < tokens.count ? tokens[i].token : nil }
        func peek(_ n: Int) -> Token? { i + n < tokens.count ? tokens[i + n].token : nil }

        func syntax(_ what: String) -> Unsupported {
            let position = i < tokens.count ? "at character \(tokens[i].at + 1)" : "at the end"
            return Unsupported(form: .syntax, reason: "\(what) \(position)")
        }

        mutating func parseRules() throws(Unsupported) -> [Rule] {
            guard !tokens.isEmpty else { throw Unsupported(form: .empty, reason: "the value is empty") }
            var rules: [Rule] = []
            var additional = false
            while true {
                steps += 1
                let startIndex = i
                var rule = try parseRule()
                rule.additional = additional
                rule.source = source(from: startIndex)
                steps += rule.source.unicodeScalars.count
                rules.append(rule)
                guard let t = current else { break }
                switch t {
                case .symbol(";"):
                    i += 1
                    if current == nil { return rules } // a trailing ';'
                    additional = false
                case .symbol(","):
                    i += 1
                    additional = true
                case .fallback:
                    throw Unsupported(
                        form: .fallbackRule,
                        reason: "it has a fallback rule (||), which applies only when nothing else does")
                default:
                    throw unexpected()
                }
            }
            return rules
        }

        /// The text from token `start` to the current one, trimmed.
        func source(from start: Int) -> String {
            let a = tokens[start].at
            let b = i < tokens.count ? tokens[i].at : scalars.count
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[a..<min(b, scalars.count)])
            return String(view).trimmingCharacters(in: CharacterSet(charactersIn: " ;,"))
        }

        func unexpected() -> Unsupported {
            guard let t = current else { return syntax("unexpected end") }
            switch t {
            case .word(let w): return word(w)
            case .schoolHoliday:
                return Unsupported(
                    form: .schoolHolidays, reason: "it uses school holidays (SH), which placedb does not know")
            default: return syntax("unexpected \(describe(t))")
            }
        }

        /// The unsupported form a word belongs to.
        func word(_ w: String) -> Unsupported {
            switch w {
            case "sunrise", "sunset", "dawn", "dusk":
                return Unsupported(
                    form: .variableTime, reason: "it uses \(w), which changes with the date and the place")
            case "week": return Unsupported(form: .weekNumbers, reason: "it uses week numbers")
            case "easter": return Unsupported(form: .easter, reason: "it uses easter, a movable date")
            case "unknown": return Unsupported(form: .unknownState, reason: "it says the state is unknown")
            default: return syntax("unknown word '\(w)'")
            }
        }

        func describe(_ t: Token) -> String {
            switch t {
            case .symbol(let c): "'\(c)'"
            case .number(let n, _): "number \(n)"
            case .time: "time"
            case .weekday: "weekday"
            case .month: "month"
            default: "token"
            }
        }

        mutating func parseRule() throws(Unsupported) -> Rule {
            var rule = Rule()
            var hasSelector = false
            let start = i
            if current == .always {
                i += 1
                rule.times = [(0, 1440)]
                if let m = current, case .word(let w) = m, w == "off" || w == "closed" {
                    i += 1
                    rule.off = true
                    rule.times = []
                }
                return rule
            }
            // Wide range: years, months, dates.
            if case .number(_, let digits) = current, digits == 4 {
                rule.dates = try parseDateSelector()
                hasSelector = true
            } else if case .month = current {
                rule.dates = try parseDateSelector()
                hasSelector = true
            } else if case .number = current, case .month = peek(1) {
                throw Unsupported(
                    form: .syntax, reason: "a date is written day first; the syntax is month first (Jun 15)")
            }
            if rule.dates != nil, current == .symbol(":") { i += 1 }
            // Weekdays and holidays.
            switch current {
            case .weekday, .publicHoliday, .schoolHoliday:
                try parseWeekdays(&rule)
                hasSelector = true
            default: break
            }
            // Times.
            var hasTimes = false
            switch current {
            case .time:
                rule.times = try parseTimes()
                hasTimes = true
            case .word(let w) where ["sunrise", "sunset", "dawn", "dusk"].contains(w):
                throw word(w)
            case .number:
                throw syntax("a number where a time (hh:mm) was expected")
            default: break
            }
            // Modifier.
            if case .word(let w) = current {
                switch w {
                case "off", "closed": rule.off = true
                case "open": break
                default: throw word(w)
                }
                i += 1
                if rule.off {
                    if hasTimes {
                        throw Unsupported(
                            form: .offWithTimes,
                            reason: "the rule \(quoted(source(from: start))) closes only some hours of a day")
                    }
                    rule.times = []
                } else if !hasTimes {
                    rule.times = [(0, 1440)] // an explicit "open" without times is the whole day
                }
                return rule
            }
            if !hasSelector && !hasTimes { throw unexpected() }
            if !hasTimes {
                throw Unsupported(
                    form: .daysWithoutTimes,
                    reason:
                        "the rule \(quoted(source(from: start))) names days or dates without times; the syntax reads that as open all day, which is rarely what is meant"
                )
            }
            return rule
        }

        mutating func parseDateSelector() throws(Unsupported) -> [DateRange] {
            var ranges: [DateRange] = []
            var more = true
            while true {
                if more { ranges.append(try parseDateRange()) }
                more = true
                // A ',' continues the list only when a month or year follows,
                // or a day of the same month (Dec 25,26).
                if current == .symbol(",") {
                    if case .month = peek(1) { i += 1; continue }
                    if case .number(_, 4) = peek(1) { i += 1; continue }
                    if case .number(let d, let digits) = peek(1), digits <= 2, let last = ranges.last, last.singleDay {
                        guard d <= LocalDate.daysInMonth(year: last.to.year ?? 2024, month: last.to.month), d >= 1
                        else {
                            throw Unsupported(
                                form: .invalidTime, reason: "day \(d) does not exist in month \(last.to.month)")
                        }
                        i += 2
                        let end = DateRange.End(year: last.to.year, month: last.to.month, day: d)
                        ranges.append(DateRange(from: end, to: end, singleDay: true))
                        more = false
                        continue
                    }
                }
                return ranges
            }
        }

        mutating func parseDateEnd(defaultDayIsLast: Bool, monthOf previous: Int? = nil) throws(Unsupported) -> (
            end: DateRange.End, hasDay: Bool
        ) {
            var year: Int?
            if case .number(let y, 4) = current {
                // The specification's years are after 1900; a date beyond
                // 9999 is not one LocalDate (or the Places API) can hold.
                guard (1900...9999).contains(y) else {
                    throw Unsupported(form: .invalidTime, reason: "year \(y) is outside 1900-9999")
                }
                year = y
                i += 1
            }
            var month: Int
            if case .month(let m) = current {
                month = m
                i += 1
            } else if let previous, case .number = current, year == nil {
                month = previous // "Jun 15-30": the same month
            } else {
                throw syntax("expected a month")
            }
            if case .number(let d, let digits) = current, digits <= 2 {
                i += 1
                guard (1...31).contains(d), d <= LocalDate.daysInMonth(year: year ?? 2024, month: month) else {
                    throw Unsupported(form: .invalidTime, reason: "day \(d) does not exist in month \(month)")
                }
                if case .symbol("[") = current {
                    throw Unsupported(form: .nthWeekday, reason: "it uses an nth weekday")
                }
                return (DateRange.End(year: year, month: month, day: d), true)
            }
            if case .weekday = current, case .symbol("[") = peek(1) {
                throw Unsupported(form: .nthWeekday, reason: "it uses an nth weekday of a month")
            }
            let day = defaultDayIsLast ? LocalDate.daysInMonth(year: year ?? 2024, month: month) : 1
            return (DateRange.End(year: year, month: month, day: day), false)
        }

        mutating func parseDateRange() throws(Unsupported) -> DateRange {
            let (from, fromHasDay) = try parseDateEnd(defaultDayIsLast: false)
            guard current == .symbol("-") else {
                // A single month, or a single date.
                var to = from
                if !fromHasDay { to.day = LocalDate.daysInMonth(year: from.year ?? 2024, month: from.month) }
                return DateRange(from: from, to: to, singleDay: fromHasDay)
            }
            i += 1
            let (to, toHasDay) = try parseDateEnd(defaultDayIsLast: true, monthOf: fromHasDay ? from.month : nil)
            if fromHasDay != toHasDay {
                throw syntax("a date range mixes a month and a date")
            }
            if from.year != nil, let ty = to.year, ty < from.year! {
                throw Unsupported(form: .invalidTime, reason: "the date range ends before it starts")
            }
            return DateRange(from: from, to: to)
        }

        mutating func parseWeekdays(_ rule: inout Rule) throws(Unsupported) {
            var days = Set<Int>()
            var named = false
            while true {
                switch current {
                case .weekday(let a):
                    i += 1
                    if current == .symbol("[") {
                        throw Unsupported(form: .nthWeekday, reason: "it uses an nth weekday of the month")
                    }
                    named = true
                    if current == .symbol("-") {
                        guard case .weekday(let b) = peek(1) else { throw syntax("expected a weekday after '-'") }
                        i += 2
                        if current == .symbol("[") {
                            throw Unsupported(form: .nthWeekday, reason: "it uses an nth weekday of the month")
                        }
                        // Monday-first order, wrapping past Sunday (We-Mo).
                        let from = (a + 6) % 7, to = (b + 6) % 7
                        var k = from
                        while true {
                            days.insert((k + 1) % 7)
                            if k == to { break }
                            k = (k + 1) % 7
                        }
                    } else {
                        days.insert(a)
                    }
                case .publicHoliday:
                    i += 1
                    rule.publicHoliday = true
                    switch current {
                    case .symbol("+"), .symbol("-"), .number:
                        throw Unsupported(form: .holidayOffset, reason: "it uses a public holiday with a day offset")
                    default: break
                    }
                case .schoolHoliday:
                    throw Unsupported(
                        form: .schoolHolidays, reason: "it uses school holidays (SH), which placedb does not know")
                default:
                    throw syntax("expected a weekday")
                }
                if current == .symbol(",") {
                    switch peek(1) {
                    case .weekday, .publicHoliday, .schoolHoliday: i += 1; continue
                    default: break
                    }
                }
                break
            }
            if named { rule.weekdays = days } else { rule.weekdays = [] }
        }

        mutating func parseTimes() throws(Unsupported) -> [(start: Int, end: Int)] {
            var ranges: [(start: Int, end: Int)] = []
            while true {
                guard case .time(let start) = current else { throw syntax("expected a time") }
                i += 1
                guard start < 24 * 60 else {
                    throw Unsupported(
                        form: .invalidTime,
                        reason:
                            "a range starts at \(start / 60):\(String(start % 60).leftPadded(2)), past the end of the day"
                    )
                }
                switch current {
                case .symbol("-"):
                    i += 1
                    switch current {
                    case .time(let end):
                        i += 1
                        if current == .symbol("+") {
                            throw Unsupported(form: .openEnd, reason: "a range has an open end (+)")
                        }
                        if current == .symbol("/") {
                            throw Unsupported(form: .repeatingTime, reason: "it uses a repeating time (/)")
                        }
                        var e = end
                        if e <= start { e += 1440 } // past midnight; equal ends are a whole day
                        guard e - start <= 48 * 60 else {
                            throw Unsupported(form: .invalidTime, reason: "a range is longer than two days")
                        }
                        ranges.append((start, e))
                    case .word(let w):
                        throw word(w)
                    case .symbol("("):
                        throw Unsupported(form: .variableTime, reason: "it uses a variable time")
                    default:
                        throw syntax("expected a time after '-'")
                    }
                case .symbol("+"):
                    throw Unsupported(form: .openEnd, reason: "a time has an open end (+)")
                default:
                    throw Unsupported(form: .pointInTime, reason: "a time has no end (a point in time)")
                }
                if current == .symbol(","), case .time = peek(1) { i += 1; continue }
                return ranges
            }
        }
    }
}

extension OSMOpeningHours {
    /// A tally of `opening_hours` values: how many placedb evaluates, and the
    /// forms it leaves, with counts.
    public struct Coverage: Sendable {
        public private(set) var values = 0
        public private(set) var evaluated = 0
        public private(set) var distinctValues = 0
        public private(set) var distinctEvaluated = 0
        /// Distinct evaluated values with some hours of the week left
        /// UNKNOWN (a range past midnight read two ways).
        public private(set) var distinctWithUndecidedHours = 0
        /// Values left, by form: (count, distinct values, up to 3 examples).
        public private(set) var left: [UnsupportedForm: (count: Int, distinct: Int, examples: [String])] = [:]
        private var seenSupported: Set<String> = []
        private var seenLeft: [String: UnsupportedForm] = [:]

        public init() {}

        public mutating func add(_ value: String) {
            values += 1
            if seenSupported.contains(value) { evaluated += 1; return }
            if let form = seenLeft[value] { left[form]!.count += 1; return }
            distinctValues += 1
            switch OSMOpeningHours.parse(value) {
            case .supported(let parsed):
                seenSupported.insert(value)
                evaluated += 1
                distinctEvaluated += 1
                if parsed.hasUndecidedHours { distinctWithUndecidedHours += 1 }
            case .unsupported(let u):
                seenLeft[value] = u.form
                var entry = left[u.form] ?? (0, 0, [])
                entry.count += 1
                entry.distinct += 1
                if entry.examples.count < 3 { entry.examples.append(value) }
                left[u.form] = entry
            }
        }

        /// Share of values evaluated, 0...1.
        public var share: Double { values == 0 ? 0 : Double(evaluated) / Double(values) }
        public var distinctShare: Double {
            distinctValues == 0 ? 0 : Double(distinctEvaluated) / Double(distinctValues)
        }

        /// The forms left, most frequent first.
        public var leftForms: [(form: UnsupportedForm, count: Int, distinct: Int, examples: [String])] {
            left.map { ($0.key, $0.value.count, $0.value.distinct, $0.value.examples) }
                .sorted { $0.count != $1.count ? $0.count > $1.count : $0.form.rawValue < $1.form.rawValue }
        }
    }
}
