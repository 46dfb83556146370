import Foundation
import SQLiteDB
import PlaceModel

/// A cache of at most about `2 * limit` entries: two generations, the
/// older dropped whole when the newer fills (an entry read from the older
/// moves to the newer).
struct BoundedCache<Key: Hashable, Value> {
    let limit: Int
    private var newer: [Key: Value] = [:]
    private var older: [Key: Value] = [:]

    init(limit: Int) { self.limit = limit }

    mutating func get(_ key: Key) -> Value? {
        if let v = newer[key] { return v }
        guard let v = older[key] else { return nil }
        put(key, v)
        return v
    }

    mutating func put(_ key: Key, _ value: Value) {
        newer[key] = value
        if newer.count >= limit {
            older = newer
            newer = [:]
            newer.reserveCapacity(limit)
        }
    }
}
