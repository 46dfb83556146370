import Foundation

/// Member names a parser has made before, handed out again instead of
/// being built anew: records of one file repeat the same few dozen names
/// (`"type"`, `"properties"`, `"displayName"` ...), and making a `String`
/// (checking its bytes, then copying them) costs several times a lookup
/// here. One cache per reading thread; it is not shared.
///
/// A slot holds one name, chosen by the name's length and three of its
/// bytes; a name found there is compared byte for byte before it is used,
/// so a collision only costs a new string. Only short names without
/// escapes are kept.
package final class JSONKeyCache {
    static let slots = 256
    static let maxLength = 32

    private struct Slot {
        var count = -1
        var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var string = ""
    }

    private let table: UnsafeMutablePointer<Slot>

    package init() {
        table = .allocate(capacity: Self.slots)
        table.initialize(repeating: Slot(), count: Self.slots)
    }

    deinit {
        table.deinitialize(count: Self.slots)
        table.deallocate()
    }

    @inline(__always)
    private static func slot(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
        let first = Int(p[0]), last = Int(p[n - 1]), middle = Int(p[n >> 1])
        return (n &* 31 &+ first &* 7 &+ middle &* 3 &+ last) & (slots - 1)
    }

    /// The name whose UTF-8 is `n` bytes at `p`, when it was kept.
    @inline(__always)
    func name(_ p: UnsafePointer<UInt8>, _ n: Int) -> String? {
        guard n > 0 && n <= Self.maxLength else { return nil }
        let s = table + Self.slot(p, n)
        guard s.pointee.count == n else { return nil }
        let same = withUnsafeBytes(of: &s.pointee.bytes) { memcmp($0.baseAddress!, p, n) == 0 }
        return same ? s.pointee.string : nil
    }

    /// Keeps `string`, whose UTF-8 is the `n` bytes at `p`.
    func keep(_ string: String, _ p: UnsafePointer<UInt8>, _ n: Int) {
        guard n > 0 && n <= Self.maxLength else { return }
        let s = table + Self.slot(p, n)
        s.pointee.count = n
        s.pointee.bytes = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &s.pointee.bytes) { $0.baseAddress!.copyMemory(from: p, byteCount: n) }
        s.pointee.string = string
    }
}
