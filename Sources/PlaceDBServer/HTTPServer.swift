import CMicroHTTPD
import Foundation
import PlaceKit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The HTTP layer: libmicrohttpd parses HTTP and runs `threads` event
/// loops (epoll, one thread each); an acceptor thread takes the
/// connections from the listening socket and hands them to the loops in
/// turn (round robin, as SwiftNIO's and Netty's event-loop groups do), so
/// the loops share the clients evenly. (libmicrohttpd's own thread pool
/// lets whichever loop wakes first accept: under `wrk -c64` one loop took
/// all 64 connections in some runs while the other idled.) Each request is
/// read whole (the body up to `maxBodyBytes`), answered by the router on
/// its loop's thread, and logged. No HTTP is parsed here.
package final class HTTPServer: Sendable {
    /// The port listened on (the one chosen when the configuration said 0).
    package let port: UInt16
    package let host: String
    private let core: ServerCore
    private let loops: Mutex<EventLoops?>
    private let acceptor: Acceptor

    /// Binds `configuration.host:port` and starts serving `router`.
    /// Throws `ServerError` (the address is in use, not an address, ...).
    package init(router: PlacesRouter, configuration: ServerConfiguration, log: @escaping @Sendable (String) -> Void = ServerCore.standardError) throws {
        let (fd, port) = try Self.listen(host: configuration.host, port: configuration.port)
        self.port = port
        self.host = configuration.host
        core = ServerCore(router: router, configuration: configuration, log: configuration.quiet ? nil : log)
        let opaque = Unmanaged.passUnretained(core).toOpaque()
        let flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ITC.rawValue
        var daemons: [OpaquePointer] = []
        for _ in 0..<max(1, configuration.threads) {
            guard let d = placedb_mhd_start(flags, accessHandler, opaque, completedHandler, opaque,
                                             configuration.maxConnections, configuration.connectionTimeout,
                                             configuration.maxHeaderBytes) else {
                for started in daemons { MHD_stop_daemon(started) }
                close(fd)
                throw ServerError("cannot start the HTTP server on \(configuration.host):\(port)")
            }
            daemons.append(d)
        }
        let started = EventLoops(daemons: daemons)
        loops = Mutex(started)
        acceptor = Acceptor(fd: fd, loops: started, maxConnections: Int(configuration.maxConnections))
    }

    /// False once `stop` has closed the listening socket.
    var isAccepting: Bool { acceptor.isRunning }

    /// Requests being answered now.
    package var inFlight: Int { core.inFlight.load(ordering: .relaxed) }

    /// Connections open now, idle or not (0 once stopped).
    var openConnections: Int {
        loops.withLock { $0?.openConnections ?? 0 }
    }

    /// Connections open now on each event loop (0 once stopped).
    var connectionsPerLoop: [Int] {
        loops.withLock { $0?.connections ?? [] }
    }

    /// Stops accepting connections, lets requests in flight finish (up to
    /// `timeout` seconds), then closes every connection. Idempotent.
    package func stop(timeout: Double) {
        acceptor.stop()
        guard loops.withLock({ $0 != nil }) else { return }
        let deadline = Date().addingTimeInterval(timeout)
        while core.inFlight.load(ordering: .acquiring) > 0 && Date() < deadline {
            usleep(5_000)
        }
        loops.withLock { l in
            if let running = l { for d in running.daemons { MHD_stop_daemon(d) } }
            l = nil
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
        guard fd >= 0 else { throw ServerError("cannot listen on \(host):\(port): \(String(cString: strerror(errno)))") }
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
                    return sa.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
                }
                return sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            }
        }
        return (fd, bound)
    }
}

/// The event loops (libmicrohttpd daemons without a listening socket).
struct EventLoops: @unchecked Sendable {
    // The daemons are thread-safe for MHD_add_connection (MHD_USE_ITC) and
    // MHD_get_daemon_info; they are stopped once, under HTTPServer's lock,
    // after the acceptor has stopped.
    let daemons: [OpaquePointer]

