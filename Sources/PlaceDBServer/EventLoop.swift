import CMicroHTTPD
import Foundation
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// One event loop: a libmicrohttpd daemon (epoll, no listening socket)
/// driven by a thread of placedb's own, which waits on the daemon's epoll
/// descriptor (and a wake-up eventfd), adds the connections the acceptor
/// hands it, runs the daemon (`MHD_run`, which never blocks), and once
/// every 250 ms sweeps its connections for the request deadline.
///
/// Why not libmicrohttpd's internal polling thread: libmicrohttpd 0.9.75
/// (Debian 12) drains epoll in a loop that calls `epoll_wait` again while a
/// call returns its whole buffer of 128 events, with the blocking timeout.
/// With exactly 128 busy connections on a loop, the second call waits
/// (for a new event or the connection timeout) before the 128 ready
/// connections are served, and the loop stalls (`wrk -c128` on one
/// thread shows it; `-c127` does not). `MHD_run` drains with a timeout of 0, so the
/// waiting happens here, on our own `epoll_wait`, before and not between.
///
/// Everything below runs on the loop's thread (the callbacks included),
/// except `hand`, `evictOne`, `takeEvictable`, `openConnections`,
/// `oldestWaiting` and `requestStop`.
final class EventLoop: @unchecked Sendable {
    /// Set once in init (before the thread starts), never changed.
    private(set) var daemon: OpaquePointer!
    let core: ServerCore
    private let epollFD: Int32
    private let wakeFD: Int32
    private let pending = Mutex<[Handoff]>([])
    private let running = Atomic<Bool>(true)
    let done = DispatchSemaphore(value: 0)
    /// Connections open on this loop (handed and not yet closed).
    private let open = Atomic<Int>(0)
    /// The earliest `since` of a connection that may be closed for a new one (0: none).
    private let oldest = Atomic<UInt64>(0)
    /// Connections that may be closed for a new one, as of the last sweep,
    /// less those the acceptor has claimed since (`takeEvictable`).
    private let evictable = Atomic<Int>(0)
    /// Closings the acceptor asked for (`evictOne`) that the loop has not done yet.
    private let evictions = Atomic<Int>(0)

    /// The loop's connections, by libmicrohttpd's connection pointer.
    private var connections: [UInt: ConnectionRecord] = [:]
    /// Client addresses of sockets being added (until libmicrohttpd's STARTED notice).
    private var adding: [Int32: ClientAddress] = [:]
    private var lastSweep: UInt64 = 0

    static let sweepNanoseconds: UInt64 = 250_000_000

    /// Starts a daemon with `configuration`'s limits; nil if libmicrohttpd cannot.
    init?(core: ServerCore, configuration: ServerConfiguration) {
        self.core = core
        epollFD = placedb_epoll_create()
        wakeFD = placedb_eventfd()
        guard epollFD >= 0, wakeFD >= 0 else {
            if epollFD >= 0 { Glibc.close(epollFD) }
            if wakeFD >= 0 { Glibc.close(wakeFD) }
            return nil
        }
        // The daemon's own limit is a backstop: the acceptor keeps the
        // server's (connections being closed for new ones count twice briefly).
        let daemonLimit = configuration.maxConnections &* 2 &+ 16
        // The callbacks reach this loop through their closure pointer
        // (unretained: the server keeps its loops until the daemons stop).
        let me = UnsafeMutableRawPointer(Unmanaged.passUnretained(self).toOpaque())
        let made = placedb_mhd_start(
            MHD_USE_EPOLL.rawValue, accessHandler, me, completedHandler, notifyConnection, uriLog,
            daemonLimit, configuration.connectionTimeout, configuration.maxHeaderBytes)
        guard let d = made else {
            Glibc.close(epollFD)
            Glibc.close(wakeFD)
            return nil
        }
        daemon = d
        for fd in [placedb_mhd_epoll_fd(d), wakeFD] { _ = placedb_epoll_add_readable(epollFD, fd) }
        let thread = Thread { [self] in
            run()
            done.signal()
        }
        thread.name = "placedb-loop"
        thread.start()
    }

    // MARK: - From other threads

    /// Connections open on this loop, and on their way to it.
    var openConnections: Int { open.load(ordering: .relaxed) }

