/// A JSON value through any `Encoder` or `Decoder` (JSONEncoder,
/// PropertyListEncoder, ...). Decoders do not say in which order an
/// object's members came, so a decoded object lists them by name.
extension JSONValue: Codable {
    struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let o):
            var c = encoder.container(keyedBy: MemberKey.self)
            for (key, value) in o { try c.encode(value, forKey: MemberKey(key)) }
        case .array(let a):
            var c = encoder.unkeyedContainer()
            for value in a { try c.encode(value) }
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case .int(let i):
            var c = encoder.singleValueContainer()
            try c.encode(i)
        case .double(let d):
            var c = encoder.singleValueContainer()
            try c.encode(d)
        case .string(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        }
    }

    public init(from decoder: any Decoder) throws {
        if let c = try? decoder.container(keyedBy: MemberKey.self) {
            self = .object(
                JSONObject(
                    uniqueMembers: try Self.orderedKeys(c.allKeys.map(\.stringValue)).map { key in
                        (key: key, value: try c.decode(JSONValue.self, forKey: MemberKey(key)))
                    }))
            return
        }
        if var c = try? decoder.unkeyedContainer() {
            var a: [JSONValue] = []
            while !c.isAtEnd { a.append(try c.decode(JSONValue.self)) }
            self = .array(a)
            return
        }
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? c.decode(Int64.self) {
            self = .int(i)
        } else if let d = try? c.decode(Double.self) {
            self = .double(d)
        } else {
            self = .string(try c.decode(String.self))
        }
    }

    /// Member names in a fixed order: by name.
    static func orderedKeys(_ keys: [String]) -> [String] { keys.sorted() }
}
