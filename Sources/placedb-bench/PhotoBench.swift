// placedb-bench photo [--width W] [--height H] [--runs R] [--dir DIR]
//
// Generates a seeded photo-like JPEG (default 4032 x 3024, a phone camera's
// size), stores it for a place's photo, then times PlaceReader.fetchPhoto
// at several maximum sizes (one warm-up, R timed runs; minimum and median).
// Next to each, the baseline: the same decode, resample and encode with
// libgd called directly on the bytes in memory, so what placedb adds
// (reading the blob from SQLite, the header checks) is visible.
import CGD
import Foundation
import PlaceKit
import SQLiteDB
import PlaceModel

enum PhotoBench {
    static func run(_ args: [String]) throws {
        let width = Int(option("--width", args) ?? "") ?? 4032
        let height = Int(option("--height", args) ?? "") ?? 3024
        let runs = max(1, Int(option("--runs", args) ?? "") ?? 5)
        let dir = option("--dir", args) ?? "bench-out"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let db = "\(dir)/photo-bench.sqlite"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }

        let jpeg = makeJPEG(width: width, height: height, seed: 20261130)
        let place =
            #"{"id":"bench-photo-place","location":{"latitude":46.5,"longitude":6.6},"photos":[{"name":"places/bench-photo-place/photos/benchPhotoReference-0001","widthPx":\#(width),"heightPx":\#(height)}]}"#
        let input = "\(dir)/photo-bench-place.json"
        try Data(place.utf8).write(to: URL(fileURLWithPath: input))
        _ = try PlaceImporter(databasePath: db).importInput(.file(input))

        print(
            "placedb-bench photo: one \(width) x \(height) JPEG (\(fmt(Double(jpeg.count) / 1e6, 2)) MB, seeded), \(runs) timed runs after a warm-up"
        )
        print(
            "machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, \(fmt(Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824, 0)) GiB"
        )

        var addTimes: [Double] = []
        for run in 0...runs {
            // Each timed add is a real one: the previous image is deleted first.
            try Database(path: db, mode: .readWrite).execute("DELETE FROM photo_image")
            let importer = try PhotoImporter(databasePath: db)
            let start = Date()
            try importer.addImage(forPhoto: "benchPhotoReference-0001", data: jpeg, source: "generated")
            if run > 0 { addTimes.append(Date().timeIntervalSince(start)) }
        }

        let client = try PlaceReader(databasePath: db)
        let photo = try client.photoMetadata(named: "benchPhotoReference-0001")
        print("")
        print("| operation | runs | ms (min / median) | output | output bytes | libgd alone, ms (min / median) |")
        print("|---|---|---|---|---|---|")
        print(
            "| photo add (decode check + store) | \(runs) | \(ms(addTimes)) | \(width) x \(height) JPEG | \(jpeg.count) | |"
        )
        let cases: [(Int, Int, ImageFormat?)] = [
            (4800, 4800, nil), (1600, 1600, nil), (800, 800, nil), (400, 400, nil), (100, 100, nil), (400, 400, .png),
            (400, 400, .webp),
        ]
        for (mw, mh, format) in cases {
            var times: [Double] = []
            var last: PhotoImage?
            for run in 0...runs {
                let start = Date()
                last = try client.fetchPhoto(photo, maxSize: (width: mw, height: mh), format: format)
                if run > 0 { times.append(Date().timeIntervalSince(start)) }
            }
            let image = last!
            var baseline: [Double] = []
            if image.data != jpeg {
                for run in 0...runs {
                    let start = Date()
                    try gdAlone(jpeg, width: image.width, height: image.height, format: image.format)
                    if run > 0 { baseline.append(Date().timeIntervalSince(start)) }
                }
            }
            let label = "fetch max \(mw) x \(mh)" + (format.map { " as \($0)" } ?? "")
            print(
                "| \(label) | \(runs) | \(ms(times)) | \(image.width) x \(image.height) \(image.format) | \(image.data.count) | \(baseline.isEmpty ? "(returned as stored)" : ms(baseline)) |"
            )
        }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
        try? FileManager.default.removeItem(atPath: input)
    }

    static func ms(_ times: [Double]) -> String { "\(fmt(times.min()! * 1000, 2)) / \(fmt(median(times) * 1000, 2))" }

    /// Decode, resample, encode with libgd directly: the floor for fetchPhoto.
    static func gdAlone(_ jpeg: [UInt8], width: Int, height: Int, format: ImageFormat) throws {
        var copy = jpeg
        guard let src = copy.withUnsafeMutableBytes({ gdImageCreateFromJpegPtr(Int32($0.count), $0.baseAddress) })
        else {
            throw BenchError(message: "libgd cannot decode the generated JPEG")
        }
        defer { gdImageDestroy(src) }
        guard let dst = gdImageCreateTrueColor(Int32(width), Int32(height)) else {
            throw BenchError(message: "gdImageCreateTrueColor failed")
        }
        defer { gdImageDestroy(dst) }
        gdImageCopyResampled(dst, src, 0, 0, 0, 0, Int32(width), Int32(height), cgd_width(src), cgd_height(src))
        var size: Int32 = 0
        let out: UnsafeMutableRawPointer? =
            switch format {
            case .jpeg: gdImageJpegPtr(dst, &size, 85)
            case .png: gdImagePngPtrEx(dst, &size, -1)
            case .webp: gdImageWebpPtrEx(dst, &size, 85)
            case .gif: gdImageGifPtr(dst, &size)
            }
        guard let out else { throw BenchError(message: "libgd could not encode") }
        gdFree(out)
    }

    /// A seeded photo-like JPEG: smooth gradients with grain, so it
    /// compresses like a photo (a few bits per pixel), not like flat colour.
    static func makeJPEG(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        guard let im = gdImageCreateTrueColor(Int32(width), Int32(height)) else {
            fatalError("gdImageCreateTrueColor failed")
        }
        defer { gdImageDestroy(im) }
        var rng = SplitMix64(state: seed)
        for y in 0..<height {
            guard let row = im.pointee.tpixels[y] else { continue }
            for x in 0..<width {
                let grain = Int(rng.next() & 31) - 16
                let r = max(0, min(255, x * 255 / width + grain))
                let g = max(0, min(255, y * 255 / height + grain))
                let b = max(0, min(255, 128 + (x ^ y) % 64 + grain))
                row[x] = cgd_truecolor(Int32(r), Int32(g), Int32(b), 0)
            }
        }
        var size: Int32 = 0
        guard let buffer = gdImageJpegPtr(im, &size, 90) else { fatalError("libgd could not encode") }
        defer { gdFree(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: Int(size)))
    }
}
