import PlaceModel
import PlaceStorage

/// Finds a `different` line whose two IDs `same` lines join (directly or
/// through a chain of them): the file contradicts itself.
enum LinkRuleCheck {
    static func contradiction(_ rules: [(kind: LinkRuleKind, a: String, b: String, line: Int)]) -> (
        different: Int, same: Int, a: String, b: String
    )? {
        var parent: [String: String] = [:]
        var lineOf: [String: Int] = [:]
        func find(_ x: String) -> String {
            var x = x
            while let p = parent[x], p != x { parent[x] = parent[p] ?? p; x = p }
            return x
        }
        for r in rules where r.kind == .same {
            let ra = find(r.a), rb = find(r.b)
            if parent[r.a] == nil { parent[r.a] = r.a }
            if parent[r.b] == nil { parent[r.b] = r.b }
            if ra != rb { parent[find(rb)] = find(ra) }
            lineOf[r.a] = lineOf[r.a] ?? r.line
            lineOf[r.b] = lineOf[r.b] ?? r.line
        }
        for r in rules where r.kind == .different {
            guard parent[r.a] != nil, parent[r.b] != nil, find(r.a) == find(r.b) else { continue }
            return (r.line, lineOf[r.b] ?? lineOf[r.a] ?? 0, r.a, r.b)
        }
        return nil
    }
}