    /// Connections open on each loop.
    var connections: [Int] { daemons.map { Int(placedb_mhd_connection_count($0)) } }

    /// Connections open on all loops (no array: the acceptor asks at every accept).
    var openConnections: Int {
        var total = 0
        for d in daemons { total += Int(placedb_mhd_connection_count(d)) }
        return total
    }
}

/// The thread that accepts connections and hands each to the next event
/// loop. At `maxConnections` open, a new connection is closed at once
/// (refused), as libmicrohttpd does at its limit.
final class Acceptor: Sendable {
    private let fd: Int32
    /// running: false once stop began (the thread ends at its next accept);
    /// closed: the listening socket is closed.
    private let state = Mutex<(running: Bool, closed: Bool)>((true, false))
    private let done = DispatchSemaphore(value: 0)

    init(fd: Int32, loops: EventLoops, maxConnections: Int) {
        self.fd = fd
        let thread = Thread { [self] in
            run(loops: loops, maxConnections: maxConnections)
            done.signal()
        }
        thread.name = "placedb-accept"
        thread.start()
    }

    /// False once the listening socket is closed.
    var isRunning: Bool { state.withLock { !$0.closed } }

    private func run(loops: EventLoops, maxConnections: Int) {
        var next = 0
        while true {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &address) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    accept(fd, $0, &length)
                }
            }
            if client < 0 {
                let e = errno
                if !state.withLock({ $0.running }) { return }
                switch e {
                case EINTR, ECONNABORTED, EAGAIN, EPROTO: continue
                // Out of descriptors or memory (let connections close), or
                // anything else while serving: wait a little, never stop
                // accepting until stop() says so.
                default: usleep(10_000); continue
                }
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
            if loops.openConnections >= maxConnections {
                close(client)
                continue
            }
            let loop = loops.daemons[next]
            next = (next + 1) % loops.daemons.count
            // libmicrohttpd owns the socket from here, and closes it if it cannot take it.
            _ = withUnsafePointer(to: &address) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) { MHD_add_connection(loop, client, $0, length) }
            }
        }
    }

    /// Stops accepting (the listening socket is shut down and closed);
    /// returns once the acceptor thread has ended. Idempotent.
    func stop() {
        let first = state.withLock { s -> Bool in
            guard s.running else { return false }
            s.running = false
            return true
        }
        guard first else {
            // Another caller is stopping it: return once the socket is closed.
            while isRunning { usleep(1_000) }
            return
        }
        shutdown(fd, Int32(SHUT_RDWR))
        done.wait()
        close(fd)
        state.withLock { $0.closed = true }
    }
}

/// Why the server could not start (one line).
package struct ServerError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}

/// What the C callbacks reach through their closure pointer.
package final class ServerCore: Sendable {
    let router: PlacesRouter
    let maxBody: Int
    let log: (@Sendable (String) -> Void)?
    let inFlight = Atomic<Int>(0)

    init(router: PlacesRouter, configuration: ServerConfiguration, log: (@Sendable (String) -> Void)?) {
        self.router = router
        self.maxBody = configuration.maxBodyBytes
        self.log = log
    }

    /// One write(2) per line, so lines from several threads never mix.
    package static let standardError: @Sendable (String) -> Void = { line in
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}

/// One request on its way through the callbacks (one thread at a time).
final class RequestState {
    let start = DispatchTime.now().uptimeNanoseconds
    let method: String
    let path: String
    var body: [UInt8] = []
    var tooLarge = false
    var status: Int?
    var bytes = 0

    init(method: String, path: String) {
        self.method = method
        self.path = path
    }
}

private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadSize, requestContext in
    guard let cls, let connection, let uploadSize, let requestContext else { return .NO }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    if requestContext.pointee == nil {
        let state = RequestState(method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/")
        requestContext.pointee = Unmanaged.passRetained(state).toOpaque()
        core.inFlight.add(1, ordering: .relaxed)
        // A body's announced length (not looked up for GET and HEAD, which have none).
        if state.method != "GET", state.method != "HEAD",
           let length = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length").map({ String(cString: $0) }),
           let n = Int(length), n > core.maxBody {
            return respond(core, connection, state, APIError.payloadTooLarge(limit: core.maxBody).response)
        }
        // Answered on the next call, once the request (and its body) is
        // whole: libmicrohttpd closes a connection answered earlier, where
        // it keeps it alive otherwise.
        return .YES
    }
    let state = Unmanaged<RequestState>.fromOpaque(requestContext.pointee!).takeUnretainedValue()
    if state.status != nil {
        // Answered already (413): the rest of the body is dropped.
        uploadSize.pointee = 0
        return .YES
    }
    if uploadSize.pointee > 0 {
        let n = uploadSize.pointee
        if state.body.count + n > core.maxBody {
            state.tooLarge = true
            state.body = []
        } else if let uploadData, !state.tooLarge {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: n) { state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: n)) }
        }
        uploadSize.pointee = 0
        return .YES
    }
    if state.tooLarge { return respond(core, connection, state, APIError.payloadTooLarge(limit: core.maxBody).response) }
    return answer(core, connection, state)
}

