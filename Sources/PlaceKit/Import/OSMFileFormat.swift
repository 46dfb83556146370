import PlaceModel

/// The OpenStreetMap file formats `osmium export` reads, by the name its
/// `--input-format` takes.
enum OSMFileFormat: String, Equatable {
    case pbf
    case xml = "osm"
    case xmlGzip = "osm.gz"
    case xmlBzip2 = "osm.bz2"
    case o5m

    /// How a message names it.
    var description: String {
        switch self {
        case .pbf: "OpenStreetMap PBF"
        case .xml: "OpenStreetMap XML"
        case .xmlGzip: "gzip'd OpenStreetMap XML"
        case .xmlBzip2: "bzip2'd OpenStreetMap XML"
        case .o5m: "OpenStreetMap o5m"
        }
    }
}
