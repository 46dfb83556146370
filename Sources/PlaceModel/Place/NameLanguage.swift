/// Picks the name a place is served under for a requested language
/// (`languageCode` of a request, `--language` of the CLI), from the names
/// it holds: its default `displayName` and its localized names (OpenStreetMap
/// `name:xx`, Overture `names.common`, Google captures in several
/// languages: `extra.localizedNames`, language tag -> name).
///
/// Tags are compared as BCP 47 does, case aside and `_` read as `-`
/// (`zh_pinyin`, `en_GB`). The request's tag is looked up whole, then with
/// its last subtag cut off, again and again (`en-GB` -> `en`;
/// `zh-Hant-TW` -> `zh-Hant` -> `zh`); a Chinese region also stands for
/// its script (`zh-TW`, `zh-HK`, `zh-MO`: `zh-Hant`; `zh-CN`, `zh-SG`,
/// `zh-MY`: `zh-Hans`) and a script for its usual regions. Last, a name
/// of a more specific tag of the same language (`en` finds `en-GB`) is
/// taken. With no name in the language, the default name is served, with
/// the language it is known to be in (its own `languageCode`, else the one
/// localized name of the same text), or none.
package enum NameLanguage {
    /// `tag` with `_` as `-`, lower-cased (for comparing tags).
    public static func normalized(_ tag: String) -> String {
        String(tag.lowercased().map { $0 == "_" ? "-" : $0 })
    }

    /// Whether `tag` is a usable language tag: 2-3 letters (or `i`/`x`
    /// private forms are refused), then subtags of 1-8 letters or digits,
    /// separated by `-` or `_`; at most 35 characters.
    public static func isValidTag(_ tag: String) -> Bool {
        guard !tag.isEmpty, tag.utf8.count <= 35 else { return false }
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return parts.dropFirst().allSatisfy {
            (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }

    /// The tags to look for, in order, for a requested tag (normalized).
    public static func lookupOrder(_ requested: String) -> [String] {
        let tag = normalized(requested)
        var out: [String] = []
        func add(_ t: String) { if !t.isEmpty, !out.contains(t) { out.append(t) } }
        var parts = tag.split(separator: "-").map(String.init)
        // Chinese: a region stands for its script, a script for its regions.
        let hant: Set<String> = ["tw", "hk", "mo"], hans: Set<String> = ["cn", "sg", "my"]
        while !parts.isEmpty {
            let t = parts.joined(separator: "-")
            add(t)
            if parts[0] == "zh", parts.count >= 2 {
                let sub = parts[1]
                if hant.contains(sub) { add("zh-hant-" + sub); add("zh-hant") }
                if hans.contains(sub) { add("zh-hans-" + sub); add("zh-hans") }
                if sub == "hant" && parts.count == 2 { add("zh-tw"); add("zh-hk") }
                if sub == "hans" && parts.count == 2 { add("zh-cn") }
            }
            parts.removeLast()
        }
        return out
    }

    /// The name to serve for `requested` among `names` (tag, name; in the
    /// place's order), given the default name `defaultName` (nil: the place
    /// has none; then nothing is served unless a localized name matches).
    public static func choose(requested: String, defaultName: LocalizedText?, names: [(tag: String, text: String)])
        -> LocalizedText?
    {
        let keyed = names.map { (key: normalized($0.tag), tag: $0.tag, text: $0.text) }.filter { !$0.text.isEmpty }
        let order = lookupOrder(requested)
        // The default name first when it says it is in the language looked for.
        let defaultKey = defaultName?.languageCode.map(normalized)
        for t in order {
            if let d = defaultName, defaultKey == t { return d }
            if let hit = keyed.first(where: { $0.key == t }) {
                return LocalizedText(text: hit.text, languageCode: hit.tag)
            }
        }
        // A more specific tag of the same language (`en` finds `en-GB`);
        // not a script or dialect of Chinese for plain `zh`, which reads
        // either: the first one held.
        if let primary = order.last {
            if let d = defaultName, let k = defaultKey, k.hasPrefix(primary + "-") { return d }
            if let hit = keyed.first(where: { $0.key.hasPrefix(primary + "-") }) {
                return LocalizedText(text: hit.text, languageCode: hit.tag)
            }
        }
        guard let d = defaultName else { return nil }
        if d.languageCode != nil { return d }
        // The default name's language: the localized name of the same text
        // (OpenStreetMap's `name` is usually one of its `name:xx`).
        let same = keyed.filter { $0.text == d.text }
        if let first = same.first,
            same.allSatisfy({ $0.key.split(separator: "-").first == first.key.split(separator: "-").first })
        {
            return LocalizedText(text: d.text, languageCode: first.tag)
        }
        return d
    }

    /// The localized names of `extra.localizedNames` (string values, in
    /// their order).
    public static func names(_ localized: JSONValue?) -> [(tag: String, text: String)] {
        guard let o = localized?.objectValue else { return [] }
        return o.compactMap { m in m.value.stringValue.map { (m.key, $0) } }
    }
}
