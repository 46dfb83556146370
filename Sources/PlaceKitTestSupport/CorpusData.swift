public import Foundation

/// The shared real-data corpus (../shared/data, described by its
/// SOURCES.md) that the corpus tests read. Where it is absent those tests
/// are reported as skipped, never as passed:
///
///     @Test("...", .enabled(if: CorpusData.isPresent, "needs ../shared/data"))
///
/// `PLACEDB_CORPUS_DATA=DIR` points the tests at another copy; a DIR without
/// SOURCES.md (`PLACEDB_CORPUS_DATA=/nonexistent`) hides the corpus, to
/// check what a machine without it reports.
public enum CorpusData {
    /// The corpus directory, or nil when it is absent.
    public static let root: URL? = {
        if let override = ProcessInfo.processInfo.environment["PLACEDB_CORPUS_DATA"], !override.isEmpty {
            return located(URL(fileURLWithPath: override))
        }
        // Tests run with the package root as the working directory; fall
        // back to this file's location for other runners.
        let candidates = [
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("../shared/data"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared/data"),
        ]
        return candidates.lazy.compactMap(located).first
    }()

    private static func located(_ url: URL) -> URL? {
        FileManager.default.fileExists(atPath: url.appendingPathComponent("SOURCES.md").path)
            ? url.standardizedFileURL : nil
    }

    /// Whether the corpus is there: the condition of the corpus tests.
    public static var isPresent: Bool { root != nil }

    /// The file or directory `relative` in the corpus, when the corpus
    /// holds it.
    public static func url(_ relative: String) -> URL? {
        guard let url = root?.appendingPathComponent(relative), FileManager.default.fileExists(atPath: url.path) else {
            return nil
        }
        return url
    }

    /// Whether the corpus holds `relative`.
    public static func has(_ relative: String) -> Bool { url(relative) != nil }

    /// Every regular file under `relative` in the corpus, sorted (none when
    /// the corpus is absent).
    public static func files(under relative: String, extension ext: String? = nil) -> [URL] {
        guard let root else { return [] }
        let dir = root.appendingPathComponent(relative)
        guard let e = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return []
        }
        var out: [URL] = []
        for case let url as URL in e where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        {
            if let ext, url.pathExtension != ext { continue }
            out.append(url)
        }
        return out.sorted { $0.path < $1.path }
    }
}

/// The products built next to the running test bundle (`placedb`), found
/// from the test process's own executable, so debug, release and
/// `--scratch-path` builds all find theirs. `PLACEDB_BINARY_DIR` overrides.
public enum BuiltProducts {
    /// The directory holding the test bundle and the built executables.
    public static let directory: URL = {
        if let dir = ProcessInfo.processInfo.environment["PLACEDB_BINARY_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir)
        }
        // On Linux the bundle (placedbPackageTests.xctest) is an executable
        // in the build directory; on macOS it is a directory there, run by
        // xctest or swiftpm-testing-helper, so climb out of any .xctest.
        var url = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        if !FileManager.default.fileExists(atPath: url.path) {
            url = URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0]).resolvingSymlinksInPath()
        }
        url.deleteLastPathComponent()
        while url.path.contains(".xctest") { url.deleteLastPathComponent() }
        return url
    }()

    /// The path of the executable product `name` (which may not be built).
    public static func executable(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }
}
