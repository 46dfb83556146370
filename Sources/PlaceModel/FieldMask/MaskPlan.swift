#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A field mask prepared for reading stored documents: which top-level
/// members to keep, matched on their bytes.
package struct MaskPlan {
    package let fields: FieldMask
    /// `name` and `id` (derived from the place ID, not stored).
    package let name: Bool
    package let id: Bool
    /// Kept document members: name bytes, name, sub-paths (empty: whole).
    package let keys: [(bytes: [UInt8], name: String, sub: Set<String>)]
    /// How many of `keys` a stored document can hold (all but `location`,
    /// which the geometry gives).
    let documentKeyCount: Int

    /// The language `displayName` is served in (a request's
    /// `languageCode`, `--language`; nil: the default name): the store picks
    /// it among the place's names (`NameLanguage`).
    package var language: String?
    /// Whether the plan keeps nothing but `id` and `name`, which the place
    /// ID gives: its JSON needs no stored document (`PlaceJSON.writeIDOnly`).
    package var needsNoDocument: Bool { !fields.isAll && keys.isEmpty }
    /// Whether the plan keeps `displayName` (whole or a part of it).
    package var keepsDisplayName: Bool { fields.isAll || fields.paths["displayName"] != nil }

    package init(_ fields: FieldMask, language: String? = nil) {
        self.fields = fields
        self.language = language
        name = fields.includes("name")
        id = fields.includes("id")
        keys =
            fields.isAll
            ? []
            : fields.paths.filter { $0.key != "name" && $0.key != "id" }
                .map { (Array($0.key.utf8), $0.key, $0.value) }.sorted { $0.name < $1.name }
        documentKeyCount = keys.filter { $0.name != "location" }.count
        keepsHours = fields.isAll || keys.contains { Place.hoursMembers.contains($0.name) }
        keepsLocation = fields.includes("location")
        keepsWholeLocation = fields.isAll || fields.paths["location"]?.isEmpty == true
    }

    /// The kept key whose name has these bytes, or nil.
    package func key(_ bytes: UnsafeRawBufferPointer) -> Int? {
        for i in keys.indices where keys[i].bytes.count == bytes.count {
            guard let b = bytes.baseAddress else { return i }
            if keys[i].bytes.withUnsafeBytes({ memcmp($0.baseAddress!, b, bytes.count) == 0 }) { return i }
        }
        return nil
    }

    /// Whether the plan keeps an hours member, whose `openNow` depends on
    /// the time of asking (all of them for `*`).
    package let keepsHours: Bool
    /// Whether it keeps `location`, and whole (not only its latitude, say).
    let keepsLocation: Bool
    let keepsWholeLocation: Bool

    /// An hours member, whose `openNow` depends on the time of asking.
    static func isHours(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 19, bytes.count <= 28 else { return false }
        return Place.hoursMembers.contains(where: { $0.utf8.count == bytes.count && $0.utf8.elementsEqual(bytes) })
    }

    static func isDerived(_ bytes: UnsafeRawBufferPointer) -> Bool {
        (bytes.count == 4 && bytes.elementsEqual("name".utf8)) || (bytes.count == 2 && bytes.elementsEqual("id".utf8))
    }
}
