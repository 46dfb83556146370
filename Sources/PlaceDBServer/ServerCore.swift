import CMicroHTTPD
import Foundation
import PlaceKit
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// What the C callbacks reach through their closure pointer.
package final class ServerCore: Sendable {
    /// The answer to a request (the router's).
    let handler: @Sendable (HTTPRequest) -> HTTPResponse
    let maxBody: Int
    let log: (@Sendable (String) -> Void)?
    let inFlight = Atomic<Int>(0)
    /// Connections per client address, on all loops.
    let clients = ClientCounts()
    let requestTimeoutNanoseconds: UInt64

    init(
        handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse, configuration: ServerConfiguration,
        log: (@Sendable (String) -> Void)?
    ) {
        self.handler = handler
        self.maxBody = configuration.maxBodyBytes
        self.log = log
        requestTimeoutNanoseconds = UInt64(configuration.requestTimeout) * 1_000_000_000
    }

    /// One write(2) per line, so lines from several threads never mix.
    package static let standardError: @Sendable (String) -> Void = { line in
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