    /// When the longest-waiting connection that may be closed for a new one
    /// began waiting (uptime nanoseconds), 0 for none; as of the last sweep.
    var oldestWaiting: UInt64 { oldest.load(ordering: .relaxed) }

    /// The loop had a connection to spare at its last sweep, not claimed yet.
    var hasEvictable: Bool { evictable.load(ordering: .relaxed) > 0 }

    /// Claims one of the connections this loop may close for a new one;
    /// false when it had none left at its last sweep.
    func takeEvictable() -> Bool {
        var n = evictable.load(ordering: .relaxed)
        while n > 0 {
            let (exchanged, original) = evictable.compareExchange(expected: n, desired: n - 1, ordering: .relaxed)
            if exchanged { return true }
            n = original
        }
        return false
    }

    /// Asks the loop to close its longest-waiting connection (one claimed
    /// with `takeEvictable`), for a new connection on any loop.
    func evictOne() {
        evictions.add(1, ordering: .relaxed)
        wake()
    }

    /// Queues a connection for this loop and wakes it.
    func hand(_ connection: Handoff) {
        open.add(1, ordering: .relaxed)
        pending.withLock { $0.append(connection) }
        wake()
    }

    /// Ends the loop's thread after its current turn (`done` is signalled).
    func requestStop() {
        running.store(false, ordering: .releasing)
        wake()
    }

    private func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    /// Stops the daemon (closing its connections) and the descriptors;
    /// only once the loop's thread has ended.
    func close() {
        MHD_stop_daemon(daemon)
        for h in pending.withLock({ p -> [Handoff] in
            defer { p = [] }; return p
        }) {
            Glibc.close(h.fd)
            core.clients.release(h.client)
        }
        Glibc.close(epollFD)
        Glibc.close(wakeFD)
    }

    // MARK: - The loop's thread

    private func run() {
        var ready = [Int32](repeating: -1, count: 4)
        while running.load(ordering: .acquiring) {
            var timeout: Int32 = Int32(Self.sweepNanoseconds / 1_000_000)
            var mhdTimeout: UInt64 = 0
            if MHD_get_timeout(daemon, &mhdTimeout) == .YES {
                timeout = Int32(min(UInt64(timeout), UInt64(mhdTimeout)))
            }
            let n = placedb_epoll_wait(epollFD, &ready, Int32(ready.count), timeout)
            // `hand` queues before it wakes, so the queue is looked at (and
            // its lock taken) only on a wake-up, not on every turn.
            if n > 0, ready[0..<Int(n)].contains(wakeFD) {
                var count: UInt64 = 0
                _ = read(wakeFD, &count, 8)
                let e = evictions.exchange(0, ordering: .relaxed)
                if e > 0 { evictLongestWaiting(e) }
                addPending()
            }
            MHD_run(daemon)
            let now = DispatchTime.now().uptimeNanoseconds
            if now &- lastSweep >= Self.sweepNanoseconds {
                sweep(now: now)
                lastSweep = now
            }
        }
    }

