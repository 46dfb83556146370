import PlaceModel
/// Merges a record into the stored place of the same ID, member by member
/// (docs/merging.md):
///
/// - a record updates only the top-level members it carries; the members it
///   does not carry stay as stored;
/// - a member is replaced whole (`photos`, `reviews`, `regularOpeningHours`,
///   `displayName`, ...): its parts belong together and have no identity of
///   their own across captures. The option bags (`accessibilityOptions`,
///   `paymentOptions`, `parkingOptions`) merge key by key, since a source may
///   give one key of them (legacy `wheelchair_accessible_entrance`);
/// - a member captured earlier never replaces the same member captured later;
///   between two values captured at the same time a later import wins, and
///   within one import the content decides (`tieGoesToRecord`; the same ID
///   again in one input: the later record wins), so the answer does not
///   depend on the order of its files; a capture
///   nothing dates (`CaptureTime.unordered`, negative) is older than any
///   dated one; between two such captures the later `placedb import` wins,
///   and within one import their content decides, the same whatever the
///   order of its files (`unordered`);
/// - every member remembers when it was captured;
/// - a *complete* record (OpenStreetMap, Overture, GeoJSON: a feature lists
///   all it knows, there is no field mask) captured at or after everything
///   stored replaces the document whole, so a deleted tag is gone; an older
///   complete record changes nothing.
struct MemberMerge {
    /// Members merged key by key.
    static let keyedMembers: Set<String> = ["accessibilityOptions", "paymentOptions", "parkingOptions"]

    /// The merged document (stored order, then the record's new members).
    package var document: JSONObject
    /// The capture time of each member of `document`.
    package var times: [String: Int64]
    package var extra: JSONObject
    /// True when a member the record carries kept its stored value because
    /// the stored one was captured later and differs.
    var keptNewer = false
    /// Which members came from the record (their value or time changed).
    var tookLocation = false
    var tookTimeZone = false
    /// The record was captured at or after everything stored.
    var recordIsLatest = false
    /// A member differed between the record and the stored place and
    /// neither capture has a time: which value stays was decided by the
    /// captures' content keys, not by a time.
    var unordered = false

    /// The latest capture of any member.
    package var capturedAt: Int64 { times.values.max() ?? 0 }

    /// `member_captured`: the members captured at another time than
    /// `capturedAt`, or nil when all share it.
    var memberCapturedJSON: String? {
        let latest = capturedAt
        let others = document.keys.compactMap { k in times[k].flatMap { $0 == latest ? nil : (k, JSONValue.int($0)) } }
        return others.isEmpty
            ? nil : JSONWriter().string(.object(JSONObject(uniqueMembers: others.map { (key: $0.0, value: $0.1) })))
    }

