/// Why a stored spatial index beside a database was not used (it is then
/// built again from the database, and written again where it can be).
package enum StoredIndexProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// There is no index file.
    case missing
    /// The file was written by another placedb (format or layout).
    case otherFormat(String)
    /// The places changed since the file was written, or it was built for
    /// another view or likelihood model.
    case stale(String)
    /// The file is damaged: a checksum or a size does not match.
    case corrupt(String)

    /// One word for it (`placedb spatial-index status`, `placedb info`).
    package var state: String {
        switch self {
        case .missing: "missing"
        case .otherFormat: "other-format"
        case .stale: "stale"
        case .corrupt: "corrupt"
        }
    }

    package var description: String {
        switch self {
        case .missing: "no stored index"
        case .otherFormat(let why): "written by another placedb: \(why)"
        case .stale(let why): "stale: \(why)"
        case .corrupt(let why): "corrupt: \(why)"
        }
    }
}