    /// Adds the connections the acceptor handed over.
    private func addPending() {
        let handed = pending.withLock { p -> [Handoff] in
            defer { p = [] }; return p
        }
        for var h in handed {
            adding[h.fd] = h.client
            let added = withUnsafePointer(to: &h.address) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) { MHD_add_connection(daemon, h.fd, $0, h.length) }
            }
            // libmicrohttpd closes a socket it cannot take (without a STARTED notice).
            if adding.removeValue(forKey: h.fd) != nil, added != .YES {
                core.clients.release(h.client)
                open.subtract(1, ordering: .relaxed)
            }
        }
    }

    /// Closes the `count` connections that have waited longest for their
    /// next request, of those that have waited at least `Acceptor.evictAfterNanoseconds`.
    private func evictLongestWaiting(_ count: Int) {
        let now = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<count {
            var victim: ConnectionRecord?
            for c in connections.values
            where !c.isCut && !c.answering && now &- c.since >= Acceptor.evictAfterNanoseconds {
                if c.since < (victim?.since ?? .max) { victim = c }
            }
            guard let victim else { return }
            victim.cut()
        }
    }

    /// Closes each connection past the request deadline, and each whose
    /// client has closed its side without a request being answered (a
    /// half-closed partial request); publishes the longest waiting and
    /// how many have waited long enough to be closed for a new one.
    private func sweep(now: UInt64) {
        var earliest: UInt64 = 0
        var spare = 0
        for c in connections.values where !c.isCut {
            if now &- c.since > core.requestTimeoutNanoseconds {
                c.cut()
                continue
            }
            guard !c.answering else { continue }
            var byte: UInt8 = 0
            if recv(c.fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) == 0 {
                c.cut()
                continue
            }
            if now &- c.since >= Acceptor.evictAfterNanoseconds {
                spare += 1
                if earliest == 0 || c.since < earliest { earliest = c.since }
            }
        }
        oldest.store(earliest, ordering: .relaxed)
        // Closings asked for and not done yet are spoken for already.
        evictable.store(max(0, spare - evictions.load(ordering: .relaxed)), ordering: .relaxed)
    }

    // MARK: - Callbacks (on the loop's thread, inside MHD_run)

    fileprivate func started(
        _ connection: OpaquePointer, _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) {
        let fd = placedb_mhd_connection_fd(connection)
        let client = adding.removeValue(forKey: fd) ?? ClientAddress(sockaddr_storage())
        let record = ConnectionRecord(fd: fd, client: client)
        connections[UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))] = record
        socketContext.pointee = Unmanaged.passUnretained(record).toOpaque()
    }

    fileprivate func closed(_ connection: OpaquePointer) {
        guard
            let record = connections.removeValue(
                forKey: UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection))))
        else { return }
        core.clients.release(record.client)
        open.subtract(1, ordering: .relaxed)
    }

    /// The record of a connection of this loop.
    fileprivate func record(_ connection: OpaquePointer) -> ConnectionRecord? {
        placedb_mhd_socket_context(connection).map { Unmanaged<ConnectionRecord>.fromOpaque($0).takeUnretainedValue() }
    }
}

private func loop(_ cls: UnsafeMutableRawPointer?) -> EventLoop {
    Unmanaged<EventLoop>.fromOpaque(cls!).takeUnretainedValue()
}

private let notifyConnection: MHD_NotifyConnectionCallback = { cls, connection, socketContext, toe in
    guard let connection, let socketContext else { return }
    if toe.rawValue == 0 /* MHD_CONNECTION_NOTIFY_STARTED */ {
        loop(cls).started(connection, socketContext)
    } else {
        loop(cls).closed(connection)
    }
}

/// Called once a request line is read, with the target as sent: the
/// request's state is made here, so the raw target is kept (libmicrohttpd
/// hands the access handler a decoded path, cut at a `%00`).
private let uriLog:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
        cls, uri, connection in
        let target: [UInt8] =
            uri.map {
                Array(
                    UnsafeBufferPointer(
                        start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0)))
            } ?? []
        let state = RequestState(target: target)
        guard let connection, let record = loop(cls).record(connection) else { return nil }
        record.request = state
        return Unmanaged.passUnretained(state).toOpaque()
    }

private let accessHandler: MHD_AccessHandlerCallback = {
    cls, connection, url, method, _, uploadData, uploadSize, requestContext in
    guard let connection, let uploadSize, let requestContext else { return .NO }
    let loop = loop(cls)
    let core = loop.core
    let state: RequestState
    if let raw = requestContext.pointee {
        state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
    } else {
        // No request line seen (not expected): a state of its own, owned by the connection.
        state = RequestState(target: url.map { Array(String(cString: $0).utf8) } ?? [])
        loop.record(connection)?.request = state
        requestContext.pointee = Unmanaged.passUnretained(state).toOpaque()
    }
    if state.method == nil {
        state.method = method.map { String(cString: $0) } ?? "GET"
        state.path = url.map { String(cString: $0) } ?? "/"
        core.inFlight.add(1, ordering: .relaxed)
        // A body's announced length (not looked up for GET and HEAD, which have none).
        if state.method != "GET", state.method != "HEAD",
            let length = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length").map({
                String(cString: $0)
            }),
            let n = Int(length), n > core.maxBody
        {
            return respond(loop, connection, state, APIError.payloadTooLarge(limit: core.maxBody).response)
        }
        // Answered on the next call, once the request (and its body) is
        // whole: libmicrohttpd closes a connection answered earlier, where
        // it keeps it alive otherwise.
        return .YES
    }
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
            uploadData.withMemoryRebound(to: UInt8.self, capacity: n) {
                state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: n))
            }
        }
        uploadSize.pointee = 0
        return .YES
    }
    if state.tooLarge {
        return respond(loop, connection, state, APIError.payloadTooLarge(limit: core.maxBody).response)
    }
    return answer(loop, connection, state)
}

