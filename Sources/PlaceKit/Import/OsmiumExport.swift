import Foundation
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif
import PlaceModel

/// `osmium export` of an OpenStreetMap file, run as a child process whose
/// standard output (GeoJSON-seq, the attributes the export path asks for)
/// the importer reads as it reads a `.geojsonseq` file: the same records,
/// the same places.
///
/// The node locations osmium keeps to build ways and areas go to a file
/// (`sparse_file_array`: 16 bytes a node), not to memory: a file made
/// beside the database and unlinked at once, handed to osmium as its
/// descriptor 3 (`/proc/self/fd/3`), so nothing is left behind even when
/// both processes are killed. osmium's messages go to an unlinked file too
/// (a pipe left unread could stall it) and its last lines make the error
/// when it fails.
///
/// The reading end of the pipe belongs to the `ByteSource` reading it;
/// closing it ends osmium's writes (SIGPIPE). `terminate()` ends osmium
/// early; `finish()` reaps it and tells how it ended; `deinit` reaps it
/// when nothing else did, so no child is left running or unreaped.
final class OsmiumExport: @unchecked Sendable {
    /// The attributes the export path asks for (docs/osm-exports.md).
    static let attributes = "type,id,version,timestamp"
    /// The node location index (osmium-index-types(5)), `,FILE` added for
    /// the file-based ones.
    static let defaultIndex = "sparse_file_array"

    let input: String
    let format: OSMFileFormat
    /// The command as run (for the import run's record and messages).
    let commandLine: String
    /// Standard output's reading end (owned by the reader).
    let output: Int32
    private let pid: pid_t
    private let messages: Int32

    private enum State { case running, exited(Int32), reaped(Int32) }
    private let state = Mutex(State.running)

