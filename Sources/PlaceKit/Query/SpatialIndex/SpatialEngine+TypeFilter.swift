import PlaceModel
package import PlaceStorage

extension SpatialEngine {
    /// A predicate on slots of `index` for type filters, or nil for none.
    /// Loads each type's places once per index.
    package func typeFilter(_ filter: TypeFilter, in index: PlaceIndex) throws -> ((Int) -> Bool)? {
        // Primary types left out, one flag per type code (features that are
        // not places, streets ...): one array read per place, no strings.
        let hidden = index.hiddenCodes(filter.hiddenPrimaryTypes, anonymous: !filter.includeAnonymous)
        if filter.isEmpty {
            guard let hidden else { return nil }
            return { !hidden[Int(index.typeCodes[$0])] }
        }
        func slots(_ types: [String]) throws -> SlotSet? {
            if types.isEmpty { return nil }
            var union = SlotSet(count: index.count)
            for type in types {
                if index.typeSlotCache[type] == nil {
                    var set = SlotSet(count: index.count)
                    try store.rowids(ofType: type) { rowid in
                        if let s = index.slot(ofRowid: rowid) { set.insert(Int(s)) }
                    }
                    index.typeSlotCache[type] = set
                }
                union.formUnion(index.typeSlotCache[type]!)
            }
            return union
        }
        let included = try slots(filter.includedTypes)
        let excluded = try slots(filter.excludedTypes)
        let includedPrimary = Set(filter.includedPrimaryTypes)
        let excludedPrimary = Set(filter.excludedPrimaryTypes)
        let primaryNames = index.types
        return { slot in
            if let hidden, hidden[Int(index.typeCodes[slot])] { return false }
            if let included, !included.contains(slot) { return false }
            if let excluded, excluded.contains(slot) { return false }
            if !includedPrimary.isEmpty || !excludedPrimary.isEmpty {
                let name = IndexedType.primaryType(primaryNames.name(index.typeCodes[slot]))
                if !includedPrimary.isEmpty && !(name.map(includedPrimary.contains) ?? false) { return false }
                if let name, excludedPrimary.contains(name) { return false }
            }
            return true
        }
    }
}
