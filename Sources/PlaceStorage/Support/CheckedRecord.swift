import Foundation
#if canImport(Glibc)
    package import Glibc
#endif

/// The record, beside a file placedb stores and maps (a stored index, word
/// lists), that its sections' checksums were read and found whole: one line
/// naming the file's device, inode, size, modification and change times and
/// header checksum. Any write to the file changes its change time, which no
/// one can set back; so while the line matches, a reader need not read the
/// whole file again to trust it.
package enum CheckedRecord {
    /// Where the record of the file at `path` is kept.
    package static func path(_ path: String) -> String { path + ".checked" }

    /// The line that records a check of the file whose status is `st` and
    /// whose header checksum is `header` (`kind` names the file's kind).
    package static func line(_ st: stat, header: UInt64, kind: String) -> String {
        "placedb \(kind) checked: device \(st.st_dev), inode \(st.st_ino), \(st.st_size) bytes, "
            + "modified \(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec), changed \(st.st_ctim.tv_sec).\(st.st_ctim.tv_nsec), "
            + "header \(String(header, radix: 16))\n"
    }

    /// Whether the record beside the file at `path` is `line`.
    package static func holds(_ line: String, for path: String) -> Bool {
        (try? String(contentsOfFile: Self.path(path), encoding: .utf8)) == line
    }

    /// Writes `line` as the record of the file at `path` (through a
    /// temporary file renamed over it) when the file's last change is more
    /// than `settled` seconds old, so that a change within the clock's
    /// granularity could not leave the same times. A directory that cannot
    /// be written only means the next reader checks again.
    package static func write(_ line: String, for path: String, status st: stat, settled: Double) {
        guard changedSecondsAgo(st) > settled else { return }
        let record = Self.path(path)
        let temporary = record + ".tmp\(getpid())"
        guard (try? line.write(toFile: temporary, atomically: false, encoding: .utf8)) != nil else { return }
        if rename(temporary, record) != 0 { unlink(temporary) }
    }

    /// Seconds since the file whose status is `st` last changed.
    package static func changedSecondsAgo(_ st: stat) -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec - st.st_ctim.tv_sec) + Double(now.tv_nsec - st.st_ctim.tv_nsec) / 1e9
    }
}
