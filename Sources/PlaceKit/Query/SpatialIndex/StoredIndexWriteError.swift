import Foundation

/// A stored index that could not be written (the caller goes on with the
/// index in memory).
package struct StoredIndexWriteError: Error, CustomStringConvertible {
    package var path: String
    package var errno: Int32

    package var description: String { "cannot write \(path): \(String(cString: strerror(errno)))" }
}
