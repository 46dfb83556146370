import PlaceKit
import PlaceModel

/// `placedb photos ID`: a place's photos with their attributions.
enum PhotosCommand: Command {
    /// The options, read by these constants (a typo does not compile).
    enum Options {
        static let all: [OptionSpec] = []
    }

    static let spec = CommandSpec(
        name: "photos",
        abstract: "List a place's photos (at most 10) with the attributions to show with them, and their local images.",
        arguments: [ArgumentSpec(name: "ID", help: "A place ID, or its resource name places/ID.")],
        options: Options.all,
        discussion: """
            Photos come from the photos[] of the imported place, in the source's order. Whoever
            shows a photo must show its author attributions (name and link) with it. A photo's
            local image is added with 'placedb photo add' and read with 'placedb photo fetch'.
            An unknown ID exits 1 (NOT_FOUND).
            """,
        examples: [
            "placedb photos ChIJN1t_tDeuEmsRUsoyG83frY4",
            "placedb photos places/demo-lsn-001 --output json",
        ],
        seeAlso: ["photo add", "photo fetch", "place"],
        docs: ["photos.md"])

    static func run(_ context: CommandContext) throws -> ExitCode {
        let positionals = context.arguments.positionals
        guard positionals.count == 1 else {
            throw UsageError(
                message: positionals.isEmpty ? "missing place ID" : "expected one place ID, got \(positionals.count)")
        }
        let client = try PlaceReader(databasePath: context.databasePath)
        let id = PlaceID(parsing: positionals[0])
        let place = try client.fetchPlace(id: id)
        let photos = try client.lookUpPhotos(placeID: id)
        // The stored photo objects keep the fields PhotoMetadata leaves out
        // (flagContentUri, googleMapsUri): JSON shows them as stored.
        let stored = (place.document["photos"]?.arrayValue ?? []).filter { $0["name"]?.stringValue != nil }
        var images: [LocalImageInfo?] = []
        for photo in photos { images.append(try client.localImage(for: photo)) }

        switch context.output {
        case .json:
            var list: [JSONValue] = []
            for (i, photo) in photos.enumerated() {
                var o = i < stored.count ? stored[i].objectValue ?? JSONObject() : JSONObject()
                if o.isEmpty { o["name"] = .string(photo.name) }
                if let image = images[i] { o["localImage"] = localImageJSON(image) }
                list.append(.object(o))
            }
            context.writeJSON(
                .object(
                    JSONObject([
                        ("name", .string(place.id.resourceName)),
                        ("id", .string(place.id.rawValue)),
                        ("photos", .array(list)),
                    ])))
        case .text:
            context.console.out(text(place: place, photos: photos, images: images))
        }
        return .success
    }

    static func localImageJSON(_ image: LocalImageInfo) -> JSONValue {
        var o = JSONObject()
        o["format"] = .string(image.format.rawValue)
        o["widthPx"] = .int(Int64(image.width))
        o["heightPx"] = .int(Int64(image.height))
        o["bytes"] = .int(Int64(image.byteCount))
        if let source = image.source { o["source"] = .string(source) }
        o["addedAt"] = .string(image.addedAt)
        return .object(o)
    }

    static func text(place: Place, photos: [PhotoMetadata], images: [LocalImageInfo?]) -> String {
        let title = place.displayName?.text ?? place.id.rawValue
        let local = images.compactMap { $0 }.count
        var lines = [
            "\(title): \(photos.count) photo\(photos.count == 1 ? "" : "s")"
                + (photos.isEmpty ? "" : ", \(local) with a local image")
        ]
        for (i, photo) in photos.enumerated() {
            lines.append("  \(i + 1). \(photo.name)")
            var size = "size unknown"
            if let w = photo.widthPx, let h = photo.heightPx { size = "\(w) x \(h) px" }
            if let image = images[i] {
                size +=
                    "; local image \(image.width) x \(image.height) \(image.format), \(ImportCommand.formatBytes(Int64(image.byteCount)))"
            } else {
                size += "; no local image"
            }
            lines.append("     " + size)
            if photo.authorAttributions.isEmpty {
                lines.append("     by: (no attribution given)")
            }
            for a in photo.authorAttributions {
                var by = "     by: \(a.displayName ?? "(no name)")"
                if let uri = a.uri { by += " <\(uri)>" }
                lines.append(by)
            }
        }
        return HumanText.lines(lines)
    }
}