    /// The `osmium` to run: `configured` (a path, or a name looked up in
    /// `PATH`), else `osmium` in `PATH`; nil when there is none.
    static func locate(_ configured: String?, path: String? = nil) -> String? {
        let name = configured.flatMap { $0.isEmpty ? nil : $0 } ?? "osmium"
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        let dirs = (path ?? getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin").split(
            separator: ":")
        for dir in dirs where !dir.isEmpty {
            let candidate = "\(dir)/\(name)"
            var st = stat()
            if stat(candidate, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }

    /// Starts `osmium export` of `input`. `osmium`: as `locate` takes it;
    /// `scratchDirectory`: where the node location index goes (beside the
    /// database). Throws `missingTool` when there is no osmium to run.
    init(
        input: String, format: OSMFileFormat, osmium configured: String?, index: String = OsmiumExport.defaultIndex,
        scratchDirectory: String
    ) throws(PlaceDBError) {
        self.input = input
        self.format = format
        let what = "\(input): reading \(format.description) needs osmium (osmium export)"
        guard let program = Self.locate(configured) else {
            let name = configured.flatMap { $0.isEmpty ? nil : $0 } ?? "osmium"
            throw .missingTool(
                package: "osmium-tool",
                reason: name.contains("/")
                    ? "\(what), and '\(name)' is not an executable file"
                    : "\(what), and '\(name)' is not on the PATH")
        }
        func fail(_ call: String) -> PlaceDBError {
            .database(
                path: scratchDirectory,
                reason: "cannot start osmium export: \(call): \(String(cString: strerror(errno)).lowercased())")
        }
        // Descriptors above the standard ones (and above 3, which the
        // index takes in the child), closed on exec in every other child.
        func high(_ fd: Int32) -> Int32 {
            let moved = fcntl(fd, F_DUPFD_CLOEXEC, 10)
            close(fd)
            return moved
        }
        func scratchFile(_ tag: String) -> Int32 {
            var template = Array("\(scratchDirectory)/.placedb-\(tag)-XXXXXX".utf8CString)
            let fd = GNU.mkostemp(&template, O_CLOEXEC)
            if fd >= 0 { unlink(template) }
            return fd < 0 ? fd : high(fd)
        }
        let messageFile = scratchFile("osmium-messages")
        guard messageFile >= 0 else { throw fail("a temporary file in \(scratchDirectory)") }
        let fileIndex = index.hasSuffix("_file_array")
        let indexFile = fileIndex ? scratchFile("osmium-index") : -1
        guard !fileIndex || indexFile >= 0 else {
            let error = fail("a temporary file in \(scratchDirectory)")
            close(messageFile)
            throw error
        }
        // osmium export tells the format by the name (it reads the file
        // twice, and its -F does not reach the second reading): a file whose
        // name says otherwise is given by a link of the right name.
        var named = input
        var linkPath: String?
        if !input.hasSuffix("." + format.rawValue) {
            let link = Self.link(to: input, suffix: format.rawValue)
            guard let link else {
                let error = fail("a link named .\(format.rawValue) to the input")
                close(messageFile)
                if indexFile >= 0 { close(indexFile) }
                throw error
            }
            named = link
            linkPath = link
        }
        self.link = linkPath
        var ends: [Int32] = [0, 0]
        let readEnd: Int32, writeEnd: Int32
        if GNU.pipe2(&ends, O_CLOEXEC) == 0 {
            (readEnd, writeEnd) = (high(ends[0]), high(ends[1]))
        } else {
            (readEnd, writeEnd) = (-1, -1)
        }
        guard readEnd >= 0, writeEnd >= 0 else {
            let error = fail("pipe")
            for fd in [readEnd, writeEnd, messageFile, indexFile] where fd >= 0 { close(fd) }
            if let linkPath { unlink(linkPath) }
            throw error
        }

        let arguments = [
            "export", "--no-progress", "-f", "geojsonseq", "-a", Self.attributes,
            "-i", fileIndex ? "\(index),/proc/self/fd/3" : index, named,
        ]
        commandLine = "osmium " + arguments.map { $0 == named ? "FILE" : $0 }.joined(separator: " ")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, messageFile, 2)
        if indexFile >= 0 { posix_spawn_file_actions_adddup2(&actions, indexFile, 3) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        _ = GNU.addclosefrom(&actions, indexFile >= 0 ? 4 : 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Default dispositions (a parent ignoring SIGPIPE would make osmium
        // write on to a closed pipe) and no blocked signals.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGPIPE, SIGTERM, SIGINT, SIGHUP] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, program, &actions, &attributes, argv, environ)
        close(writeEnd)
        if indexFile >= 0 { close(indexFile) }
        guard rc == 0 else {
            if let linkPath { unlink(linkPath) }
            close(readEnd)
            close(messageFile)
            throw .missingTool(
                package: "osmium-tool",
                reason: "\(what), and '\(program)' cannot be run: \(String(cString: strerror(rc)).lowercased())")
        }
        pid = child
        output = readEnd
        messages = messageFile
    }

    deinit {
        reap(killing: true)
        close(messages)
        if let link { unlink(link) }
    }

    /// A link to `input` (made absolute) named `*.suffix` in the temporary
    /// directory, removed when osmium is done.
    private let link: String?

    private static func link(to input: String, suffix: String) -> String? {
        guard let absolute = realpath(input, nil) else { return nil }
        defer { free(absolute) }
        let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        for attempt in 0..<100 {
            let name =
                "\(directory)/placedb-osmium-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(attempt).\(suffix)"
            if symlink(absolute, name) == 0 { return name }
            if errno != EEXIST { return nil }
        }
        return nil
    }

    /// Ends osmium if it still runs (the import stopped before its end).
    func terminate() {
        state.withLock { s in
            if case .running = s { kill(pid, SIGTERM) }
        }
    }

    /// Waits for osmium (its output has ended) and returns its wait status.
    @discardableResult
    private func reap(killing: Bool) -> Int32 {
        if case .reaped(let status) = state.withLock({ $0 }) { return status }
        if killing { terminate() }
        // Waited for without reaping first, so the process ID cannot be
        // reused while `terminate` may still signal it.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        state.withLock { s in
            if case .running = s { s = .exited(0) }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        state.withLock { $0 = .reaped(status) }
        return status
    }

    /// Reaps osmium after its output ended; nil when it succeeded, else
    /// the error: osmium's own message (bad data: `corrupt`, with where a
    /// PBF file is damaged), or how it ended.
    func finish() -> InputError? {
        let status = reap(killing: false)
        let signal = status & 0x7F
        let code = (status >> 8) & 0xFF
        if signal == 0 && code == 0 { return nil }
        let said = lastMessage()
        if signal != 0 {
            return InputError(
                kind: .unreadable, source: input,
                reason: "cannot read: osmium export was killed by signal \(signal)\(said.map { " (\($0))" } ?? "")")
        }
        if code == 1 {
            var reason = "osmium export failed: \(said ?? "no message")"
            if format == .pbf, let damage = PBFBlocks.damage(in: input) { reason += " (\(damage))" }
            return InputError(kind: .corrupt, source: input, reason: reason)
        }
        return InputError(
            kind: .unreadable, source: input,
            reason: "cannot read: osmium export exited with status \(code): \(said ?? "no message") (\(commandLine))")
    }

    /// The last lines osmium wrote to its standard error, as one line
    /// (at most 400 characters, control characters as spaces).
    private func lastMessage() -> String? {
        let size = lseek(messages, 0, SEEK_END)
        guard size > 0 else { return nil }
        let count = Int(min(size, 4096))
        var bytes = [UInt8](repeating: 0, count: count)
        let n = pread(messages, &bytes, count, off_t(size) - off_t(count))
        guard n > 0 else { return nil }
        let lines = String(decoding: bytes[0..<n], as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !lines.isEmpty else { return nil }
        // osmium wraps a sentence over lines: the last few, as one.
        let text = lines.suffix(4).joined(separator: " ")
        return String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) }.prefix(400))
    }
}

/// glibc's GNU extensions that Swift's Glibc module leaves out (they are
/// declared under `_GNU_SOURCE`), looked up once by name.
private enum GNU {
    private static func symbol<T>(_ name: String, as type: T.Type) -> T {
        guard let p = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { fatalError("glibc has no \(name)") }
        return unsafeBitCast(p, to: type)
    }
    /// `pipe2(2)`: the pipe is made close-on-exec at once, so no other
    /// child spawned meanwhile inherits it.
    static let pipe2 = symbol("pipe2", as: (@convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32).self)
    /// `mkostemp(3)`.
    static let mkostemp = symbol("mkostemp", as: (@convention(c) (UnsafeMutablePointer<CChar>?, Int32) -> Int32).self)
    /// `posix_spawn_file_actions_addclosefrom_np(3)` (glibc 2.34).
    static let addclosefrom = symbol(
        "posix_spawn_file_actions_addclosefrom_np",
        as: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32).self)
}
