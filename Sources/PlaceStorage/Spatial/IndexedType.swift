package import PlaceModel

/// The primary type as the spatial loaders read it (`PlaceStore.spatialColumns`):
/// the stored one, "" for a feature that is not a place, "~" before the
/// type of an unnamed feature.
package enum IndexedType {
    /// The primary type the loaders give a feature that is not a place
    /// (`PlaceStore.notAPlaceSQL`: kept by `import --all-features`, with
    /// neither a name nor a type): never a current-place candidate, left
    /// out of nearby searches by default.
    package static let anonymous = ""
    /// The prefix of the primary type the loaders give an unnamed feature
    /// of a GeoJSON export (`PlaceStore.spatialColumns`: "~parking").
    static let unnamedPrefix = "~"

    /// A primary type as the loaders read it, without the unnamed prefix.
    package static func primaryType(_ indexed: String?) -> String? {
        guard let indexed, indexed.hasPrefix(unnamedPrefix) else { return indexed }
        return String(indexed.dropFirst(unnamedPrefix.count))
    }

    /// What the feature is for the current-place model, and its primary type.
    package static func decode(_ indexed: String?) -> (kind: LikelihoodCandidate.Kind, primaryType: String?) {
        let type = primaryType(indexed)
        return (indexed == anonymous ? .notAPlace : type == indexed ? .place : .unnamed, type)
    }
}
