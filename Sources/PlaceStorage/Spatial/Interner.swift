/// Strings (or their UTF-8 bytes) to small integer codes. Code 0 is nil.
package struct Interner {
    package private(set) var names: [String?] = [nil]
    private var bytes: [[UInt8]] = [[]]
    /// Open addressing over FNV-1a hashes of the bytes: code or 0.
    private var table = [UInt16](repeating: 0, count: 64)

    package init() {}

    /// The interner that gave `names` (code 0, nil, first) their codes.
    package init(names: [String?]) {
        for name in names.dropFirst() {
            var bytes = Array((name ?? "").utf8)
            _ = bytes.withUnsafeMutableBytes { code(bytes: UnsafeRawBufferPointer($0), isNull: false) }
        }
    }

    package func name(_ code: UInt16) -> String? { Int(code) < names.count ? names[Int(code)] : nil }

    private static func hash(_ b: UnsafeRawBufferPointer) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for x in b { h = (h ^ UInt64(x)) &* 0x0000_0100_0000_01B3 }
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }

    package mutating func code(bytes b: UnsafeRawBufferPointer, isNull: Bool) -> UInt16 {
        if isNull { return 0 }
        let mask = table.count - 1
        var i = Self.hash(b) & mask
        while true {
            let c = table[i]
            if c == 0 { break }
            if bytes[Int(c)].count == b.count && bytes[Int(c)].elementsEqual(b) { return c }
            i = (i + 1) & mask
        }
        // 65,535 distinct values at most; beyond that, share the last code
        // (never reached by real type vocabularies).
        guard names.count < Int(UInt16.max) else { return UInt16(names.count - 1) }
        let c = UInt16(names.count)
        names.append(String(decoding: b, as: UTF8.self))
        bytes.append(Array(b))
        table[i] = c
        if names.count * 2 > table.count { rehash() }
        return c
    }

    private mutating func rehash() {
        table = [UInt16](repeating: 0, count: table.count * 2)
        let mask = table.count - 1
        for c in 1..<bytes.count {
            var i = bytes[c].withUnsafeBytes { Self.hash($0) } & mask
            while table[i] != 0 { i = (i + 1) & mask }
            table[i] = UInt16(c)
        }
    }
}