/// Reads the query and headers, asks the router, queues the answer.
private func answer(_ core: ServerCore, _ connection: OpaquePointer, _ state: RequestState) -> MHD_Result {
    final class Pairs { var items: [(name: String, value: String)] = [] }
    let collect: MHD_KeyValueIterator = { cls, _, key, value in
        let pairs = Unmanaged<Pairs>.fromOpaque(cls!).takeUnretainedValue()
        if let key { pairs.items.append((String(cString: key), value.map { String(cString: $0) } ?? "")) }
        return .YES
    }
    let query = Pairs(), headers = Pairs()
    MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, collect, Unmanaged.passUnretained(query).toOpaque())
    MHD_get_connection_values(connection, .HEADER_KIND, collect, Unmanaged.passUnretained(headers).toOpaque())
    let request = HTTPRequest(method: state.method, path: state.path, query: query.items, headers: headers.items, body: state.body)
    state.body = []
    return respond(core, connection, state, core.router.respond(to: request))
}

private func respond(_ core: ServerCore, _ connection: OpaquePointer, _ state: RequestState, _ response: HTTPResponse) -> MHD_Result {
    let r = response.body.withUnsafeBytes { raw in
        MHD_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), MHD_ResponseMemoryMode(rawValue: 2)! /* MHD_RESPMEM_MUST_COPY */)
    }
    guard let r else { return .NO }
    for (name, value) in response.headers { MHD_add_response_header(r, name, value) }
    state.status = response.status
    state.bytes = response.body.count
    let result = MHD_queue_response(connection, UInt32(response.status), r)
    MHD_destroy_response(r)
    return result
}

private let completedHandler: MHD_RequestCompletedCallback = { cls, _, requestContext, termination in
    guard let cls, let requestContext, let raw = requestContext.pointee else { return }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    let state = Unmanaged<RequestState>.fromOpaque(raw).takeRetainedValue()
    requestContext.pointee = nil
    core.inFlight.subtract(1, ordering: .releasing)
    if let log = core.log {
        let micros = (DispatchTime.now().uptimeNanoseconds - state.start) / 1000
        let status = state.status.map(String.init) ?? "-"
        let note = termination.rawValue == 0 /* MHD_REQUEST_TERMINATED_COMPLETED_OK */ ? "" : " (\(Termination.name(termination)))"
        log("\(state.method) \(state.path) \(status) \(state.bytes) \(micros)us\(note)")
    }
}

enum Termination {
    static func name(_ t: MHD_RequestTerminationCode) -> String {
        // MHD_REQUEST_TERMINATED_WITH_ERROR, _TIMEOUT_REACHED, _DAEMON_SHUTDOWN, _READ_ERROR, _CLIENT_ABORT.
        switch t.rawValue {
        case 1: "connection error"
        case 2: "timed out"
        case 3: "server stopping"
        case 4, 5: "client went away"
        default: "not completed"
        }
    }
}
