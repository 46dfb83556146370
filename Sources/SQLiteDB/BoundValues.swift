/// Binds a statement's parameters only when their values change. SQLite
/// keeps a statement's bindings when it is rewound, so a parameter that
/// holds the same number, NULL or text row after row (the run, the source,
/// a member most records lack) need not be bound again: each bind is an API
/// call that releases the old value and sets the new one.
///
/// It knows what it bound last, so every bind of the statement's parameters
/// must go through it (never `Statement.reset`, which clears them). Texts
/// copied into a `RowArena` are bound each time: their bytes change under
/// the pointer from row to row.
package final class BoundValues {
    private static let unknown: UInt8 = 0, null: UInt8 = 1, integer: UInt8 = 2, real: UInt8 = 3, text: UInt8 = 4

    package let statement: Statement
    private let count: Int
    /// What each parameter holds (the constants above), and its value:
    /// an integer's or a real's bits (so 0.0 and -0.0 stay apart), or the
    /// text bound with SQLite's own copy. Plain memory, read and written
    /// without the checks a Swift array in a class costs on every access.
    private let kinds: UnsafeMutablePointer<UInt8>
    private let bits: UnsafeMutablePointer<UInt64>
    private let texts: UnsafeMutablePointer<String?>

    package init(_ statement: Statement) {
        self.statement = statement
        count = Int(statement.parameterCount) + 1
        kinds = .allocate(capacity: count)
        kinds.initialize(repeating: Self.unknown, count: count)
        bits = .allocate(capacity: count)
        bits.initialize(repeating: 0, count: count)
        texts = .allocate(capacity: count)
        texts.initialize(repeating: nil, count: count)
    }

    deinit {
        kinds.deallocate()
        bits.deallocate()
        texts.deinitialize(count: count)
        texts.deallocate()
    }

    private func bindNull(_ index: Int32) throws {
        let i = Int(index)
        if kinds[i] == Self.null { return }
        try statement.bindNull(at: index)
        kinds[i] = Self.null
    }

    /// Calls `bind` unless parameter `index` holds a number of `kind` with
    /// these bits already.
    @inline(__always)
    private func bind(_ kind: UInt8, bits value: UInt64, at index: Int32, _ bind: () throws -> Void) rethrows {
        let i = Int(index)
        if kinds[i] == kind && bits[i] == value { return }
        try bind()
        kinds[i] = kind
        bits[i] = value
    }

    package func bind(integer: Int64?, at index: Int32) throws {
        guard let integer else { return try bindNull(index) }
        try bind(Self.integer, bits: UInt64(bitPattern: integer), at: index) {
            try statement.bind(integer: integer, at: index)
        }
    }

    package func bind(real: Double?, at index: Int32) throws {
        guard let real else { return try bindNull(index) }
        try bind(Self.real, bits: real.bitPattern, at: index) { try statement.bind(real: real, at: index) }
    }

    /// A text bound with SQLite's copy, kept while it is the same string.
    package func bind(text: String?, at index: Int32) throws {
        guard let text else { return try bindNull(index) }
        let i = Int(index)
        if kinds[i] == Self.text && texts[i] == text { return }
        try statement.bind(text: text, at: index)
        kinds[i] = Self.text
        texts[i] = text
    }

    /// A text through `arena`: bound every time, except NULL after NULL.
    package func bindText(_ text: String?, at index: Int32, in arena: RowArena) throws {
        guard let text else { return try bindNull(index) }
        try statement.bindText(text, at: index, in: arena)
        kinds[Int(index)] = Self.unknown
    }

    /// UTF-8 bytes as text through `arena` (nil: NULL), as `bindText`.
    package func bindText(utf8 bytes: UnsafeRawBufferPointer?, at index: Int32, in arena: RowArena) throws {
        guard let bytes else { return try bindNull(index) }
        try statement.bindText(utf8: bytes, at: index, in: arena)
        kinds[Int(index)] = Self.unknown
    }

    /// Bytes as a blob through `arena`: bound every time.
    package func bindBlob(_ bytes: UnsafeRawBufferPointer, at index: Int32, in arena: RowArena) throws {
        try statement.bindBlob(bytes, at: index, in: arena)
        kinds[Int(index)] = Self.unknown
    }
}
