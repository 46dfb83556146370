#if canImport(Glibc)
    import Glibc
#endif

/// Where an installed placedb keeps its files (`Scripts/install`).
enum Installation {
    /// The default install prefix's documentation directory.
    static let defaultDocDirectory = "/usr/local/share/doc/placedb"

    /// $PLACEDB_DOC_DIR; else PREFIX/share/doc/placedb when the executable
    /// is PREFIX/bin/placedb and that directory exists; else the source
    /// tree's docs/ when it runs from its build directory; else the default.
    static func docDirectory(environment: (String) -> String?) -> String {
        if let dir = environment("PLACEDB_DOC_DIR"), !dir.isEmpty { return dir }
        guard let exe = executablePath() else { return defaultDocDirectory }
        var dir = exe
        for _ in 0..<5 {
            guard let slash = dir.lastIndex(of: "/"), slash != dir.startIndex else { break }
            dir = String(dir[..<slash])
            if isDirectory(dir + "/share/doc/placedb") { return dir + "/share/doc/placedb" }
            if exists(dir + "/docs/commands.md") && exists(dir + "/Package.swift") { return dir + "/docs" }
        }
        return defaultDocDirectory
    }

    static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
    private static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }
}
