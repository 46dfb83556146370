/// How queries see records that linking found to be one place
/// (docs/linking.md).
public enum RecordView: Sendable, Equatable {
    /// A group of linked records is one place: listed once, under its
    /// canonical ID, with the merged document; a member's ID resolves to
    /// the canonical one (`same-place`). The default.
    case merged
    /// Every record as it was imported, under its own ID: nothing merged,
    /// no `same-place` hop (what the data says before linking).
    case unmerged
}
