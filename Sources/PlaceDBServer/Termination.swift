import CMicroHTTPD
import Foundation
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

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
