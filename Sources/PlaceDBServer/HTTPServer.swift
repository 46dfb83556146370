import CMicroHTTPD
import Foundation
import PlaceKit
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// The HTTP layer: libmicrohttpd parses HTTP; `threads` event loops
/// (`EventLoop`: epoll, one thread each, driven by placedb) serve the
/// connections that an acceptor thread (`Acceptor`) takes from the
/// listening socket and hands to them in turn, so the loops share the
/// clients evenly. Each request is read whole (the body up to
/// `maxBodyBytes`), answered by the router on its loop's thread, and
/// logged. No HTTP is parsed here.
///
/// Limits that keep one client from holding the others (docs/server.md):
/// each connection must deliver each request whole, and have it answered,
/// within `requestTimeout` of its accept or of its previous answer (a
/// byte a second does not keep it open, as it would an idle timeout); a
/// client address holds at most `maxConnectionsPerClient`; at
/// `maxConnections` open, the connection waiting longest for its request
/// is closed for the new one.
package final class HTTPServer: Sendable {
    /// The port listened on (the one chosen when the configuration said 0).
    package let port: UInt16
    package let host: String
    private let core: ServerCore
    private let loops: [EventLoop]
    private let acceptor: Acceptor
    /// Loops whose daemons are stopped (by index); the rest are running or stuck.
    private let stopped = Mutex<Set<Int>?>(nil)

    /// Binds `configuration.host:port` and starts serving `router`.
    /// Throws `ServerError` (the address is in use, not an address, ...).
    package convenience init(
        router: PlacesRouter, configuration: ServerConfiguration,
        log: @escaping @Sendable (String) -> Void = ServerCore.standardError
    ) throws {
        try self.init(configuration: configuration, log: log, listening: router.listening, handler: router.respond)
    }

    /// Serves `handler`'s answers (the HTTP layer alone, for tests);
    /// `listening` is told the address once bound.
    init(
        configuration: ServerConfiguration, log: @escaping @Sendable (String) -> Void = ServerCore.standardError,
        listening: (String, UInt16) -> Void = { _, _ in }, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) throws {
        let (fd, port) = try Self.listen(host: configuration.host, port: configuration.port)
        self.port = port
        self.host = configuration.host
        listening(configuration.host, port)
        core = ServerCore(handler: handler, configuration: configuration, log: configuration.quiet ? nil : log)
        var started: [EventLoop] = []
        for _ in 0..<max(1, configuration.threads) {
            guard let loop = EventLoop(core: core, configuration: configuration) else {
                for l in started { l.requestStop(); l.done.wait(); l.close() }
                close(fd)
                throw ServerError("cannot start the HTTP server on \(configuration.host):\(port)")
            }
            started.append(loop)
        }
        loops = started
        acceptor = Acceptor(
            fd: fd, loops: started, clients: core.clients, maxConnections: Int(configuration.maxConnections),
            maxPerClient: Int(configuration.effectiveMaxConnectionsPerClient))
    }

    /// False once `stop` has closed the listening socket.
    var isAccepting: Bool { acceptor.isRunning }

    /// Requests being answered now.
    package var inFlight: Int { core.inFlight.load(ordering: .relaxed) }

    /// Connections open now, idle or not (0 once stopped).
    var openConnections: Int { connectionsPerLoop.reduce(0, +) }

    /// Connections open now on each event loop (0 once stopped).
    var connectionsPerLoop: [Int] {
        stopped.withLock { $0 == nil } ? loops.map(\.openConnections) : []
    }

    /// Stops accepting connections, lets requests in flight finish (up to
    /// `timeout` seconds), then closes every connection. Returns within
    /// `timeout` (and a little) whatever the requests do: a loop still
    /// inside a request then is left to the process's exit. Idempotent.
    package func stop(timeout: Double) {
        acceptor.stop()
        let first = stopped.withLock { s -> Bool in
            guard s == nil else { return false }
            s = []
            return true
        }
        guard first else { return }
        let deadline = DispatchTime.now() + timeout
        while core.inFlight.load(ordering: .acquiring) > 0 && DispatchTime.now() < deadline {
            usleep(5_000)
        }
        for loop in loops { loop.requestStop() }
        for (i, loop) in loops.enumerated() {
            // A loop ends its turn within a sweep (250 ms) unless a request holds it.
            guard loop.done.wait(timeout: max(deadline, .now() + 0.5)) == .success else { continue }
            loop.close()
            stopped.withLock { _ = $0?.insert(i) }
        }
    }

    deinit {
        stop(timeout: 0)
    }

    /// A listening TCP socket on host:port (IPv4 or IPv6 literal, or localhost).
    static func listen(host: String, port: UInt16) throws -> (Int32, UInt16) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var result: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &result)
        guard rc == 0, let info = result else {
            throw ServerError("cannot listen on \(host):\(port): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(result) }
        let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            throw ServerError("cannot listen on \(host):\(port): \(String(cString: strerror(errno)))")
        }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0, Glibc.listen(fd, 1024) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw ServerError("cannot listen on \(host):\(port): \(message)")
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let bound: UInt16 = withUnsafeMutablePointer(to: &storage) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa -> UInt16 in
                guard getsockname(fd, sa, &length) == 0 else { return port }
                if sa.pointee.sa_family == sa_family_t(AF_INET6) {
                    return sa.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                        UInt16(bigEndian: $0.pointee.sin6_port)
                    }
                }
                return sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin_port)
                }
            }
        }
        return (fd, bound)
    }
}

/// Why the server could not start (one line).
package struct ServerError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
