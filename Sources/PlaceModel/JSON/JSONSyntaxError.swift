#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a JSON text could not be parsed, and at which byte of it.
package struct JSONSyntaxError: Error, Sendable, Equatable {
    public let message: String
    /// Byte offset from the start of the parsed text.
    public let offset: Int

    package init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }
}
