import CMicroHTTPD
import Foundation
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// One connection of a loop (its thread only).
final class ConnectionRecord {
    let fd: Int32
    let client: ClientAddress
    /// When it began waiting for its current request: its accept, or the
    /// previous answer's end (uptime nanoseconds).
    var since = DispatchTime.now().uptimeNanoseconds
    /// An answer is queued and being sent.
    var answering = false
    /// Shut down by placedb (deadline, half-closed, or closed for a new
    /// connection); libmicrohttpd closes it at its next turn.
    private(set) var isCut = false
    /// The request being read or answered on it.
    var request: RequestState?

    init(fd: Int32, client: ClientAddress) {
        self.fd = fd
        self.client = client
    }

    /// Shuts the socket down: libmicrohttpd sees the end and closes it.
    func cut() {
        guard !isCut else { return }
        isCut = true
        shutdown(fd, Int32(SHUT_RDWR))
    }
}
