/// A JSON object whose members keep their order. Keys are unique: setting an
/// existing key replaces its value in place.
public struct JSONObject: Sendable, Equatable, Sequence {
    public private(set) var members: [(key: String, value: JSONValue)]

    public init() { members = [] }
    public init(_ members: [(String, JSONValue)]) {
        self.init(lastWins: members.map { (key: $0.0, value: $0.1) })
    }
    /// Builds from members already known to have unique keys.
    package init(uniqueMembers: [(key: String, value: JSONValue)]) { members = uniqueMembers }

    /// Builds from members that may repeat a key, as setting them one by one
    /// would (the last value wins, at the first one's position), in linear
    /// time: an object of 100,000 members is read in milliseconds, not the
    /// minutes one search per member took.
    package init(lastWins input: [(key: String, value: JSONValue)]) {
        var index: [String: Int] = [:]
        index.reserveCapacity(input.count)
        var out: [(key: String, value: JSONValue)] = []
        out.reserveCapacity(input.count)
        for m in input {
            if let i = index[m.key] {
                out[i].value = m.value
            } else {
                index[m.key] = out.count
                out.append(m)
            }
        }
        members = out
    }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
    public var keys: [String] { members.map(\.key) }

    public subscript(key: String) -> JSONValue? {
        get {
            // Lengths first: most members' names differ in length, and
            // comparing two counts is cheaper than comparing two strings.
            let length = key.utf8.count
            // Through the buffer: members are compared in place, not copied.
            return members.withUnsafeBufferPointer { b in
                for i in b.indices where b[i].key.utf8.count == length && b[i].key == key { return b[i].value }
                return nil
            }
        }
        set {
            if let i = index(of: key) {
                if let newValue { members[i].value = newValue } else { members.remove(at: i) }
            } else if let newValue {
                members.append((key, newValue))
            }
        }
    }

    /// The position of `key`'s member, searched as the getter does.
    private func index(of key: String) -> Int? {
        let length = key.utf8.count
        return members.withUnsafeBufferPointer { b in
            for i in b.indices where b[i].key.utf8.count == length && b[i].key == key { return i }
            return nil
        }
    }

    public func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> { members.makeIterator() }

    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.members.count == b.members.count
            && zip(a.members, b.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}
