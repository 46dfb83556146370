import Foundation
import PlaceModel

/// The client's read-only connections: each lent to one call at a time.
///
/// `@unchecked Sendable`: the lock guards `idle`, `open` and `waiters`; a
/// connection (a non-`Sendable` `PlaceReader`) is reachable from one call
/// only between `acquire` and `release`, and from nowhere else.
final class ReaderPool: @unchecked Sendable {
    /// A connection on loan. `@unchecked Sendable` for the same reason.
    struct Reader: @unchecked Sendable {
        let client: PlaceReader
    }

    private let lock = NSLock()
    private var idle: [Reader]
    private var open: Int
    private var waiters: [Waiter] = []
    private let limit: Int
    private let opener: @Sendable () throws -> PlaceReader

    init(first: PlaceReader, limit: Int, open: @escaping @Sendable () throws -> PlaceReader) {
        idle = [Reader(client: first)]
        self.open = 1
        self.limit = limit
        opener = open
    }

    /// A call waiting for a connection: a task (resumed) or a thread
    /// (woken; `acquireWaiting`).
    private enum Waiter {
        case task(CheckedContinuation<Reader, Never>)
        case thread(Handoff)
    }

    /// A connection handed to a waiting thread. `@unchecked Sendable`:
    /// `reader` is written before `ready` is signalled and read after the
    /// wait returns.
    private final class Handoff: @unchecked Sendable {
        let ready = DispatchSemaphore(value: 0)
        var reader: Reader?
    }

    private enum Next { case reader(Reader), openNew, wait }

    /// An idle connection, else leave to open one while fewer than `limit` are open.
    private func takeOrReserve() -> Next {
        lock.withLock {
            if let r = idle.popLast() { return .reader(r) }
            if open < limit { open += 1; return .openNew }
            return .wait
        }
    }

    private func openReserved() throws -> Reader {
        do {
            return Reader(client: try opener())
        } catch {
            lock.withLock { open -= 1 }
            throw error
        }
    }

    /// A free connection: an idle one, a new one while fewer than `limit`
    /// are open, else the next one released.
    func acquire() async throws -> Reader {
        switch takeOrReserve() {
        case .reader(let r): return r
        case .openNew: return try openReserved()
        case .wait:
            return await withCheckedContinuation { continuation in
                let ready: Reader? = lock.withLock {
                    if let r = idle.popLast() { return r }
                    waiters.append(.task(continuation))
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }

    /// `acquire` for a thread that may block: it sleeps until a
    /// connection is released to it (waiters of both kinds in turn).
    func acquireWaiting() throws -> Reader {
        switch takeOrReserve() {
        case .reader(let r): return r
        case .openNew: return try openReserved()
        case .wait:
            let handoff = Handoff()
            let ready: Reader? = lock.withLock {
                if let r = idle.popLast() { return r }
                waiters.append(.thread(handoff))
                return nil
            }
            if let ready { return ready }
            handoff.ready.wait()
            return handoff.reader!
        }
    }

    /// Gives a connection back: to the longest waiting call, else to the idle list.
    func release(_ reader: Reader) {
        let waiter: Waiter? = lock.withLock {
            if waiters.isEmpty {
                idle.append(reader)
                return nil
            }
            return waiters.removeFirst()
        }
        switch waiter {
        case .task(let continuation): continuation.resume(returning: reader)
        case .thread(let handoff):
            handoff.reader = reader
            handoff.ready.signal()
        case nil: break
        }
    }
}
