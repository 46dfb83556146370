public import PlaceModel
import PlaceStorage
/// Counts of an alias-file import.
public struct AliasImportSummary: Sendable, Equatable {
    public var records = 0
    /// Edges recorded for the first time.
    public var added = 0
    /// Edges already known (the first record of an edge is kept).
    public var unchanged = 0
    /// `same` / `different` lines recorded (linking rules).
    public var rules = 0
    /// The linking pass the rules started (nil without rules).
    public var link: LinkSummary?
    public init() {}
}

extension PlaceImporter {
    /// Imports an explicit alias file (CSV or NDJSON, gzip'd or not) in one
    /// transaction: every edge or none. Edges already known are kept as first
    /// recorded.
    public func importAliases(_ input: InputSource) throws -> AliasImportSummary {
        // Reading counts as part of the operation: a first one that cannot
        // read its file leaves no database behind.
        try settling {
            let source: ByteSource
            do { source = try ByteSource(input) } catch let e as InputError { throw PlaceDBError.input(e) }
            let parsed: [AliasFileReader.Line]
            do {
                parsed = try AliasFileReader.edges(source)
            } catch let e as AliasFileReader.AliasFileError {
                throw PlaceDBError.badInput(
                    ImportRejection(
                        input: source.name, line: e.line, index: nil, placeID: nil, reason: e.message, record: nil))
            } catch let e as InputError {
                throw PlaceDBError.input(e)
            }
            let rules = parsed.filter { $0.rule != nil }
            if let conflict = LinkRuleCheck.contradiction(
                rules.map { (kind: $0.rule!, a: $0.edge.aliasID, b: $0.edge.placeID, line: $0.number) })
            {
                throw PlaceDBError.badInput(
                    ImportRejection(
                        input: source.name, line: conflict.different, index: nil, placeID: nil,
                        reason:
                            "'different \(conflict.a) \(conflict.b)' contradicts 'same' on line \(conflict.same): those lines make them one place",
                        record: nil))
            }
            var summary = try recordAliasRun(
                parsed.filter { $0.rule == nil }.map { ($0.edge, $0.source, $0.recordedAt) },
                rules: rules.map {
                    (kind: $0.rule!, a: $0.edge.aliasID, b: $0.edge.placeID, origin: "\(source.name):\($0.number)")
                },
                input: source.name, source: options.source ?? "alias-file")
            summary.rules = rules.count
            return summary
        }
    }
}