    /// `stored`: the stored document (with `location`); `storedTimes`: the
    /// stored members' times (a member without one was captured at
    /// `storedCapturedAt`; 0 stands for unknown, older than any capture).
    /// `winsTies`: the record replaces members captured at the same time
    /// (the same ID again in one input: the later record is kept; a place
    /// last written by an earlier import); else, within one import, a tie
    /// between different values is decided by their content
    /// (`tieGoesToRecord`), whatever the order of its files.
    init(
        stored: JSONObject, storedCapturedAt: Int64, storedTimes: [String: Int64], storedExtra: JSONObject,
        record: JSONObject, recordExtra: JSONObject, capturedAt t: Int64, complete: Bool = false, winsTies: Bool = false
    ) {
        var doc = stored
        var times: [String: Int64] = [:]
        for k in stored.keys { times[k] = storedTimes[k] ?? storedCapturedAt }
        if complete {
            let latest = max(times.values.max() ?? 0, storedCapturedAt)
            let differs = record != stored || recordExtra != storedExtra
            unordered = differs && !winsTies && (CaptureTime.areUnordered(t, latest) || t == latest)
            if t > latest
                || (t == latest && (winsTies || !differs || Self.tieGoesToRecord(.object(record), .object(stored))))
            {
                document = record
                self.times = Dictionary(uniqueKeysWithValues: record.keys.map { ($0, t) })
                extra = recordExtra
                tookLocation = true
                tookTimeZone = true
                recordIsLatest = true
            } else {
                document = stored
                self.times = times
                extra = storedExtra
                keptNewer = t < latest && differs
            }
            return
        }
        for (key, value) in record {
            guard let old = doc[key], let oldTime = times[key] else {
                doc[key] = value
                times[key] = t
                if key == "location" { tookLocation = true }
                if key == "timeZone" || key == "utcOffsetMinutes" { tookTimeZone = true }
                continue
            }
            let differs = old != value
            if differs && !winsTies && (CaptureTime.areUnordered(t, oldTime) || t == oldTime) { unordered = true }
            if t > oldTime || (t == oldTime && (winsTies || !differs || Self.tieGoesToRecord(value, old))) {
                if Self.keyedMembers.contains(key), var merged = old.objectValue, let new = value.objectValue {
                    for (k, v) in new { merged[k] = v }
                    doc[key] = .object(merged)
                } else {
                    doc[key] = value
                }
                times[key] = t
                if key == "location" { tookLocation = true }
                if key == "timeZone" || key == "utcOffsetMinutes" { tookTimeZone = true }
            } else {
                if Self.keyedMembers.contains(key), var merged = old.objectValue, let new = value.objectValue {
                    // An older capture fills the keys the newer one lacks.
                    for (k, v) in new where merged[k] == nil { merged[k] = v }
                    if merged != old.objectValue { doc[key] = .object(merged) }
                    if t < oldTime, new.contains(where: { merged[$0.key] != $0.value }) { keptNewer = true }
                } else if old != value, t < oldTime {
                    keptNewer = true
                }
            }
        }
        let latestStored = times.filter { stored[$0.key] != nil }.values.max() ?? 0
        let latest = max(latestStored, storedCapturedAt)
        recordIsLatest =
            t > latest
            || (t == latest && (winsTies || record == stored || Self.tieGoesToRecord(.object(record), .object(stored))))
        var extra = storedExtra
        for (k, v) in recordExtra where recordIsLatest || extra[k] == nil { extra[k] = v }
        Self.keepNames(
            stored: stored["displayName"], record: record["displayName"], served: doc["displayName"], extra: &extra)
        self.document = doc
        self.times = times
        self.extra = extra
    }

    /// A place captured in several languages (a Google place asked for
    /// with another `languageCode`: `displayName` `{"text": "Sacré-Cœur",
    /// "languageCode": "fr"}`, then `{"text": "Sacred Heart",
    /// "languageCode": "en"}`) keeps the name of each language in
    /// `extra.localizedNames`, so none is lost and each can be served
    /// (`NameLanguage`): when the stored and the record's names are of
    /// two languages, or the place holds localized names already. A
    /// language's name is the one served when the record's won
    /// (`served`), else the first known.
    static func keepNames(stored: JSONValue?, record: JSONValue?, served: JSONValue?, extra: inout JSONObject) {
        func name(_ v: JSONValue?) -> (language: String, text: String)? {
            guard let o = v?.objectValue, let l = o["languageCode"]?.stringValue, !l.isEmpty,
                let t = o["text"]?.stringValue
            else { return nil }
            return (l, t)
        }
        guard let new = name(record) else { return }
        let old = name(stored)
        let held = extra["localizedNames"]?.objectValue
        guard
            held != nil
                || (old != nil && NameLanguage.normalized(old!.language) != NameLanguage.normalized(new.language))
        else { return }
        var names = held ?? JSONObject()
        if let old, names[old.language] == nil { names[old.language] = .string(old.text) }
        if names[new.language] == nil || served == record { names[new.language] = .string(new.text) }
        if names != held { extra["localizedNames"] = .object(names) }
    }

    /// Between two different values captured at the same time (or two
    /// captures of one import that nothing dates, whose keys tied): the
    /// one whose compact JSON has the larger FNV-1a hash, so the answer
    /// does not depend on which came first.
    static func tieGoesToRecord(_ record: JSONValue, _ stored: JSONValue) -> Bool {
        func hash(_ v: JSONValue) -> UInt64 {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for b in JSONWriter().string(v).utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
            return h
        }
        return hash(record) >= hash(stored)
    }

    /// Parses `member_captured`.
    package static func times(_ json: JSONValue?) -> [String: Int64] {
        var out: [String: Int64] = [:]
        for (k, v) in json?.objectValue ?? JSONObject() { if let n = v.intValue { out[k] = Int64(n) } }
        return out
    }
}
