/// Bytes a statement reads in place: a row's texts and blobs are copied into
/// one buffer (a copy each, no allocation) and bound without SQLite copying
/// them again (`SQLITE_STATIC`), where a plain bind has SQLite allocate,
/// copy and free every value.
///
/// The rule that makes it safe: SQLite reads a bound value only when the
/// statement runs. `startRow` is the only place the buffer is written from
/// the start again or moved, and it is called before the row's values are
/// copied and bound, so by the time the statement runs every value it
/// points at is the current row's. A statement bound from an arena must
/// have all of those parameters bound again before each run, and must not
/// outlive it (the owner keeps both and finalizes statements first or never
/// runs them again).
public final class RowArena {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    private var used = 0

    public init(capacity: Int = 4096) {
        self.capacity = max(64, capacity)
        base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 16)
    }

    deinit { base.deallocate() }

    /// Starts a row whose values take at most `bytes` in all. The buffer
    /// grows (and moves) only here, before any of the row's values is bound.
    public func startRow(reserving bytes: Int) {
        used = 0
        if bytes > capacity {
            base.deallocate()
            capacity = max(bytes, capacity * 2)
            base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        }
    }

    /// Copies bytes in; the copy stays until the next `startRow`.
    public func copy(_ bytes: UnsafeRawBufferPointer) -> ArenaBytes {
        precondition(used + bytes.count <= capacity, "RowArena: a row's values exceed what startRow reserved")
        let start = base + used
        if let source = bytes.baseAddress, bytes.count > 0 { start.copyMemory(from: source, byteCount: bytes.count) }
        used += bytes.count
        return ArenaBytes(bytes: UnsafeRawBufferPointer(start: start, count: bytes.count))
    }

    /// Copies a string's UTF-8 in.
    public func copy(_ string: String) -> ArenaBytes {
        var string = string
        return string.withUTF8 { copy(UnsafeRawBufferPointer($0)) }
    }
}

/// Bytes copied into a `RowArena`: the only bytes a statement binds without
/// SQLite's copy.
public struct ArenaBytes {
    let bytes: UnsafeRawBufferPointer
}

extension Statement {
    /// Binds text that lives in `arena` without SQLite copying it (see
    /// `RowArena` for when that is safe); nil binds NULL. An empty text is
    /// bound as '' (a pointer is always passed), not as NULL.
    public func bindText(_ text: String?, at index: Int32, in arena: RowArena) throws {
        guard let text else { return try bindNull(at: index) }
        try bindText(arena.copy(text), at: index)
    }

    /// Binds UTF-8 bytes as text through `arena` (see `RowArena`).
    public func bindText(utf8 bytes: UnsafeRawBufferPointer, at index: Int32, in arena: RowArena) throws {
        try bindText(arena.copy(bytes), at: index)
    }

    /// Binds bytes as a blob through `arena` (see `RowArena`).
    public func bindBlob(_ bytes: UnsafeRawBufferPointer, at index: Int32, in arena: RowArena) throws {
        try bindBlob(arena.copy(bytes), at: index)
    }
}
