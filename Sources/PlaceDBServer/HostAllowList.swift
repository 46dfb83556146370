/// The `Host` names `placedb serve` answers (docs/server.md, Security).
///
/// A page in a browser on this machine can make a name of its own resolve
/// to 127.0.0.1 (DNS rebinding) and then read the server's answers as its
/// own origin's; its requests carry that name in `Host`. So a request
/// whose `Host` names something else than the server is refused. Served:
/// IP literals (a page cannot rebind one), `localhost`, the listening
/// host, and the names given with `--allow-host` (`*`: any). A request
/// without `Host` (HTTP/1.0) is served.
package struct HostAllowList: Sendable {
    private let names: Set<String>
    private let any: Bool

    package init(listening: String, allowed: [String]) {
        any = allowed.contains("*")
        var names: Set<String> = ["localhost"]
        for n in [listening] + allowed { names.insert(Self.normalized(n)) }
        self.names = names
    }

    /// Whether a `Host` header's value (host[:port]) is served.
    package func allows(_ header: String) -> Bool {
        if any { return true }
        guard let host = Self.host(ofHeader: header) else { return false }
        return names.contains(host) || Self.isIPLiteral(host)
    }

    /// The host of `host[:port]` or `[v6][:port]`, lowercased, without a
    /// trailing dot; nil when it is not ASCII name characters.
    static func host(ofHeader header: String) -> String? {
        var text = Substring(header)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isASCIIDigit)) else { return nil }
            let inside = text[text.index(after: text.startIndex)..<close]
            guard !inside.isEmpty, inside.utf8.allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }) else { return nil }
            return inside.lowercased()
        }
        if let colon = text.lastIndex(of: ":") {
            guard text[text.index(after: colon)...].allSatisfy(\.isASCIIDigit) else { return nil }
            text = text[..<colon]
        }
        if text.hasSuffix(".") { text = text.dropLast() }
        guard !text.isEmpty, text.utf8.allSatisfy(isNameByte) else { return nil }
        return text.lowercased()
    }

    /// A name as the list keeps it (an IPv6 literal without its brackets).
    static func normalized(_ name: String) -> String {
        var n = Substring(name.lowercased())
        if n.hasPrefix("["), n.hasSuffix("]") { n = n.dropFirst().dropLast() }
        if n.hasSuffix(".") { n = n.dropLast() }
        return String(n)
    }

    /// Dotted-quad IPv4 or an IPv6 literal (as `host(ofHeader:)` returns them).
    static func isIPLiteral(_ host: String) -> Bool {
        if host.contains(":") { return true }  // only a bracketed literal gets here with a colon
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { p in !p.isEmpty && p.count <= 3 && p.allSatisfy(\.isASCIIDigit) && Int(p)! <= 255 }
    }

    /// The listening host as a URL's host: IPv6 in brackets; an unspecified
    /// address (0.0.0.0, ::) as the loopback address of its family.
    static func urlHost(listening host: String) -> String {
        switch host {
        case "0.0.0.0", "": "127.0.0.1"
        case "::", "[::]": "[::1]"
        default: host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        }
    }

    /// A byte of a plain ASCII `host[:port]` or `[v6]:port`: a name byte, `:`, `[` or `]`.
    package static func isHostByte(_ b: UInt8) -> Bool {
        isNameByte(b) || b == UInt8(ascii: ":") || b == UInt8(ascii: "[") || b == UInt8(ascii: "]")
    }

    /// ASCII letters, digits, `-`, `.` and `_`.
    package static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x2E || b == 0x5F
    }

    private static func isHexDigit(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
