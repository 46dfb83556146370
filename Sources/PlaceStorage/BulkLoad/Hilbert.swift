import PlaceModel

/// Positions along a Hilbert curve over longitude/latitude (2^16 cells a
/// side): points close on the curve are close on the map.
enum Hilbert {
    /// The curve's index of the cell holding `c`. Reads the cell's bits from
    /// the top, two at a time, keeping the orientation of the sub-square as
    /// two flags (axes swapped; both axes mirrored: the two commute), so no
    /// branch depends on the data.
    static func key(_ c: Coordinate) -> UInt64 {
        let n = Double(1 << 16)
        let x = UInt32(min(n - 1, max(0, (c.longitude + 180) / 360 * n)))
        let y = UInt32(min(n - 1, max(0, (c.latitude + 90) / 180 * n)))
        var d: UInt64 = 0
        var swapped: UInt32 = 0, mirrored: UInt32 = 0
        for level in stride(from: 15, through: 0, by: -1) {
            var rx = (x >> UInt32(level)) & 1 ^ mirrored
            var ry = (y >> UInt32(level)) & 1 ^ mirrored
            let t = (rx ^ ry) & swapped
            rx ^= t
            ry ^= t
            d = d << 2 | UInt64((3 * rx) ^ ry)
            // The two lower quadrants turn: the left one is swapped, the
            // right one swapped and mirrored.
            let turn = ry ^ 1
            mirrored ^= turn & rx
            swapped ^= turn
        }
        return d
    }
}
