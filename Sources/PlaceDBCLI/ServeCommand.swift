import Foundation
import PlaceDBServer
import PlaceKit
import PlaceModel
#if canImport(Glibc)
    import Glibc
#endif

/// `placedb serve`: the Places API (New) over HTTP on this machine
/// (docs/server.md).
enum ServeCommand: Command {
    /// The options, read by these constants (a typo does not compile).
    enum Options {
        static let listen = OptionSpec(
            "--listen", value: "HOST:PORT",
            help:
                "The address to listen on (default 127.0.0.1:8080: this machine only; [::1]:PORT for IPv6, port 0 for any free port)."
        )
        static let threads = OptionSpec(
            "--threads", value: "N",
            help: "Worker threads, each an event loop with its own read-only connection (default: the number of cores)."
        )
        static let defaultFieldMask = OptionSpec(
            "--default-field-mask", value: "MASK",
            help:
                "The field mask of a request that gives none (without it such a request is answered 400, as the API does), e.g. '*'."
        )
        static let apiKeyFile = OptionSpec(
            "--api-key-file", value: "FILE",
            help:
                "Require the key in FILE (its first line) in X-Goog-Api-Key or ?key= (default: $PLACEDB_API_KEY, else no key); a missing key is answered 403, a wrong one 400 (API_KEY_INVALID), as Google answers."
        )
        static let connectionTimeout = OptionSpec(
            "--connection-timeout", value: "S",
            help: "Close a connection idle for S seconds, so slow clients cannot hold the server (default 10).")
        static let maxConnections = OptionSpec(
            "--max-connections", value: "N",
            help:
                "Open connections at most (default 1000); at the cap the connection that has waited longest (over 1 s) for its next request is closed for the new one, else the new one is refused."
        )
        static let maxConnectionsPerClient = OptionSpec(
            "--max-connections-per-client", value: "N",
            help:
                "Open connections from one client address at most; more are refused (default: half of --max-connections)."
        )
        static let requestTimeout = OptionSpec(
            "--request-timeout", value: "S",
            help:
                "Close a connection whose request has not arrived whole and been answered S seconds after its accept or previous answer, however steadily its bytes come (default 30)."
        )
        static let allowHost = OptionSpec(
            "--allow-host", value: "NAME",
            help:
                "Also answer requests whose Host header names NAME (IP addresses, localhost and the --listen host are always answered; * answers any). Other names are answered 403, so a web page cannot reach the server through DNS rebinding.",
            repeatable: true)
        static let quiet = OptionSpec(
            "--quiet",
            help:
                "No access log (by default one line per request on stderr: method, path, status, bytes, microseconds).")
        static let all = [
            listen, threads, defaultFieldMask, apiKeyFile, connectionTimeout, requestTimeout, maxConnections,
            maxConnectionsPerClient, allowHost, QueryOptions.unmerged, quiet,
        ]
    }

    static let spec = CommandSpec(
        name: "serve",
        abstract:
            "Serve the database over HTTP with the Places API (New) REST interface (Place Details, searchNearby, photo media) and placedb's own routes.",
        arguments: [],
        options: Options.all,
        discussion: """
            The database is opened read-only; imports into it while serving are seen by the next
            requests. Request bodies over 1 MiB are answered 413. SIGTERM or SIGINT stops accepting
            connections, lets requests in flight finish (up to 10 s) and exits 0. The routes, the
            error shapes and what each answers are in server.md (see SEE ALSO below).
            """,
        examples: [
            "placedb serve --db places.sqlite",
            "placedb serve --listen 127.0.0.1:0 --default-field-mask '*' --quiet",
            "PLACEDB_API_KEY=secret placedb serve --listen [::1]:8080",
        ],
        seeAlso: ["place", "nearby", "search"],
        docs: ["server.md"])

