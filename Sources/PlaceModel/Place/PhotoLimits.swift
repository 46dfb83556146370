import Foundation

/// The limits of the photo service placedb stands in for, and its own.
public enum PhotoLimits {
    /// A place lists at most this many photos (the Places SDK's and API's
    /// limit). Import keeps the first ten, in the source's order.
    public static let maxPhotosPerPlace = 10
    /// `fetchPhoto` returns images at most this many pixels wide and high,
    /// and a requested maximum must be in 1...4800.
    public static let maxPixelSize = 4800
    /// A stored image may have at most this many pixels (64 megapixels,
    /// e.g. 9248 x 6920): larger ones are refused before decoding, so a
    /// hostile header cannot make libgd allocate gigabytes.
    public static let maxSourcePixels = 64_000_000
    /// A stored image file may be at most this large (50 MiB).
    public static let maxFileBytes = 50 * 1024 * 1024
    /// The shortest reference prefix that names a photo (`photo add`,
    /// `photo fetch`): long enough not to match by accident.
    public static let minReferencePrefix = 12

    /// Checks a requested maximum size: each side in 1...4800. Throws
    /// `PlaceDBError.invalidArgument` naming the side and the range.
    public static func checkMaxSize(width: Int, height: Int) throws(PlaceDBError) {
        for (side, value) in [("width", width), ("height", height)] where !(1...maxPixelSize).contains(value) {
            throw PlaceDBError.invalidArgument(
                "maximum \(side) \(value) is out of range: photos are fetched at 1 to \(maxPixelSize) pixels")
        }
    }
}

extension Place {
    /// Keeps at most `PhotoLimits.maxPhotosPerPlace` photos, in order. Every
    /// decoder's output goes through it (`decodeRecord`), so each format
    /// gets the same cap.
    package mutating func capPhotos() {
        guard case .array(let photos)? = document["photos"], photos.count > PhotoLimits.maxPhotosPerPlace else {
            return
        }
        document["photos"] = .array(Array(photos.prefix(PhotoLimits.maxPhotosPerPlace)))
    }
}

extension Place {
    /// Refuses photos the photo commands could not name: every photo is an
    /// object whose `name` is `places/{this place's ID}/photos/{reference}`,
    /// the reference non-empty and without `/` (so never `..` paths, an
    /// empty name, or a photo filed under another place). Every decoder's
    /// output goes through it (`decodeRecord`).
    package func checkPhotoNames() throws(DecodeError) {
        guard case .array(let photos)? = document["photos"] else { return }
        let prefix = "places/\(id.rawValue)/photos/"
        for (i, photo) in photos.enumerated() {
            guard let object = photo.objectValue else {
                throw DecodeError("photos[\(i)] is \(photo.kindDescription), expected an object", placeID: id.rawValue)
            }
            guard let name = object["name"]?.stringValue else {
                let what = object["name"].map { "is \($0.kindDescription)" } ?? "is missing"
                throw DecodeError(
                    "photos[\(i)].name \(what), expected a string \(prefix){reference}", placeID: id.rawValue)
            }
            let reference = name.hasPrefix(prefix) ? name.dropFirst(prefix.count) : nil
            guard let reference, !reference.isEmpty, !reference.contains("/"),
                PhotoName.reference(of: name) == reference
            else {
                throw DecodeError(
                    "photos[\(i)].name '\(name.count > 120 ? name.prefix(117) + "..." : name)' is not a photo of this place: expected \(prefix){reference}, the reference non-empty and without '/'",
                    placeID: id.rawValue)
            }
        }
    }
}
