#if canImport(Glibc)
    package import Glibc
#endif

/// A file as it is now: its device, inode, size, and modification and
/// change times. Another file renamed over the path, or any write to it,
/// is another version (no one can set a change time back).
package struct FileVersion: Hashable, Sendable {
    package var device: UInt64, inode: UInt64, size: Int64
    package var modified: Int, modifiedNanoseconds: Int, changed: Int, changedNanoseconds: Int

    package init(_ st: stat) {
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        size = Int64(st.st_size)
        modified = st.st_mtim.tv_sec
        modifiedNanoseconds = st.st_mtim.tv_nsec
        changed = st.st_ctim.tv_sec
        changedNanoseconds = st.st_ctim.tv_nsec
    }

    /// The version of the file at `path` (following links); nil when there is none.
    package init?(path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        self.init(st)
    }
}
