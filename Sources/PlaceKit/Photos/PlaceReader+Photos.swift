package import PlaceModel
import PlaceStorage
import Foundation

extension PlaceReader {
    /// The photos of a place, as the Places SDK's `lookUpPhotos(forPlaceID:)`
    /// lists them: at most ten, in the source's order, each with the author
    /// attributions that must be shown with it. An ID that moved gives the
    /// photos of the place it resolves to, as `fetchPlace` does. Throws
    /// `PlaceDBError.notFound` for an unknown place.
    ///
    /// ```swift
    /// let client = try PlaceReader(databasePath: "places.sqlite")
    /// for photo in try client.lookUpPhotos(placeID: "ChIJN1t_tDeuEmsRUsoyG83frY4") {
    ///     let image = try client.fetchPhoto(photo, maxSize: (width: 400, height: 400))
    ///     print(image.width, image.height, photo.authorAttributions.map { $0.displayName ?? "" })
    /// }
    /// ```
    package func lookUpPhotos(placeID: PlaceID) throws -> [PhotoMetadata] {
        Array(try fetchPlace(id: placeID).photos.prefix(PhotoLimits.maxPhotosPerPlace))
    }

    /// The photo's local image scaled down to fit `maxSize` (aspect ratio
    /// kept, never scaled up), as the Places SDK's `fetchPhoto(with:)` does
    /// with a maximum size. Each side of `maxSize` must be in 1...4800
    /// (`PlaceDBError.invalidArgument` otherwise). `format` chooses the
    /// encoding (nil: the stored image's format); an image that already
    /// fits, asked for in its own format, is returned byte for byte.
    ///
    /// Throws `PlaceDBError.photoNotFound` when the photo has no local image
    /// (see `PhotoImporter`) and `.badImage` when the stored image cannot be
    /// decoded, or must be scaled or re-encoded and no image codec is
    /// installed (`ImageScaling`).
    package func fetchPhoto(_ metadata: PhotoMetadata, maxSize: (width: Int, height: Int), format: ImageFormat? = nil)
        throws -> PhotoImage
    {
        try PhotoLimits.checkMaxSize(width: maxSize.width, height: maxSize.height)
        let codec = ImageScaling.codec
        let result = try store.withImage(name: metadata.name) { info, bytes -> Result<PhotoImage, ImageError> in
            Result { () throws(ImageError) in
                try ImagePipeline.render(
                    bytes, maxWidth: maxSize.width, maxHeight: maxSize.height, format: format, codec: codec)
            }
        }
        guard let result else {
            throw try store.photoNames(.name(metadata.name), in: .metadata).isEmpty
                ? PlaceDBError.photoNotFound("no photo '\(metadata.name)' in \(store.path)")
                : PlaceDBError.noLocalImage(photo: metadata.name)
        }
        switch result {
        case .success(let image): return image
        case .failure(let error) where error.message == ImageScaling.unavailableMessage:
            throw PlaceDBError.badImage(error.message)
        case .failure(let error):
            throw PlaceDBError.badImage("photo '\(metadata.name)': stored image: \(error.message)")
        }
    }

    /// The metadata of the photo `name` names: a full name
    /// `places/{id}/photos/{reference}`, a reference, or a unique prefix of a
    /// reference (at least 12 characters). Photos listed by an imported
    /// place come with their size and attributions; a stored image whose
    /// place no longer lists it comes with its name only.
    package func photoMetadata(named name: String) throws -> PhotoMetadata {
        let resolved = try store.resolvePhoto(name, in: [.metadata, .images])
        if let placeID = Self.placeID(ofPhoto: resolved), let place = try store.place(id: PlaceID(placeID)),
            let listed = place.photos.first(where: { $0.name == resolved })
        {
            return listed
        }
        return PhotoMetadata(name: resolved)
    }

    /// The record of a photo's local image (format, size, bytes, when it
    /// was added), or nil when it has none.
    package func localImage(for metadata: PhotoMetadata) throws -> LocalImageInfo? {
        try store.localImage(name: metadata.name)
    }

    /// `{id}` of `places/{id}/photos/{reference}`.
    static func placeID(ofPhoto name: String) -> String? {
        guard name.hasPrefix("places/"), let r = name.range(of: "/photos/") else { return nil }
        return String(name[name.index(name.startIndex, offsetBy: 7)..<r.lowerBound])
    }
}
