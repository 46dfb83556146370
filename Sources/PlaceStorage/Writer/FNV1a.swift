/// 64-bit FNV-1a, to tell whether a record changed.
package struct FNV1a {
    package init() {}
    package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
    package mutating func add<S: Sequence<UInt8>>(_ bytes: S) {
        for b in bytes {
            value ^= UInt64(b)
            value = value &* 0x0000_0100_0000_01B3
        }
    }
    /// A string's UTF-8 bytes, the same as `add(string.utf8)`, read from
    /// its contiguous storage instead of through the view's indices, which
    /// cost an index step a byte (every record's name, type and source
    /// are hashed).
    package mutating func add(utf8 string: String) {
        var string = string
        string.withUTF8 { add($0) }
    }
    package mutating func add(_ byte: UInt8) {
        value ^= UInt64(byte)
        value = value &* 0x0000_0100_0000_01B3
    }
    package mutating func add(_ word: UInt64) {
        withUnsafeBytes(of: word.littleEndian) { add($0) }
    }
}
