import Foundation
import PlaceKit

/// How `placedb serve` runs (docs/server.md).
package struct ServerConfiguration: Sendable {
    /// The address to listen on (127.0.0.1 by default: only this machine).
    package var host = "127.0.0.1"
    /// The port (0: any free port, see `HTTPServer.port`).
    package var port: UInt16 = 8080
    /// Worker threads, each with its own event loop and read-only
    /// connection (default: the number of cores).
    package var threads = ProcessInfo.processInfo.activeProcessorCount
    /// The mask used when a request gives none (the API answers 400 then).
    package var defaultFieldMask: String?
    /// The key every request must carry (X-Goog-Api-Key or ?key=), if any.
    package var apiKey: String?
    /// No access log.
    package var quiet = false
    /// A connection idle this long (seconds) is closed: a slow client
    /// cannot hold a worker.
    package var connectionTimeout: UInt32 = 10
    /// Open connections at most. At the cap, the connection that has
    /// waited longest (at least a second) for its next request is closed
    /// for the new one; if none has, the new one is refused.
    package var maxConnections: UInt32 = 1000
    /// Open connections from one client address at most (nil: half of
    /// `maxConnections`, at least 1); more are refused.
    package var maxConnectionsPerClient: UInt32?
    /// Each request must arrive whole and be answered within this many
    /// seconds of its connection's accept or previous answer, however
    /// steadily its bytes come (the connection timeout is reset by every
    /// byte; this one is not).
    package var requestTimeout: UInt32 = 30
    /// Host names (the `Host` header's host, without the port) served
    /// besides the listening address and `localhost`; `*` serves any. A
    /// browser page on another name resolving to this machine (DNS
    /// rebinding) is answered 403.
    package var allowedHosts: [String] = []
    /// A request body over this is answered 413.
    var maxBodyBytes = 1 << 20
    /// The memory for one connection's request line and headers (larger
    /// headers are answered 431 by libmicrohttpd). libmicrohttpd zeroes
    /// it after each request: 16 KiB rather than 32 halves that, and
    /// leaves room for headers far larger than clients send (Apache and
    /// nginx refuse a header line over 8 KiB by default).
    var maxHeaderBytes = 16 * 1024
    /// On SIGTERM or SIGINT, requests in flight get this long (seconds) to finish.
    package var shutdownTimeout: Double = 10
    /// placedb's version (GET /placedb/v1/version).
    package var version = "0"

    package init() {}

    /// `maxConnectionsPerClient`, or its default.
    var effectiveMaxConnectionsPerClient: UInt32 {
        maxConnectionsPerClient ?? max(1, (maxConnections + 1) / 2)
    }
}
