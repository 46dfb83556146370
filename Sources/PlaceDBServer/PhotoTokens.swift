import Foundation
import Synchronization

/// Links to a photo's image that work without the API key, for an hour:
/// what photo media hands a client that sent its key in the
/// `X-Goog-Api-Key` header, since the redirect's request does not carry
/// the header (Google's own `photoUri` works without a key the same way).
/// A token is 128 random bits, good for the one photo it was issued for;
/// at most `capacity` are kept (the oldest go first).
final class PhotoTokens: Sendable {
    private struct Issued {
        let name: String
        let expires: UInt64
    }
    private let tokens = Mutex<(byToken: [String: Issued], order: [String])>(([:], []))
    static let lifetimeNanoseconds: UInt64 = 3600 * 1_000_000_000
    static let capacity = 10_000

    /// A new token for the photo `name` (`places/ID/photos/REF`).
    func issue(for name: String) -> String {
        var random = SystemRandomNumberGenerator()
        let token = (0..<2).map { _ in String(random.next() as UInt64, radix: 16).leftPadded(to: 16) }.joined()
        let expires = DispatchTime.now().uptimeNanoseconds + Self.lifetimeNanoseconds
        tokens.withLock { t in
            if t.order.count >= Self.capacity {
                let dropped = t.order.prefix(t.order.count - Self.capacity + 1)
                for old in dropped { t.byToken[old] = nil }
                t.order.removeFirst(dropped.count)
            }
            t.byToken[token] = Issued(name: name, expires: expires)
            t.order.append(token)
        }
        return token
    }

    /// Whether `token` was issued for the photo `name` and has not expired.
    func valid(_ token: String, for name: String) -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        return tokens.withLock { t in
            guard let issued = t.byToken[token] else { return false }
            return issued.name == name && now < issued.expires
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
