import Foundation
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// Connections open (or on their way to a loop) per client address.
final class ClientCounts: Sendable {
    private let counts = Mutex<[ClientAddress: Int]>([:])

    /// Counts one more connection of `client` unless it holds `max` already.
    func reserve(_ client: ClientAddress, max: Int) -> Bool {
        counts.withLock { c in
            let n = c[client, default: 0]
            guard n < max else { return false }
            c[client] = n + 1
            return true
        }
    }

    /// One connection of `client` closed.
    func release(_ client: ClientAddress) {
        counts.withLock { c in
            guard let n = c[client] else { return }
            c[client] = n > 1 ? n - 1 : nil
        }
    }
}
