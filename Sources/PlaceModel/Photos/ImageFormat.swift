/// An image format placedb reads and writes (through libgd).
public enum ImageFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    case jpeg
    case png
    case webp
    case gif

    /// `JPEG`, `PNG`, `WebP`, `GIF`.
    public var description: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .webp: "WebP"
        case .gif: "GIF"
        }
    }

    /// The usual file extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .webp: "webp"
        case .gif: "gif"
        }
    }

    /// The media type (`image/jpeg`, ...).
    public var mediaType: String { "image/\(rawValue)" }

    /// True when the format keeps transparency.
    package var hasAlpha: Bool { self != .jpeg }

    /// The format a file extension names (`jpg`, `jpeg`, `jpe`, `jfif`,
    /// `png`, `webp`, `gif`; any case), or nil.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "jpg", "jpeg", "jpe", "jfif": self = .jpeg
        case "png": self = .png
        case "webp": self = .webp
        case "gif": self = .gif
        default: return nil
        }
    }

    /// The format of a file path's extension, or nil when it has none placedb knows.
    public init?(path: String) {
        let base = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return nil }
        self.init(fileExtension: String(base[base.index(after: dot)...]))
    }

    /// The format the bytes start with (their signature), or nil.
    public init?(sniffing bytes: UnsafeRawBufferPointer) {
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            guard bytes.count >= offset + signature.count else { return false }
            for (i, b) in signature.enumerated() where bytes[offset + i] != b { return false }
            return true
        }
        if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
            self = .gif
        } else if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) {
            self = .webp
        } else {
            return nil
        }
    }
}

/// Why an image cannot be read or written. Callers add the file or photo
/// name and turn it into `PlaceDBError.badImage`.
public struct ImageError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
