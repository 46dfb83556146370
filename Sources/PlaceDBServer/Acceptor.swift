import Foundation
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// The thread that accepts connections and hands each to an event loop,
/// in turn (round robin, as SwiftNIO's and Netty's event-loop groups
/// assign channels).
///
/// Two caps, checked before a connection reaches a loop:
/// - a client address holding `maxPerClient` connections has a new one
///   closed at once;
/// - at `maxConnections` open, the connection that has waited longest for
///   its next request (idle keep-alive, or a request that arrives slowly),
///   if it has waited at least `evictAfter`, is closed to make room
///   (nginx reuses idle keep-alive connections the same way); where none
///   has, the new connection is closed at once. So clients that hold
///   connections without finishing requests cannot lock the others out.
final class Acceptor: Sendable {
    private let fd: Int32
    /// running: false once stop began (the thread ends at its next accept);
    /// closed: the listening socket is closed.
    private let state = Mutex<(running: Bool, closed: Bool)>((true, false))
    private let done = DispatchSemaphore(value: 0)

    /// A connection idle or unfinished for this long may be closed for a new one at the cap.
    static let evictAfterNanoseconds: UInt64 = 1_000_000_000

    init(fd: Int32, loops: [EventLoop], clients: ClientCounts, maxConnections: Int, maxPerClient: Int) {
        self.fd = fd
        let thread = Thread { [self] in
            run(loops: loops, clients: clients, maxConnections: maxConnections, maxPerClient: maxPerClient)
            done.signal()
        }
        thread.name = "placedb-accept"
        thread.start()
    }

    /// False once the listening socket is closed.
    var isRunning: Bool { state.withLock { !$0.closed } }

    private func run(loops: [EventLoop], clients: ClientCounts, maxConnections: Int, maxPerClient: Int) {
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
            let from = ClientAddress(address)
            var open = 0
            for loop in loops { open += loop.openConnections }
            // At the cap, room only by closing the connection that has
            // waited longest: on the loop whose longest-waiting connection
            // (at its last sweep) is the earliest, of the loops that have
            // one to spare. The new connection still goes to the next loop
            // in turn, wherever the closed one was, so a burst of new
            // connections at the cap spreads over the loops as it does below it.
            var victim: EventLoop?
            if open >= maxConnections {
                victim = Self.loopToEvict(loops)
                guard victim != nil else { close(client); continue }
            }
            guard clients.reserve(from, max: maxPerClient) else { close(client); continue }
            if let victim {
                guard victim.takeEvictable() else { clients.release(from); close(client); continue }
                victim.evictOne()
            }
            let target = loops[next]
            next = (next + 1) % loops.count
            target.hand(Handoff(fd: client, address: address, length: length, client: from))
        }
    }

    /// The loop with the earliest longest-waiting connection of those
    /// that have a connection to spare (nil: none has).
    static func loopToEvict(_ loops: [EventLoop]) -> EventLoop? {
        var best: (loop: EventLoop, since: UInt64)?
        for loop in loops {
            let since = loop.oldestWaiting
            if since != 0, loop.hasEvictable, since < (best?.since ?? .max) { best = (loop, since) }
        }
        return best?.loop
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

/// A connection on its way from the acceptor to a loop.
struct Handoff: @unchecked Sendable {
    let fd: Int32
    var address: sockaddr_storage
    let length: socklen_t
    let client: ClientAddress
}