/// Reads the query and headers, asks the router, queues the answer. A NUL
/// anywhere in the target, a header or a query argument is refused (400):
/// C strings would cut the value there, so `/v1/places/a%00b` would be
/// answered as `a`.
private func answer(_ loop: EventLoop, _ connection: OpaquePointer, _ state: RequestState) -> MHD_Result {
    final class Pairs { var items: [(name: String, value: String)] = []; var nul: String? }
    let collect: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
        let pairs = Unmanaged<Pairs>.fromOpaque(cls!).takeUnretainedValue()
        guard let key else { return .YES }
        let name = String(decoding: UnsafeRawBufferPointer(start: key, count: keySize), as: UTF8.self)
        let text =
            value.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: valueSize), as: UTF8.self) } ?? ""
        // memchr over the bytes as libmicrohttpd holds them (the strings'
        // UTF8View.contains walked them a byte at a time, a generic call each).
        if memchr(key, 0, keySize) != nil || (value.map { memchr($0, 0, valueSize) != nil } ?? false) {
            pairs.nul = pairs.nul ?? name
        }
        pairs.items.append((name, text))
        return .YES
    }
    let query = Pairs(), headers = Pairs()
    MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, collect, Unmanaged.passUnretained(query).toOpaque())
    MHD_get_connection_values_n(connection, .HEADER_KIND, collect, Unmanaged.passUnretained(headers).toOpaque())
    if HTTPRequest.targetHasNUL(state.target) {
        return respond(
            loop, connection, state,
            APIError.invalidArgument("the request path holds a NUL character (%00); no place ID or route contains one")
                .response)
    }
    if let name = query.nul ?? headers.nul {
        let kind = query.nul != nil ? "query parameter" : "header"
        return respond(
            loop, connection, state,
            APIError.invalidArgument(
                "the \(kind) '\(AccessLog.escape(Array(name.utf8)))' holds a NUL character; no value placedb reads contains one"
            ).response)
    }
    let request = HTTPRequest(
        method: state.method ?? "GET", path: state.path, query: query.items, headers: headers.items, body: state.body)
    state.body = []
    return respond(loop, connection, state, loop.core.handler(request))
}

private func respond(_ loop: EventLoop, _ connection: OpaquePointer, _ state: RequestState, _ response: HTTPResponse)
    -> MHD_Result
{
    let r = response.body.withUnsafeBytes { raw in
        MHD_create_response_from_buffer(
            raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress),
            MHD_ResponseMemoryMode(rawValue: 2)! /* MHD_RESPMEM_MUST_COPY */)
    }
    guard let r else { return .NO }
    for (name, value) in response.headers { MHD_add_response_header(r, name, value) }
    state.status = response.status
    state.bytes = response.body.count
    loop.record(connection)?.answering = true
    let result = MHD_queue_response(connection, UInt32(response.status), r)
    MHD_destroy_response(r)
    return result
}

private let completedHandler: MHD_RequestCompletedCallback = { cls, connection, requestContext, termination in
    let loop = loop(cls)
    // Kept alive here: the connection's record owns it until just below.
    let state = requestContext?.pointee.map { Unmanaged<RequestState>.fromOpaque($0).takeUnretainedValue() }
    requestContext?.pointee = nil
    if let connection, let record = loop.record(connection) {
        record.since = DispatchTime.now().uptimeNanoseconds
        record.answering = false
        record.request = nil
    }
    guard let state else { return }
    // Requests that never reached the routes (a malformed or oversized
    // request line or headers, answered by libmicrohttpd) are not logged.
    guard let method = state.method else { return }
    let core = loop.core
    core.inFlight.subtract(1, ordering: .releasing)
    if let log = core.log {
        let micros = (DispatchTime.now().uptimeNanoseconds - state.start) / 1000
        let status = state.status.map(String.init) ?? "-"
        let note =
            termination.rawValue == 0 /* MHD_REQUEST_TERMINATED_COMPLETED_OK */
            ? "" : " (\(Termination.name(termination)))"
        log(
            "\(AccessLog.escape(Array(method.utf8))) \(AccessLog.escape(state.target)) \(status) \(state.bytes) \(micros)us\(note)"
        )
    }
}
