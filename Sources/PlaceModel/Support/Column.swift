/// A flat array of plain values that lives either in memory this process
/// allocated (and can grow) or in a read-only memory-mapped file (the
/// stored spatial index): both read through one unchecked buffer, so the
/// query code does not care which. `Element` must be a plain value (no
/// references); the stored index writes these bytes as they are.
package struct Column<Element>: RandomAccessCollection {
    /// The values; valid as long as this column (its storage) lives.
    package private(set) var buffer: UnsafeBufferPointer<Element>
    @usableFromInline var storage: AnyObject?

    // Inlinable for this module's readers (`ShapeTable`). Swift 6.3 does
    // not inline or specialize an `@inlinable package` body in another
    // module (without library evolution and package CMO): there each read
    // is a generic call with a value-witness copy. Readers elsewhere read
    // `buffer`, a stored property, and the standard library's subscript
    // (`PlaceIndex` exposes its columns so).
    @inlinable package var startIndex: Int { 0 }
    @inlinable package var endIndex: Int { buffer.count }
    @inlinable package var count: Int { buffer.count }
    @inlinable package var isEmpty: Bool { buffer.isEmpty }
    @inlinable package var indices: Range<Int> { 0..<buffer.count }
    @inlinable package func index(after i: Int) -> Int { i + 1 }
    @inlinable package func index(before i: Int) -> Int { i - 1 }

    package init() {
        buffer = UnsafeBufferPointer(start: nil, count: 0)
        storage = nil
    }

    /// A copy of `values`, in memory this column owns.
    package init(_ values: some Collection<Element>) {
        precondition(_isPOD(Element.self), "Column holds plain values only")
        let owned = OwnedStorage<Element>(capacity: values.count)
        owned.append(contentsOf: values)
        storage = owned
        buffer = owned.view
    }

    /// Values that `owner` keeps alive (a mapped file): never written.
    package init(borrowing buffer: UnsafeBufferPointer<Element>, owner: AnyObject) {
        precondition(_isPOD(Element.self), "Column holds plain values only")
        self.buffer = buffer
        storage = owner
    }

    @inlinable
    package subscript(position: Int) -> Element { buffer[position] }

    /// Appends in place when this column alone owns its memory; else
    /// copies first (a mapped column becomes an owned one).
    package mutating func append(_ value: Element) {
        owned(adding: 1).append(value)
        buffer = (storage as! OwnedStorage<Element>).view
    }

    package mutating func append(contentsOf values: some Collection<Element>) {
        owned(adding: values.count).append(contentsOf: values)
        buffer = (storage as! OwnedStorage<Element>).view
    }

    private mutating func owned(adding n: Int) -> OwnedStorage<Element> {
        if let s = storage as? OwnedStorage<Element>, isKnownUniquelyReferenced(&storage) {
            s.reserve(s.count + n)
            return s
        }
        let copy = OwnedStorage<Element>(capacity: Swift.max(buffer.count + n, 2 * buffer.count))
        copy.append(contentsOf: buffer)
        storage = copy
        return copy
    }

    /// Bytes of the values (for reports).
    package var byteCount: Int { buffer.count * MemoryLayout<Element>.stride }
}

extension Column: @unchecked Sendable where Element: Sendable {}

/// Memory a column allocated: grows by doubling, freed with the last column
/// that refers to it. 64-byte aligned, as the stored index's sections are,
/// so that records laid out by cache line (the tree's node pairs) are so in
/// memory too.
private final class OwnedStorage<Element> {
    private var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 1)
        base = Self.allocate(self.capacity)
    }

    deinit { UnsafeMutableRawPointer(base).deallocate() }

    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<Element> {
        UnsafeMutableRawPointer.allocate(
            byteCount: capacity * MemoryLayout<Element>.stride,
            alignment: Swift.max(64, MemoryLayout<Element>.alignment)
        ).bindMemory(to: Element.self, capacity: capacity)
    }

    var view: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    func reserve(_ n: Int) {
        guard n > capacity else { return }
        let grown = Swift.max(n, 2 * capacity)
        let moved = Self.allocate(grown)
        moved.moveInitialize(from: base, count: count)
        UnsafeMutableRawPointer(base).deallocate()
        base = moved
        capacity = grown
    }

    func append(_ value: Element) {
        reserve(count + 1)
        (base + count).initialize(to: value)
        count += 1
    }

    func append(contentsOf values: some Collection<Element>) {
        reserve(count + values.count)
        var p = base + count
        for v in values {
            p.initialize(to: v)
            p += 1
        }
        count += values.count
    }
}
