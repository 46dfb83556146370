extension JSONValue {
    /// The value with only the members `paths` name (each path a list of
    /// member names, as a field mask's `a.b.c` split at its dots; `*`, or
    /// a path that ends at a member, keeps that member whole). The items of
    /// an array are kept by the same paths; other values are kept as they
    /// are.
    package func keeping(_ paths: [[String]]) -> JSONValue {
        switch self {
        case .object(let o):
            var out = JSONObject()
            for (key, member) in o {
                let below = paths.filter { $0.first == key }.map { Array($0.dropFirst()) }
                if below.isEmpty { continue }
                out[key] = below.contains(where: { $0.isEmpty || $0 == ["*"] }) ? member : member.keeping(below)
            }
            return .object(out)
        case .array(let a):
            return .array(a.map { $0.keeping(paths) })
        default:
            return self
        }
    }
}
