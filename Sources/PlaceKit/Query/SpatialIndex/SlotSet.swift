/// A fixed-size set of slots.
struct SlotSet {
    private var words: [UInt64]
    init(count: Int) { words = Array(repeating: 0, count: (count + 63) / 64) }
    @inline(__always) package func contains(_ i: Int) -> Bool { words[i >> 6] & (1 << UInt64(i & 63)) != 0 }
    @inline(__always) package mutating func insert(_ i: Int) { words[i >> 6] |= 1 << UInt64(i & 63) }
    mutating func formUnion(_ other: SlotSet) { for i in words.indices { words[i] |= other.words[i] } }
    package var byteCount: Int { words.capacity * 8 }
}
