import CMicroHTTPD
import Foundation
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// One request on its way through the callbacks (one thread at a time).
final class RequestState {
    let start = DispatchTime.now().uptimeNanoseconds
    /// The request target as sent (percent-encoded, with the query).
    let target: [UInt8]
    /// Set by the first call of the access handler (the headers are read).
    var method: String?
    var path = "/"
    var body: [UInt8] = []
    var tooLarge = false
    var status: Int?
    var bytes = 0

    init(target: [UInt8]) {
        self.target = target
    }
}