    static func run(_ context: CommandContext) throws -> ExitCode {
        let args = context.arguments
        var config = ServerConfiguration()
        config.version = CommandLineTool.version
        if let listen = args.value(Options.listen) {
            (config.host, config.port) = try parseListen(listen)
        }
        if let n = try integer(args, Options.threads, 1...256) { config.threads = n }
        if let n = try integer(args, Options.connectionTimeout, 1...3600) { config.connectionTimeout = UInt32(n) }
        if let n = try integer(args, Options.requestTimeout, 1...3600) { config.requestTimeout = UInt32(n) }
        if let n = try integer(args, Options.maxConnections, 1...100_000) { config.maxConnections = UInt32(n) }
        if let n = try integer(args, Options.maxConnectionsPerClient, 1...100_000) {
            config.maxConnectionsPerClient = UInt32(n)
        }
        for name in args.all(Options.allowHost) {
            guard name == "*" || (!name.isEmpty && name.utf8.allSatisfy(HostAllowList.isHostByte)) else {
                throw UsageError(
                    message:
                        "invalid value '\(name)' for '\(Options.allowHost.name)'; expected a host name (ASCII letters, digits, '-', '.'), an IP address, or *"
                )
            }
            config.allowedHosts.append(name)
        }
        config.quiet = args.flag(Options.quiet)
        if let mask = args.value(Options.defaultFieldMask) {
            do { _ = try FieldMask(parsing: mask) } catch {
                throw UsageError(message: "\(Options.defaultFieldMask.name): \(error.commandLineMessage)")
            }
            config.defaultFieldMask = mask
        }
        if let file = args.value(Options.apiKeyFile) {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CommandFailure(code: .noInput, message: "\(file): cannot read the API key file")
            }
            let key =
                String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map {
                    $0.trimmingCharacters(in: .whitespaces)
                } ?? ""
            guard !key.isEmpty else {
                throw CommandFailure(code: .dataError, message: "\(file):1: the API key file holds no key")
            }
            config.apiKey = key
        } else if let key = context.console.environment("PLACEDB_API_KEY"), !key.isEmpty {
            config.apiKey = key
        }

        // Signals are taken by sigwait below; blocked before any thread starts
        // so that every thread inherits the mask.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        signal(SIGPIPE, SIG_IGN)
        defer { pthread_sigmask(SIG_UNBLOCK, &signals, nil) }

        let backend = try ServerBackend(
            databasePath: context.databasePath, connections: config.threads,
            recordView: QueryOptions.recordView(context))
        let router = try PlacesRouter(backend: backend, configuration: config)
        let server: HTTPServer
        do {
            server = try HTTPServer(router: router, configuration: config)
        } catch let error as ServerError {
            throw CommandFailure(code: .failure, message: error.description)
        }
        let places = (try? backend.placeCount()).map { "\($0) places" } ?? "places"
        let shown = config.host.contains(":") ? "[\(config.host)]" : config.host
        context.console.errLine(
            "placedb serve: listening on http://\(shown):\(server.port)/ (\(backend.databasePath), \(places), \(config.threads) thread\(config.threads == 1 ? "" : "s")\(config.apiKey == nil ? "" : ", API key required"))"
        )
        var received: Int32 = 0
        sigwait(&signals, &received)
        context.console.errLine(
            "placedb serve: \(received == SIGINT ? "SIGINT" : "SIGTERM"): stopping; \(server.inFlight) request\(server.inFlight == 1 ? "" : "s") in flight"
        )
        server.stop(timeout: config.shutdownTimeout)
        context.console.errLine("placedb serve: stopped")
        return .success
    }

    /// `HOST:PORT`, `[V6]:PORT`, or `PORT` alone (on 127.0.0.1).
    static func parseListen(_ text: String) throws -> (String, UInt16) {
        var host = "127.0.0.1"
        var portText = text
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw UsageError(message: "invalid value '\(text)' for '--listen'; expected HOST:PORT or [IPV6]:PORT")
            }
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = String(text[text.index(close, offsetBy: 2)...])
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = String(text[text.index(after: colon)...])
        }
        guard !host.isEmpty, let port = UInt16(portText) else {
            throw UsageError(
                message: "invalid value '\(text)' for '--listen'; expected HOST:PORT with a port in 0...65535")
        }
        return (host, port)
    }

    static func integer(_ args: ParsedArguments, _ option: OptionSpec, _ range: ClosedRange<Int>) throws -> Int? {
        guard let text = args.value(option) else { return nil }
        guard let n = Int(text), range.contains(n) else {
            throw UsageError(
                message:
                    "invalid value '\(text)' for '\(option.name)'; expected an integer in \(range.lowerBound)...\(range.upperBound)"
            )
        }
        return n
    }
}
