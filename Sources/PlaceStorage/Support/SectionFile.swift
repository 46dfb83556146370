import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A file placedb writes beside the database and maps (the stored spatial
/// index, the text index's word lists): a header of little-endian UInt64
/// words, the caller's fixed words first, then per section its offset,
/// length and checksum (`SectionChecksum`), last the checksum of the words
/// before it; then the sections, each at a 64-byte aligned offset.
package enum SectionFile {
    /// One section: its length and a way to read its bytes.
    package struct Section {
        package var count: Int
        package var withBytes: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void

        package init(count: Int, withBytes: @escaping ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) {
            self.count = count
            self.withBytes = withBytes
        }

        /// The elements of `array`, as they are in memory.
        package init<T>(_ array: [T]) {
            count = array.count * MemoryLayout<T>.stride
            withBytes = { body in try array.withUnsafeBytes(body) }
        }

        /// Bytes whose memory outlives the write (a built index's columns).
        package init(bytes: UnsafeRawBufferPointer) {
            count = bytes.count
            withBytes = { body in try body(bytes) }
        }
    }

    /// The number of header words for `fixed` fixed words and `sections`.
    package static func headerWords(fixed: Int, sections: Int) -> Int { fixed + 3 * sections + 1 }

    static func align(_ n: Int) -> Int { (n + 63) & ~63 }

    /// Writes `fixed`, the sections' table and the sections to `path`,
    /// through a temporary file renamed over it (readers see the old file or
    /// the new one, never half of one); removes the record that the old
    /// file was checked (`CheckedRecord`). Returns the file's size.
    package static func write(fixed: [UInt64], sections: [Section], to path: String) throws(SectionFileWriteError)
        -> Int
    {
        var header = fixed
        var offset = align(headerWords(fixed: fixed.count, sections: sections.count) * 8)
        for s in sections {
            var sum: UInt64 = 0
            try? s.withBytes { sum = SectionChecksum.of($0) }
            header += [UInt64(offset), UInt64(s.count), sum]
            offset = align(offset + s.count)
        }
        header.append(header.withUnsafeBytes { SectionChecksum.of($0) })
        let temporary = path + ".tmp\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SectionFileWriteError(path: temporary, errno: errno) }
        var ok = false
        defer {
            close(fd)
            if !ok { unlink(temporary) }
        }
        func put(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(SectionFileWriteError) {
            var done = 0
            while done < bytes.count {
                let n = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw SectionFileWriteError(path: temporary, errno: n < 0 ? errno : ENOSPC) }
                done += n
            }
        }
        do {
            try header.withUnsafeBytes { try put($0, at: 0) }
            for (i, s) in sections.enumerated() where s.count > 0 {
                let at = Int(header[fixed.count + 3 * i])
                try s.withBytes { try put($0, at: at) }
            }
        } catch let e as SectionFileWriteError {
            throw e
        } catch {
            throw SectionFileWriteError(path: temporary, errno: EIO)
        }
        guard ftruncate(fd, off_t(offset)) == 0 else { throw SectionFileWriteError(path: temporary, errno: errno) }
        guard rename(temporary, path) == 0 else { throw SectionFileWriteError(path: path, errno: errno) }
        unlink(CheckedRecord.path(path))
        ok = true
        return offset
    }
}

/// A file beside the database could not be written: where, and the
/// system's error.
package struct SectionFileWriteError: Error {
    package var path: String
    package var errno: Int32
}

/// A 64-bit checksum of bytes: four multiply-rotate lanes over 8-byte words
/// (several GB/s), for damage, not for adversaries. `absorb` pieces whose
/// sizes are multiples of 32 bytes, then `finish` with the rest.
package struct SectionChecksum {
    static let k1: UInt64 = 0x9E37_79B1_85EB_CA87, k2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    var h0: UInt64 = 0x2545_F491_4F6C_DD1D, h1: UInt64 = 0x1656_67B1_9E37_79F9
    var h2: UInt64 = 0x27D4_EB2F_1656_67C5, h3: UInt64 = 0x85EB_CA77_C2B2_AE63
    var count = 0

    package init() {}

    /// The checksum of `bytes` in one piece.
    package static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var c = SectionChecksum()
        let whole = bytes.count & ~31
        c.absorb(UnsafeRawBufferPointer(rebasing: bytes[0..<whole]))
        return c.finish(UnsafeRawBufferPointer(rebasing: bytes[whole...]))
    }

    @inline(__always) static func round(_ h: UInt64, _ w: UInt64) -> UInt64 {
        let x = h &+ w &* k2
        return ((x << 31) | (x >> 33)) &* k1
    }

    package mutating func absorb(_ bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count % 32 == 0)
        count += bytes.count
        guard let base = bytes.baseAddress else { return }
        var i = 0
        while i < bytes.count {
            h0 = Self.round(h0, base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            h1 = Self.round(h1, base.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self))
            h2 = Self.round(h2, base.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self))
            h3 = Self.round(h3, base.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self))
            i += 32
        }
    }

    package func finish(_ rest: UnsafeRawBufferPointer) -> UInt64 {
        var h0 = h0, h1 = h1
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        for byte in rest {
            tail |= UInt64(byte) << shift
            shift += 8
            if shift == 64 {
                h0 = Self.round(h0, tail)
                tail = 0
                shift = 0
            }
        }
        h1 = Self.round(h1, tail)
        var h =
            ((h0 << 1) | (h0 >> 63)) &+ ((h1 << 7) | (h1 >> 57)) &+ ((h2 << 12) | (h2 >> 52))
            &+ ((h3 << 18) | (h3 >> 46))
        h = (h ^ UInt64(count + rest.count)) &* Self.k1
        h ^= h >> 29
        h = h &* Self.k2
        return h ^ (h >> 32)
    }
}
