import Foundation
import PlaceDBFuzz
#if FUZZING
    import CLibFuzzer
#endif

/// `placedb-fuzz TARGET [ARGS...]` (docs/fuzzing.md; Scripts/fuzz runs it).
///
/// Built with `-sanitize=fuzzer -DFUZZING` it is a libFuzzer binary: ARGS
/// are libFuzzer's (corpus directories, `-max_total_time=N`, ...). In any
/// other build it replays ARGS (files, or directories of files) through the
/// target, to reproduce a finding under a debugger or a plain build.
/// The target may also come from `PLACEDB_FUZZ_TARGET` (libFuzzer's fork
/// mode starts its workers without our first argument).
@main
struct FuzzMain {
    nonisolated(unsafe) static var selected: FuzzTarget?

    static func main() {
        var args = CommandLine.arguments
        if args.count == 4 && args[1] == "--seeds" {
            do {
                let counts = try makeSeeds(from: args[2], into: args[3])
                for (target, n) in counts.sorted(by: { $0.key < $1.key }) { print("\(target): \(n) seeds") }
                exit(0)
            } catch {
                FileHandle.standardError.write(
                    Data("placedb-fuzz: cannot write seeds into \(args[3]): \(error)\n".utf8))
                exit(74)
            }
        }
        var name = ProcessInfo.processInfo.environment["PLACEDB_FUZZ_TARGET"]
        if args.count > 1, FuzzTarget.named(args[1]) != nil {
            name = args.remove(at: 1)
            setenv("PLACEDB_FUZZ_TARGET", name!, 1)
        }
        guard let name, let target = FuzzTarget.named(name) else {
            let list = FuzzTarget.all.map {
                "  \($0.name.padding(toLength: 10, withPad: " ", startingAt: 0))  \($0.summary)"
            }.joined(separator: "\n")
            FileHandle.standardError.write(
                Data(
                    "usage: placedb-fuzz TARGET [libFuzzer options | files to replay]\n       placedb-fuzz --seeds DATA_DIR OUT_DIR\ntargets:\n\(list)\n"
                        .utf8))
            exit(64)
        }
        selected = target
        atexit { fuzzTearDown() }
        target.prepare()
        #if FUZZING
            var argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
            var argc = Int32(args.count)
            let status = argv.withUnsafeMutableBufferPointer { buffer -> Int32 in
                var pointer = buffer.baseAddress
                return LLVMFuzzerRunDriver(&argc, &pointer) { data, size in
                    FuzzMain.selected!.run(UnsafeRawBufferPointer(start: data, count: size))
                    return 0
                }
            }
            exit(status)
        #else
            var count = 0
            for path in args.dropFirst() {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                    FileHandle.standardError.write(Data("placedb-fuzz: \(path): no such file or directory\n".utf8))
                    exit(66)
                }
                let files =
                    isDirectory.boolValue
                    ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map {
                        "\(path)/\($0)"
                    }
                    : [path]
                for file in files {
                    guard let data = FileManager.default.contents(atPath: file) else { continue }
                    data.withUnsafeBytes { target.run($0) }
                    count += 1
                }
            }
            print("placedb-fuzz \(target.name): \(count) input\(count == 1 ? "" : "s") replayed, no finding")
        #endif
    }
}
