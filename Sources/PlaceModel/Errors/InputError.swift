/// Why an input could not be opened or read.
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `missing`: no such file. `unreadable`: it cannot be opened or read
    /// (permissions, a directory, an I/O error). `corrupt`: it reads, but
    /// its gzip stream is corrupt or truncated: bad input data, like a
    /// corrupt image.
    public enum Kind: Sendable { case missing, unreadable, corrupt }
    /// What the input turned out to be when placedb reads such a thing
    /// another way: the description says how, in the library's terms, and
    /// the command line in its own.
    package enum Found: Sendable {
        /// An image: it goes in as a photo's image, not as places.
        case image
        /// An SQLite database: placedb's own are read, not imported.
        case sqliteDatabase
        /// A directory where one image file was expected.
        case directory
    }
    public let kind: Kind
    public let source: String
    public let reason: String
    package let found: Found?

    public var description: String {
        let advice =
            switch found {
            case .image: "; a photo's image is added with PhotoImporter"
            case .sqliteDatabase:
                "; a placedb database is read with PlacesClient, and PlaceExporter writes its places as NDJSON"
            case .directory: " (PhotoImporter.addImages(inDirectory:) adds a directory's images)"
            case nil: ""
            }
        return "\(source): \(reason)\(advice)"
    }

    package init(kind: InputError.Kind, source: String, reason: String, found: Found? = nil) {
        self.kind = kind
        self.source = source
        self.reason = reason
        self.found = found
    }
}
