import Foundation
import PlaceModel

/// A file mapped read-only into memory: its pages are read by the
/// operating system when touched and shared by every process that maps it.
/// Unmapped when the last column over it goes.
final class MappedFile {
    let bytes: UnsafeRawBufferPointer

    /// Maps `path`, or nil when it cannot be opened or is empty.
    init?(path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_size > 0 else { return nil }
        let size = Int(st.st_size)
        guard let base = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), base != MAP_FAILED else { return nil }
        bytes = UnsafeRawBufferPointer(start: base, count: size)
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    }

    /// `count` values of `T` at `offset` (aligned, in bounds: checked by
    /// the caller), kept alive by this mapping.
    func column<T>(_: T.Type, at offset: Int, count: Int) -> Column<T> {
        let p = bytes.baseAddress!.advanced(by: offset).assumingMemoryBound(to: T.self)
        return Column(borrowing: UnsafeBufferPointer(start: p, count: count), owner: self)
    }
}
