/// An unknown field name in a mask.
public struct FieldMaskError: Error, Sendable, Equatable, CustomStringConvertible {
    public let unknown: String
    /// What is wrong with a sub-path (`location.latitude.foo`); nil for an
    /// unknown field, whose message lists the valid ones.
    public var detail: String?

    public init(unknown: String, detail: String? = nil) {
        self.unknown = unknown
        self.detail = detail
    }

    public var description: String { message(mask: "the field mask") }

    /// The message with the mask named as the caller knows it (the command
    /// line says `--fields`).
    package func message(mask: String) -> String {
        if let detail { return "unknown field '\(unknown)' in \(mask): \(detail)" }
        if let near = Typo.closest(unknown, among: FieldMask.validNames) {
            return "unknown field '\(unknown.prefix(100))' in \(mask); did you mean '\(near)'?"
        }
        return
            "unknown field '\(unknown.prefix(100))' in \(mask); valid fields: *, \(FieldMask.validNames.joined(separator: ", "))"
    }
}
