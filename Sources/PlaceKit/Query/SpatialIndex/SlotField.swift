/// One field of every slot's record (`PlaceIndex.Slot`), read as if it
/// were a column of its own: slot i's value is a load at a fixed offset
/// from its record. Valid while the index that made it lives (its records'
/// memory is the index's).
package struct SlotField<Value>: RandomAccessCollection {
    /// The field's address in slot 0's record.
    private let base: UnsafeRawPointer?
    package let count: Int

    init(_ slots: UnsafeBufferPointer<PlaceIndex.Slot>, _ field: PartialKeyPath<PlaceIndex.Slot>) {
        let offset = MemoryLayout<PlaceIndex.Slot>.offset(of: field)!
        base = slots.baseAddress.map { UnsafeRawPointer($0) + offset }
        count = slots.count
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { count }

    @inline(__always)
    package subscript(position: Int) -> Value {
        address(position).load(as: Value.self)
    }

    /// Where slot `position`'s value is (for a prefetch hint).
    @inline(__always)
    func address(_ position: Int) -> UnsafeRawPointer {
        assert(position >= 0 && position < count, "slot out of range")
        return base.unsafelyUnwrapped + position &* MemoryLayout<PlaceIndex.Slot>.stride
    }
}
