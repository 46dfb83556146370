/// Bytes a statement reads in place: a row's texts and blobs are copied into
/// one buffer (a copy each, no allocation) and bound without SQLite copying
/// them again (`SQLITE_STATIC`), where a plain bind has SQLite allocate,
/// copy and free every value.
///
/// The rule that makes it safe: SQLite reads a bound value only when the
/// statement runs, and a copy stays where it is until the next `startRow`,
/// which is called before the next row's values are copied and bound. A
/// row larger than the buffer goes on in a new, larger one; the full one is
/// kept, since the row's first values point into it, and freed at the next
/// `startRow`. A statement bound from an arena must have all of those
/// parameters bound again before each run, and must not outlive it (the
/// owner keeps both and finalizes statements first or never runs them
/// again).
package final class RowArena {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    private var used = 0
    /// Buffers the current row outgrew: its first values are still in them.
    private var outgrown: [UnsafeMutableRawPointer] = []

    package init(capacity: Int = 4096) {
        self.capacity = max(64, capacity)
        base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 16)
    }

    deinit {
        base.deallocate()
        for b in outgrown { b.deallocate() }
    }

    /// Starts a row: the previous row's copies are given up.
    package func startRow() {
        used = 0
        if !outgrown.isEmpty {
            for b in outgrown { b.deallocate() }
            outgrown.removeAll(keepingCapacity: true)
        }
    }

    /// Copies bytes in; the copy stays until the next `startRow`.
    package func copy(_ bytes: UnsafeRawBufferPointer) -> ArenaBytes {
        if used + bytes.count > capacity {
            // The row's earlier copies stay put: go on in a larger buffer.
            outgrown.append(base)
            capacity = max(bytes.count, capacity * 2)
            base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
            used = 0
        }
        let start = base + used
        if let source = bytes.baseAddress, bytes.count > 0 { start.copyMemory(from: source, byteCount: bytes.count) }
        used += bytes.count
        return ArenaBytes(bytes: UnsafeRawBufferPointer(start: start, count: bytes.count))
    }

    /// Copies a string's UTF-8 in.
    package func copy(_ string: String) -> ArenaBytes {
        var string = string
        return string.withUTF8 { copy(UnsafeRawBufferPointer($0)) }
    }
}

/// Bytes copied into a `RowArena`: the only bytes a statement binds without
/// SQLite's copy.
package struct ArenaBytes {
    let bytes: UnsafeRawBufferPointer
}

extension Statement {
    /// Binds text that lives in `arena` without SQLite copying it (see
    /// `RowArena` for when that is safe); nil binds NULL. An empty text is
    /// bound as '' (a pointer is always passed), not as NULL.
    package func bindText(_ text: String?, at index: Int32, in arena: RowArena) throws {
        guard let text else { return try bindNull(at: index) }
        try bindText(arena.copy(text), at: index)
    }

    /// Binds UTF-8 bytes as text through `arena` (see `RowArena`).
    package func bindText(utf8 bytes: UnsafeRawBufferPointer, at index: Int32, in arena: RowArena) throws {
        try bindText(arena.copy(bytes), at: index)
    }

    /// Binds bytes as a blob through `arena` (see `RowArena`).
    package func bindBlob(_ bytes: UnsafeRawBufferPointer, at index: Int32, in arena: RowArena) throws {
        try bindBlob(arena.copy(bytes), at: index)
    }
}
