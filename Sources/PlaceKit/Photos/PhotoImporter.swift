#if canImport(Glibc)
    import Glibc
#endif
public import PlaceModel
import PlaceStorage

/// One file of `addImages(inDirectory:)`.
public enum PhotoDirectoryEntry: Sendable {
    case added(AddedPhotoImage)
    /// The file could not be added (unknown photo, corrupt image, ...).
    case failed(file: String, error: PlaceDBError)
    /// Not an image file by its extension (`.txt`, `.json`, ...): left alone.
    case ignored(file: String)
}

/// Adds photo images to a placedb database: the local photo store.
///
/// Images are stored in the database file itself (table `photo_image`), as
/// the bytes that were added, so the database stays one file. Each image is
/// decoded once when it is added, so a corrupt or truncated file is refused
/// then, not when it is fetched. An image belongs to a photo the database
/// knows from an imported place's `photos[]`, named by its full name
/// `places/{id}/photos/{reference}`, its reference, or a unique prefix of the
/// reference of at least 12 characters (a Places API (New) reference is about
/// 430 characters, longer than a file name may be).
public final class PhotoImporter {
    let store: PlaceStore

    /// Opens (migrating) the database at `databasePath` (nil:
    /// `places.sqlite` in the working directory). The database must exist:
    /// images belong to the photos of imported places
    /// (`PlaceDBError.noDatabase` otherwise).
    public init(databasePath: String? = nil) throws {
        let path = try PlaceStore.resolvePath(databasePath)
        var st = stat()
        guard stat(path, &st) == 0 else { throw PlaceDBError.noDatabase(path: path) }
        store = try PlaceStore(path: path, writable: true)
    }

    /// The database file's path.
    public var databasePath: String { store.path }

    /// Adds the image in `file` (`.standardInput` reads standard input) for
    /// the photo `photo`. Throws `PlaceDBError.photoNotFound` for a photo
    /// the database does not know, `.badImage` for a file that is not a
    /// readable JPEG, PNG, WebP or GIF image (or is over the limits, or when
    /// no image codec is installed: `ImageScaling`), and `.input` for a
    /// missing or unreadable file.
    @discardableResult
    public func addImage(forPhoto photo: String, file: InputSource) throws -> AddedPhotoImage {
        let name = try store.resolvePhoto(photo, in: [.metadata])
        let bytes = try Self.readAll(file)
        return try add(name: name, bytes: bytes, source: file.description)
    }

    /// Adds an image given as bytes for the photo `photo`; `source` names it
    /// in messages and in the database.
    @discardableResult
    public func addImage(forPhoto photo: String, data: [UInt8], source: String = "<data>") throws -> AddedPhotoImage {
        let name = try store.resolvePhoto(photo, in: [.metadata])
        return try add(name: name, bytes: data, source: source)
    }

    /// Adds every image file in `directory` (not its subdirectories, not
    /// hidden files), in file-name order. A file's name without its extension
    /// is the photo's reference (or a unique prefix of it); files whose
    /// extension is not `.jpg`, `.jpeg`, `.png`, `.webp` or `.gif` are
    /// ignored. Each file is its own transaction: one bad file does not stop
    /// the others. Throws only when the directory cannot be read.
    public func addImages(inDirectory directory: String, _ each: (PhotoDirectoryEntry) -> Void = { _ in }) throws
        -> [PhotoDirectoryEntry]
    {
        guard let dir = opendir(directory) else {
            let reason = String(cString: strerror(errno)).lowercased()
            throw PlaceDBError.input(
                InputError(
                    kind: errno == ENOENT ? .missing : .unreadable, source: directory,
                    reason: "cannot read the directory: \(reason)"))
        }
        var files: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            files.append(name)
        }
        closedir(dir)
        var results: [PhotoDirectoryEntry] = []
        for file in files.sorted() {
            let path = directory.hasSuffix("/") ? directory + file : directory + "/" + file
            var st = stat()
            guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { continue }
            let result: PhotoDirectoryEntry
            if ImageFormat(path: file) == nil {
                result = .ignored(file: path)
            } else {
                let stem = String(file[..<file.lastIndex(of: ".")!])
                do {
                    result = .added(try addImage(forPhoto: stem, file: .file(path)))
                } catch let error as PlaceDBError {
                    result = .failed(file: path, error: error)
                }
            }
            each(result)
            results.append(result)
        }
        return results
    }

    private func add(name: String, bytes: [UInt8], source: String) throws -> AddedPhotoImage {
        let codec = try ImageScaling.required()
        let inspected = bytes.withUnsafeBytes { buffer in
            Result { () throws(ImageError) in try ImagePipeline.inspect(buffer, codec: codec) }
        }
        let inspection: ImagePipeline.Inspection
        switch inspected {
        case .success(let i): inspection = i
        case .failure(let error): throw PlaceDBError.badImage("\(source): \(error.message)")
        }
        let write = try store.putImage(
            name: name, format: inspection.format, width: inspection.width, height: inspection.height,
            bytes: bytes, source: source)
        let outcome: AddedPhotoImage.Outcome =
            switch write {
            case .added: .added
            case .replaced: .replaced
            case .unchanged: .unchanged
            }
        return AddedPhotoImage(
            name: name, format: inspection.format, width: inspection.width, height: inspection.height,
            byteCount: bytes.count, source: source, outcome: outcome)
    }

    /// Reads a whole file (or standard input), refusing more than
    /// `PhotoLimits.maxFileBytes`.
    static func readAll(_ input: InputSource) throws -> [UInt8] {
        let fd: Int32
        switch input {
        case .standardInput:
            fd = dup(0)
        case .file(let path):
            var st = stat()
            guard stat(path, &st) == 0 else {
                let missing = errno == ENOENT || errno == ENOTDIR
                throw PlaceDBError.input(
                    InputError(
                        kind: missing ? .missing : .unreadable, source: path,
                        reason: "cannot open: \(String(cString: strerror(errno)).lowercased())"))
            }
            if (st.st_mode & S_IFMT) == S_IFDIR {
                throw PlaceDBError.input(
                    InputError(
                        kind: .unreadable, source: path, reason: "is a directory, not an image file", found: .directory)
                )
            }
            fd = open(path, O_RDONLY)
        }
        guard fd >= 0 else {
            throw PlaceDBError.input(
                InputError(
                    kind: .unreadable, source: input.description,
                    reason: "cannot open: \(String(cString: strerror(errno)).lowercased())"))
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw PlaceDBError.input(
                    InputError(
                        kind: .unreadable, source: input.description,
                        reason: "cannot read: \(String(cString: strerror(errno)).lowercased())"))
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > PhotoLimits.maxFileBytes {
                throw PlaceDBError.badImage(
                    "\(input.description): the file is larger than the \(PhotoLimits.maxFileBytes / 1024 / 1024) MiB placedb stores per image"
                )
            }
        }
        return bytes
    }
}
