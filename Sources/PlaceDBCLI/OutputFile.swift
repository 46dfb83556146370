#if canImport(Glibc)
    import Glibc
#endif

/// The files the command line writes (`import --rejects`, `photo fetch -o`,
/// `current --svg`): never one of the command's inputs or its database,
/// written through devices, FIFOs and symbolic links as a shell redirection
/// would, replaced atomically only when a regular file (or nothing) is
/// there, and every write and close checked. A refused output is a usage
/// error (64); a failed write is one line and exit 74 (EX_IOERR).
/// docs/reliability.md has the rules.
enum OutputFile {
    /// A file's identity: the same device and inode is the same file,
    /// whatever the names (`in.ndjson`, `./in.ndjson`, a hard link, a
    /// symbolic link to it).
    struct Identity: Equatable {
        let device: UInt64
        let inode: UInt64
    }

    /// The identity of the file at `path` (symbolic links followed); nil
    /// when there is none.
    static func identity(_ path: String) -> Identity? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Identity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }

    /// The identity of what standard input reads (`< in.ndjson`).
    static func standardInputIdentity() -> Identity? {
        var st = stat()
        guard fstat(0, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Identity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }

    /// Refuses `path` (given as `option`) before any work, so a refused
    /// output costs nothing:
    /// - a name of one of the database's own files, whether it exists or
    ///   not (`databaseFile(named:)`): usage, 64, since SQLite or the
    ///   import lock would take the file over, or the file would break
    ///   the database;
    /// - the same file as one of `inputs` (`-`: what standard input reads)
    ///   or the database (or its -wal, -shm or -journal file): usage, 64,
    ///   since opening it for writing would destroy what is about to be
    ///   read (only a regular file can be destroyed so: reading /dev/null
    ///   while writing it harms nothing);
    /// - a directory, or a file that is neither regular, a FIFO nor a
    ///   character device: 74.
    static func check(_ path: String, option: String, databasePath: String?, inputs: [String] = []) throws {
        if let databasePath, let role = databaseFile(named: path, databasePath: databasePath) {
            throw UsageError(message: "\(option) '\(path)' is \(role); give another file")
        }
        var out = stat()
        guard stat(path, &out) == 0 else { return }
        let kind = out.st_mode & S_IFMT
        if kind == S_IFREG {
            let identity = Identity(device: UInt64(out.st_dev), inode: UInt64(out.st_ino))
            for input in inputs where (input == "-" ? standardInputIdentity() : Self.identity(input)) == identity {
                throw UsageError(
                    message:
                        "\(option) '\(path)' is the same file as the input '\(input)': writing it would destroy the input before it is read; give another file"
                )
            }
            if let databasePath {
                for suffix in ["", "-wal", "-shm", "-journal"] where Self.identity(databasePath + suffix) == identity {
                    throw UsageError(
                        message:
                            "\(option) '\(path)' is the database\(suffix.isEmpty ? "" : " (its \(suffix.dropFirst()) file)"); give another file"
                    )
                }
            }
        }
        switch kind {
        case S_IFREG, S_IFIFO, S_IFCHR: return
        case S_IFDIR: throw CommandFailure(code: .ioError, message: "\(path): cannot write: is a directory")
        default:
            throw CommandFailure(
                code: .ioError,
                message: "\(path): cannot write: not a regular file, FIFO or character device; refusing to replace it")
        }
    }

    /// The files beside a database `DB` that belong to it, by the suffix
    /// of their name: SQLite's write-ahead log, its index and the rollback
    /// journal (created and deleted by SQLite as it pleases: an output
    /// there is taken over or removed, or breaks the next reader), and the
    /// import lock (`ImportLock`, removed when an import ends).
    static let databaseFileSuffixes: [(suffix: String, role: String)] = [
        ("-wal", "the database's write-ahead log (-wal)"), ("-shm", "the database's WAL index (-shm)"),
        ("-journal", "the database's rollback journal (-journal)"),
        (".import-lock", "the database's import lock file (.import-lock)"),
    ]

    /// What `path` names among the database's own files, whether they
    /// exist or not: "the database" for `DB` itself, "the database's
    /// write-ahead log (-wal)" for `DB-wal`, and so on
    /// (`databaseFileSuffixes`), and "a new database being built
    /// (.new-PID)" for `DB.new-PID` (and its journals), which
    /// a first import builds and the next import removes; nil for any
    /// other name. Names are compared once made absolute, with `.`, `..`
    /// and the symbolic links of their directories resolved, and a
    /// symbolic link at their end followed (`canonicalName`), so
    /// `./DB-wal`, `sub/../DB-wal`, `linkdir/DB-wal` and a link to
    /// `DB-wal` all match; the database's name is taken both as given
    /// (the lock file and the new database are named after it) and with
    /// its own link followed (SQLite names its files after the target).
    static func databaseFile(named path: String, databasePath: String) -> String? {
        guard let out = canonicalName(path) else { return nil }
        var bases: [String] = []
        if let asGiven = canonicalName(databasePath, followingLast: false) { bases.append(asGiven) }
        if let target = canonicalName(databasePath), !bases.contains(target) { bases.append(target) }
        for base in bases {
            if out == base { return "the database" }
            for (suffix, role) in databaseFileSuffixes where out == base + suffix { return role }
            // DB.new-PID, DB.new-PID-journal, ...
            let marker = base + ".new-"
            if out.hasPrefix(marker) {
                var rest = Substring(out.dropFirst(marker.count))
                for (suffix, _) in databaseFileSuffixes where rest.hasSuffix(suffix) {
                    rest = rest.dropLast(suffix.count)
                    break
                }
                if !rest.isEmpty && rest.allSatisfy({ $0.isASCII && $0.isNumber }) {
                    return "a new database being built (.new-PID)"
                }
            }
        }
        return nil
    }

    /// `path` made absolute (from the working directory), its directory's
    /// `.`, `..` and symbolic links resolved (`realpath`), and, with
    /// `followingLast`, a symbolic link at its end followed (up to 40
    /// links, as the kernel does), whether the final file exists or not;
    /// nil when its directory does not exist (nothing can be written
    /// there) or the links loop.
    static func canonicalName(_ path: String, followingLast: Bool = true) -> String? {
        var current = path
        for _ in 0..<40 {
            guard !current.isEmpty else { return nil }
            var name = current
            while name.count > 1 && name.hasSuffix("/") { name.removeLast() }
            let slash = name.lastIndex(of: "/")
            let directory = slash.map { $0 == name.startIndex ? "/" : String(name[..<$0]) } ?? "."
            let base = slash.map { String(name[name.index(after: $0)...]) } ?? name
            if base.isEmpty || base == "." || base == ".." {
                // A directory: its own real path.
                guard let resolved = realpath(name, nil) else { return nil }
                defer { free(resolved) }
                return String(cString: resolved)
            }
            guard let resolved = realpath(directory, nil) else { return nil }
            let real = String(cString: resolved)
            free(resolved)
            let full = (real == "/" ? "" : real) + "/" + base
            var st = stat()
            guard followingLast, lstat(full, &st) == 0, (st.st_mode & S_IFMT) == S_IFLNK else { return full }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(full, &buffer, buffer.count - 1)
            guard n > 0 else { return full }
            let target = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : (real == "/" ? "" : real) + "/" + target
        }
        return nil
    }

    /// The message for errno `code`, lower-cased as the tool's messages are.
    static func reason(_ code: Int32) -> String { String(cString: strerror(code)).lowercased() }

    /// Checks `path` (`check`), then writes `bytes` to it whole or not at
    /// all, as far as the file system allows:
    /// - an existing FIFO or character device (`/dev/null`, `/dev/full`,
    ///   `/dev/stdout`, a pipe), also through a symbolic link, is opened and
    ///   written, never replaced;
    /// - a symbolic link to a regular file is followed (the file it points
    ///   to is replaced; the link stays); one to a file that does not exist
    ///   is refused;
    /// - a regular file, or no file, gets a temporary file beside it that
    ///   is renamed over it once written and closed, keeping an existing
    ///   file's permissions; a failed write leaves the old file as it was.
    /// The file a write to `path` replaces: `path`, or the file its
    /// symbolic link points to (the link stays a link). A dangling link
    /// is an I/O error.
    static func replacementTarget(for path: String, exists: Bool) throws -> String {
        var link = stat()
        guard lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK else { return path }
        guard exists, let resolved = realpath(path, nil) else {
            throw CommandFailure(
                code: .ioError, message: "\(path): cannot write: it is a symbolic link to a file that does not exist")
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func write(_ bytes: [UInt8], to path: String, option: String, databasePath: String?, inputs: [String] = [])
        throws
    {
        try check(path, option: option, databasePath: databasePath, inputs: inputs)
        var st = stat()
        let exists = stat(path, &st) == 0 // through any symbolic link
        if exists && (st.st_mode & S_IFMT) != S_IFREG {
            // A FIFO or a device: write into it, as `> path` would.
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw failure(path, errno) }
            var error = writeAll(fd, bytes)
            if close(fd) != 0 && error == 0 { error = errno }
            if error != 0 { throw failure(path, error) }
            return
        }
        // A regular file or nothing: replace the file a link points to.
        let target = try replacementTarget(for: path, exists: exists)
        let temporary = target + ".placedb-\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(path, errno) }
        var error: Int32 = 0
        if exists && fchmod(fd, st.st_mode & 0o7777) != 0 { error = errno }
        if error == 0 { error = writeAll(fd, bytes) }
        if close(fd) != 0 && error == 0 { error = errno }
        if error == 0 && rename(temporary, target) != 0 { error = errno }
        if error != 0 {
            unlink(temporary)
            throw failure(path, error)
        }
    }

    private static func failure(_ path: String, _ code: Int32) -> CommandFailure {
        CommandFailure(code: .ioError, message: "\(path): cannot write: \(reason(code))")
    }

    /// Writes all of `bytes` to `fd`; returns 0 or the errno of the failure.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32 {
        bytes.withUnsafeBytes { writeAll(fd, $0) }
    }

    static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Int32 {
        guard let base = buffer.baseAddress else { return 0 }
        var offset = 0
        while offset < buffer.count {
            let n = Glibc.write(fd, base + offset, buffer.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return 0
    }
}
