import Foundation
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// A client's IP address (the port left out), IPv4 as its IPv4-mapped IPv6 form.
struct ClientAddress: Hashable, Sendable {
    let high: UInt64
    let low: UInt64

    init(_ storage: sockaddr_storage) {
        var s = storage
        let family = Int32(s.ss_family)
        (high, low) = withUnsafeBytes(of: &s) { raw -> (UInt64, UInt64) in
            var bytes = [UInt8](repeating: 0, count: 16)
            if family == AF_INET6 {
                let a = raw.load(fromByteOffset: MemoryLayout<sockaddr_in6>.offset(of: \.sin6_addr)!, as: in6_addr.self)
                withUnsafeBytes(of: a) { for i in 0..<16 { bytes[i] = $0[i] } }
            } else if family == AF_INET {
                // ::ffff:a.b.c.d, the IPv4-mapped form.
                let a = raw.load(fromByteOffset: MemoryLayout<sockaddr_in>.offset(of: \.sin_addr)!, as: in_addr.self)
                bytes[10] = 0xFF
                bytes[11] = 0xFF
                withUnsafeBytes(of: a) { for i in 0..<4 { bytes[12 + i] = $0[i] } }
            } else {
                return (0, 0)
            }
            return bytes.withUnsafeBytes {
                ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            }
        }
    }
}
