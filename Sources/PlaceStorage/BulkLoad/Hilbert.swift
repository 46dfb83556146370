import PlaceModel

/// Positions along a Hilbert curve over longitude/latitude (2^16 cells a
/// side): points close on the curve are close on the map.
enum Hilbert {
    /// The curve's index of the cell holding `c`, four levels at a time:
    /// the table gives, for the sub-square's orientation and four bits of
    /// each axis, the next eight bits of the index and the orientation after
    /// them (4 steps of a table lookup instead of 16 of bit arithmetic; the
    /// same index as `levels`, which builds the table).
    static func key(_ c: Coordinate) -> UInt64 {
        let (x, y) = cell(c)
        // The table as a local: read once a call, not once a step.
        let table = Self.table
        var d: UInt64 = 0
        var state = 0
        for shift in stride(from: UInt32(12), through: 0, by: -4) {
            let entry = table[state << 8 | Int((x >> shift) & 15) << 4 | Int((y >> shift) & 15)]
            d = d << 8 | UInt64(entry & 0xFF)
            state = Int(entry >> 8)
        }
        return d
    }

    /// The cell of `c` on each axis.
    static func cell(_ c: Coordinate) -> (x: UInt32, y: UInt32) {
        let n = Double(1 << 16)
        return (
            UInt32(min(n - 1, max(0, (c.longitude + 180) / 360 * n))),
            UInt32(min(n - 1, max(0, (c.latitude + 90) / 180 * n)))
        )
    }

    /// `levels` levels of the curve for the low bits of `x` and `y`, read
    /// from the top two at a time, starting in orientation `state` (bit 0:
    /// axes swapped, bit 1: both axes mirrored; the two commute): the index
    /// bits and the orientation after them.
    static func levels(_ x: UInt32, _ y: UInt32, count levels: Int, state: Int) -> (bits: UInt64, state: Int) {
        var d: UInt64 = 0
        var swapped = UInt32(state & 1), mirrored = UInt32(state >> 1 & 1)
        for level in stride(from: levels - 1, through: 0, by: -1) {
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
        return (d, Int(swapped | mirrored << 1))
    }

    /// For each orientation and four bits of x and y: eight index bits, and
    /// the orientation after them in bits 8-9.
    static let table: [UInt16] = (0..<1024).map { i in
        let r = levels(UInt32(i >> 4 & 15), UInt32(i & 15), count: 4, state: i >> 8)
        return UInt16(r.bits) | UInt16(r.state) << 8
    }
}
