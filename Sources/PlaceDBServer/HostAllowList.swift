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
    /// trailing dot; nil when it is not ASCII name characters. Read as
    /// bytes, not characters: the character-wise reading (grapheme breaks,
    /// Unicode digit properties) is work on every request for a header
    /// that is ASCII or refused.
    static func host(ofHeader header: String) -> String? {
        var header = header
        return header.withUTF8 { all -> String? in
            // Only ASCII can pass (what follows checks every byte), so bytes stand for characters.
            guard !all.contains(where: { $0 >= 0x80 }) else { return nil }
            var bytes = all[...]
            if bytes.first == UInt8(ascii: "[") {
                guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return nil }
                let rest = bytes[(close + 1)...]
                guard rest.isEmpty || (rest.first == UInt8(ascii: ":") && rest.dropFirst().allSatisfy(isDigit)) else {
                    return nil
                }
                let inside = bytes[(bytes.startIndex + 1)..<close]
                guard !inside.isEmpty,
                    inside.allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
                else { return nil }
                return lowercased(inside)
            }
            if let colon = bytes.lastIndex(of: UInt8(ascii: ":")) {
                guard bytes[(colon + 1)...].allSatisfy(isDigit) else { return nil }
                bytes = bytes[..<colon]
            }
            if bytes.last == UInt8(ascii: ".") { bytes = bytes.dropLast() }
            guard !bytes.isEmpty, bytes.allSatisfy(isNameByte) else { return nil }
            return lowercased(bytes)
        }
    }

    /// ASCII bytes as a string, A-Z as a-z.
    private static func lowercased(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { out in
            for (i, b) in bytes.enumerated() { out[i] = b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
            return bytes.count
        }
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
        // Not ASCII: never dotted digits, and a colon (as a character) only in a literal.
        guard host.utf8.allSatisfy({ $0 < 0x80 }) else { return host.contains(":") }
        if host.utf8.contains(UInt8(ascii: ":")) { return true } // only a bracketed literal gets here with a colon
        var parts = 0, digits = 0, value = 0
        for b in host.utf8 {
            if b == UInt8(ascii: ".") {
                guard digits > 0, value <= 255 else { return false }
                parts += 1
                digits = 0
                value = 0
            } else {
                guard isDigit(b), digits < 3 else { return false }
                digits += 1
                value = value * 10 + Int(b - UInt8(ascii: "0"))
            }
        }
        return parts == 3 && digits > 0 && value <= 255
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
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x2E
            || b == 0x5F
    }

    private static func isHexDigit(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
}
