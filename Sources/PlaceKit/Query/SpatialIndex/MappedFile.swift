import Foundation
import PlaceModel

/// A file mapped read-only into memory: its pages are read by the
/// operating system when touched and shared by every process that maps it.
/// Unmapped when the last column over it goes.
final class MappedFile {
    let bytes: UnsafeRawBufferPointer
    /// The file, kept open so that checks read the bytes that are mapped.
    private let fd: Int32

    /// Maps `path`, or nil when it cannot be opened or is empty.
    init?(path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_size > 0,
            let base = mmap(nil, Int(st.st_size), PROT_READ, MAP_SHARED, fd, 0), base != MAP_FAILED
        else {
            close(fd)
            return nil
        }
        self.fd = fd
        bytes = UnsafeRawBufferPointer(start: base, count: Int(st.st_size))
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
        close(fd)
    }

    /// `StoredIndex.checksum` of `length` bytes at `offset`, read with
    /// `pread` in 1 MiB pieces rather than through the mapping: the check
    /// reads the whole file, and pages read through the mapping would count
    /// as this process's resident memory until the kernel drops them.
    func checksum(offset: Int, length: Int) -> UInt64? {
        let piece = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: piece, alignment: 64)
        defer { buffer.deallocate() }
        var sum = StoredIndex.Checksum()
        var done = 0
        while true {
            let want = min(piece, length - done)
            var got = 0
            while got < want {
                let n = pread(fd, buffer.baseAddress! + got, want - got, off_t(offset + done + got))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return nil }
                got += n
            }
            if done + want == length {
                let whole = want & ~31
                sum.absorb(UnsafeRawBufferPointer(rebasing: buffer[0..<whole]))
                return sum.finish(UnsafeRawBufferPointer(rebasing: buffer[whole..<want]))
            }
            sum.absorb(UnsafeRawBufferPointer(rebasing: buffer[0..<want]))
            done += want
        }
    }

    /// `count` values of `T` at `offset` (aligned, in bounds: checked by
    /// the caller), kept alive by this mapping.
    func column<T>(_: T.Type, at offset: Int, count: Int) -> Column<T> {
        let p = bytes.baseAddress!.advanced(by: offset).assumingMemoryBound(to: T.self)
        return Column(borrowing: UnsafeBufferPointer(start: p, count: count), owner: self)
    }
}
