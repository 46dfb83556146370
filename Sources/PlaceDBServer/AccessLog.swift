import CMicroHTTPD
import Foundation
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// Access-log fields as one safe line: printable ASCII as it is, every
/// other byte (controls, DEL, `"`, `\`, and each byte of a non-ASCII
/// character, bidi controls included) as `\xHH`, as nginx logs a request
/// line. The target is logged as sent, so `%0a` stays `%0a`.
package enum AccessLog {
    package static func escape(_ bytes: [UInt8]) -> String {
        var out = ""
        out.reserveCapacity(bytes.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for b in bytes {
            if b >= 0x21 && b < 0x7F && b != 0x22 && b != 0x5C {
                out.unicodeScalars.append(Unicode.Scalar(b))
            } else {
                out += "\\x"
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(b >> 4)]))
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(b & 0xF)]))
            }
        }
        return out
    }
}
