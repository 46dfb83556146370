import SQLiteDB
#if canImport(Glibc)
    import Glibc
#endif
import PlaceModel

/// SpatiaLite's binary geometry for a point: 60 bytes, written here so the
/// import does not call a SQL function per row (the format is documented in
/// SpatiaLite's "BLOB-Geometry" page).
enum SpatiaLiteBlob {
    /// The blob's size: header 39 bytes, class, the point, end marker.
    static let pointSize = 60

    /// Calls `body` with the POINT blob of `c`, built on the stack.
    static func withPoint<R>(_ c: Coordinate, srid: Int32 = 4326, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows
        -> R
    {
        try withUnsafeTemporaryAllocation(byteCount: pointSize, alignment: 8) { b in
            write(c, srid: srid, into: b)
            return try body(UnsafeRawBufferPointer(b))
        }
    }

    /// Writes the little-endian POINT blob of `c` into the first 60 bytes of `b`.
    private static func write(_ c: Coordinate, srid: Int32, into b: UnsafeMutableRawBufferPointer) {
        let x = c.longitude.bitPattern.littleEndian, y = c.latitude.bitPattern.littleEndian
        b[0] = 0x00
        b[1] = 0x01 // little endian
        b.storeBytes(of: srid.littleEndian, toByteOffset: 2, as: Int32.self)
        // The MBR (min x, min y, max x, max y) is the point itself.
        b.storeBytes(of: x, toByteOffset: 6, as: UInt64.self)
        b.storeBytes(of: y, toByteOffset: 14, as: UInt64.self)
        b.storeBytes(of: x, toByteOffset: 22, as: UInt64.self)
        b.storeBytes(of: y, toByteOffset: 30, as: UInt64.self)
        b[38] = 0x7C
        b.storeBytes(of: Int32(1).littleEndian, toByteOffset: 39, as: Int32.self)
        b.storeBytes(of: x, toByteOffset: 43, as: UInt64.self)
        b.storeBytes(of: y, toByteOffset: 51, as: UInt64.self)
        b[59] = 0xFE
    }

    /// The point of a SpatiaLite POINT blob (either byte order), or nil when
    /// the bytes are not one.
    package static func coordinate(_ b: UnsafeRawBufferPointer) -> Coordinate? {
        guard b.count == 60, b[0] == 0x00, b[38] == 0x7C, b[59] == 0xFE, b[1] == 0x01 || b[1] == 0x00 else {
            return nil
        }
        let little = b[1] == 0x01
        func u32(_ o: Int) -> UInt32 {
            let v = b.loadUnaligned(fromByteOffset: o, as: UInt32.self)
            return little ? UInt32(littleEndian: v) : UInt32(bigEndian: v)
        }
        func f64(_ o: Int) -> Double {
            let v = b.loadUnaligned(fromByteOffset: o, as: UInt64.self)
            return Double(bitPattern: little ? UInt64(littleEndian: v) : UInt64(bigEndian: v))
        }
        guard u32(39) == 1 else { return nil }
        let c = Coordinate(latitude: f64(51), longitude: f64(43))
        return c.isValid ? c : nil
    }
}
