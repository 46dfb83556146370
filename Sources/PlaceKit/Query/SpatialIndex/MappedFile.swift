import Foundation
import PlaceModel
import PlaceStorage
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// A file mapped read-only into memory: its pages are read by the
/// operating system when touched and shared by every process that maps it.
/// Within a process, the readers of one file share one mapping
/// (`MappedFile.open`), so its pages count once. Unmapped when the last
/// column over it goes.
final class MappedFile: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
    /// The file's status when it was mapped (the mapping keeps that inode).
    let status: stat
    /// Whether this process has read every section's checksum of this
    /// mapping and found them whole (`StoredIndex.load`).
    var checked: Bool {
        get { state.withLock { $0.checked } }
        set { state.withLock { $0.checked = newValue } }
    }
    private let state = Mutex(State())
    private struct State {
        var checked = false
        var populating = false
        var releasing = false
        /// Where the next `releaseWindow` starts.
        var cursor = 0
    }

    /// The identity a mapping is shared under: the same path and the same
    /// file (device, inode, size, modification and change times).
    private struct Key: Hashable {
        var path: String
        var version: FileVersion

        init(_ path: String, _ st: stat) {
            self.path = path
            version = FileVersion(st)
        }
    }
    private final class Weak { weak var file: MappedFile? }
    private static let mapped = Mutex<[Key: Weak]>([:])

    /// The process's mapping of `path` when another reader holds one of the
    /// same file, else a new one; nil when it cannot be opened or is empty.
    /// A new mapping asks for 2 MiB pages with `largePages`, else keeps
    /// 4 KiB ones (`init`).
    static func open(_ path: String, largePages: Bool = true) -> MappedFile? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_size > 0 else { return nil }
        let key = Key(path, st)
        return mapped.withLock { files in
            if let file = files[key]?.file { return file }
            files = files.filter { $0.value.file != nil }
            guard let file = MappedFile(fd: fd, status: st, largePages: largePages) else { return nil }
            let weak = Weak()
            weak.file = file
            files[key] = weak
            return file
        }
    }

    /// Maps the open file `fd` whose status is `st`; the mapping keeps the
    /// file (its inode) for its life, so the caller may close `fd`.
    private init?(fd: Int32, status st: stat, largePages: Bool) {
        guard let base = mmap(nil, Int(st.st_size), PROT_READ, MAP_SHARED, fd, 0), base != MAP_FAILED else {
            return nil
        }
        bytes = UnsafeRawBufferPointer(start: base, count: Int(st.st_size))
        status = st
        // The queries' reads are random over gigabytes: 2 MiB pages where the
        // kernel can give them (the file read into the page cache in 2 MiB
        // folios, each mapped by one entry) spare most of the TLB misses. A
        // hint: refused or ignored where unsupported, with no other effect.
        // Under a residency limit (PLACEDB_INDEX_MB: not `largePages`),
        // 4 KiB pages: a 2 MiB page counts whole once touched, and the limit
        // is soon reached again after each release.
        _ = madvise(base, Int(st.st_size), largePages ? MADV_HUGEPAGE : MADV_NOHUGEPAGE)
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    }

    /// `StoredIndex.checksum` of `length` bytes at `offset` (nil when they
    /// are not all in the file), read through the mapping in 8 MiB pieces,
    /// each released after it is read (`MADV_DONTNEED`: the pages stay in
    /// the page cache, and only those a query touches again count as this
    /// process's resident memory). No copy, unlike `read`.
    func checksum(offset: Int, length: Int) -> UInt64? {
        guard offset >= 0, length >= 0, offset <= bytes.count, length <= bytes.count - offset else { return nil }
        var sum = StoredIndex.Checksum()
        let piece = 8 << 20
        var done = 0
        while true {
            let want = min(piece, length - done)
            let start = offset + done
            let chunk = UnsafeRawBufferPointer(rebasing: bytes[start..<start + want])
            if done + want == length {
                let whole = want & ~31
                sum.absorb(UnsafeRawBufferPointer(rebasing: chunk[0..<whole]))
                let result = sum.finish(UnsafeRawBufferPointer(rebasing: chunk[whole..<want]))
                release(start, want)
                return result
            }
            sum.absorb(chunk)
            release(start, want)
            done += want
        }
    }

    /// Drops the pages of `length` bytes at `offset` from this process's
    /// page tables (the whole pages inside the range).
    private func release(_ offset: Int, _ length: Int) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let first = (offset + page - 1) / page * page, end = (offset + length) / page * page
        guard end > first, let base = bytes.baseAddress else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base + first), end - first, MADV_DONTNEED)
    }

    /// Sets `flag`; whether it was clear (the caller's work may start).
    private func begin(_ flag: WritableKeyPath<State, Bool>) -> Bool {
        state.withLock { s in
            defer { s[keyPath: flag] = true }
            return !s[keyPath: flag]
        }
    }

    /// Maps every page of the file into this process's page tables, on a
    /// thread of its own, from the start (`MADV_POPULATE_READ`, 32 MiB at a
    /// time; nothing where the kernel lacks it, before Linux 5.14): the
    /// queries of a long batch spread over a large index then find their
    /// pages mapped instead of faulting each in. Once per mapping.
    func populateInBackground() {
        guard begin(\.populating), bytes.baseAddress != nil else { return }
        let thread = Thread { [self] in
            let base = bytes.baseAddress!, count = bytes.count
            let piece = 32 << 20
            var offset = 0
            while offset < count {
                let length = min(piece, count - offset)
                if madvise(UnsafeMutableRawPointer(mutating: base + offset), length, 22 /* MADV_POPULATE_READ */) != 0 {
                    break
                }
                offset += length
            }
        }
        thread.start()
    }

    /// Releases the file's pages a stretch at a time (`releaseWindow`) until
    /// the process's resident file pages are at most `target` bytes or the
    /// whole file went round, on a thread of its own; false (and nothing
    /// done) while an earlier call's thread still runs. Each stretch is
    /// `releaseLength`: at least `window` bytes, more the further the
    /// process is over `target`.
    func releaseInBackground(down target: Int64, window: Int) -> Bool {
        guard begin(\.releasing) else { return false }
        let thread = Thread { [self] in
            var released = 0
            while released < bytes.count, let resident = Self.residentFileBytes(), resident > target {
                let length = Self.releaseLength(
                    fileBytes: bytes.count, resident: resident, target: target, window: window)
                releaseWindow(length)
                released += length
            }
            state.withLock { $0.releasing = false }
        }
        thread.start()
        return true
    }

    /// Runs `body` as if a release thread were at work, once any running
    /// one has ended (for tests: the checks in `body` then find it busy).
    func whileReleasing<R>(_ body: () throws -> R) rethrows -> R {
        while !begin(\.releasing) { usleep(1000) }
        defer { state.withLock { $0.releasing = false } }
        return try body()
    }

    /// How much of a file of `fileBytes` to release at once when the
    /// process holds `resident` bytes of file pages and may hold `target`:
    /// the share of the file that holds the excess if the resident pages
    /// are spread over it evenly (a query's pages are), at least `window`,
    /// at most the file. A window at a time fell behind: queries read
    /// through 2 MiB folios of the page cache map 64 KiB around each page
    /// they touch, and with one 64 MiB window of a 10 GB index holding
    /// under 1% of its resident pages, a server at 100 million places
    /// peaked at twice its limit of 1 GiB before the releases caught up.
    static func releaseLength(fileBytes: Int, resident: Int64, target: Int64, window: Int) -> Int {
        guard resident > target, resident > 0 else { return min(window, fileBytes) }
        let share = Double(resident - target) / Double(resident)
        let length = Int((Double(fileBytes) * share).rounded(.up))
        return min(fileBytes, max(window, length))
    }

    /// Drops the pages of the next `length` bytes of the file (going round
    /// it, past its end to its start) from this process's page tables:
    /// they stay in the page cache, and a later touch maps them again.
    func releaseWindow(_ length: Int) {
        let length = min(max(length, 0), bytes.count)
        let start = state.withLock { s -> Int in
            let start = s.cursor
            s.cursor = (start + length) % max(bytes.count, 1)
            return start
        }
        let first = min(length, bytes.count - start)
        release(start, first)
        if first < length { release(0, length - first) }
    }

    /// Where the next `releaseWindow` starts (for tests).
    var releaseCursor: Int { state.withLock { $0.cursor } }

    /// The process's resident file-backed bytes (mapped files, the code
    /// included: `shared` in /proc/self/statm), or nil where unknown.
    static func residentFileBytes() -> Int64? {
        let fd = Glibc.open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        let fields = buffer[0..<n].split(separator: 0x20)
        guard fields.count >= 3, let pages = Int64(String(decoding: fields[2], as: UTF8.self)) else { return nil }
        return pages * Int64(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// `count` values of `T` at `offset` (aligned, in bounds: checked by
    /// the caller), kept alive by this mapping.
    func column<T>(_: T.Type, at offset: Int, count: Int) -> Column<T> {
        let p = bytes.baseAddress!.advanced(by: offset).assumingMemoryBound(to: T.self)
        return Column(borrowing: UnsafeBufferPointer(start: p, count: count), owner: self)
    }
}
