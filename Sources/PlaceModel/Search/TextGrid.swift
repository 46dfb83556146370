import Foundation

/// The grid the index files each place under, so that a search near a
/// point reads only the places around it first: cells of 0.01 degree
/// (`f` words, about 1.1 km north-south) and 0.1 degree (`k` words, about
/// 11 km). Each cell word starts with `mark`, a private-use character
/// that no name holds and nobody types (schema version 18), so that the
/// words are not in the index's one-letter prefix lists `f` and `k`: with
/// them, every place was in both, and autocomplete's "Burger K" read a
/// list of every place (docs/search.md). The writer stores the fine cell
/// in `place.text_cell` (`key`); migration 9 computes the same numbers in
/// SQL:
/// `CAST((latitude + 90) * 100 AS INTEGER)`.
package enum TextGrid {
    public enum Level: Sendable, CaseIterable {
        case fine, coarse
        var perDegree: Double { self == .fine ? 100 : 10 }
        var letter: String { self == .fine ? "f" : "k" }
        /// The least distance from a point to the edge of its 3x3 block
        /// of cells, in meters, at this latitude.
        public func reach(atLatitude lat: Double) -> Double {
            let degree = Earth.meanRadius * Double.pi / 180
            return min(degree, degree * cos(min(abs(lat) + 1 / perDegree, 90) * Double.pi / 180)) / perDegree
        }
    }

    /// The fine cell's row and column of `c`; a coarse cell is ten of them
    /// (`row / 10`, `column / 10`), so the two levels always nest.
    static func fine(_ c: Coordinate) -> (row: Int, column: Int) {
        (Int((c.latitude + 90) * 100), Int((c.longitude + 180) * 100))
    }

    /// The first character of every cell word, U+E000 (SQL `char(57344)`).
    public static let mark = "\u{E000}"
    /// `mark` in UTF-8, for the writers and readers of cell words' bytes.
    package static let markUTF8 = Array(mark.utf8)

    /// What `place.text_cell` holds for a place at `c`: `row * 100000 + column`
    /// of its fine cell (`TextIndexSQL` turns it into the cell words).
    public static func key(_ c: Coordinate) -> Int64 {
        let f = fine(c)
        return Int64(f.row) * 100_000 + Int64(f.column)
    }

    /// The word of the cell holding `c`.
    public static func cell(_ c: Coordinate, _ level: Level) -> String {
        let f = fine(c), d = level == .fine ? 1 : 10
        return word(row: f.row / d, column: f.column / d, level)
    }

    /// The word of the cell at `row` and `column` of `level`: the mark,
    /// the level's letter, the row, `x`, the column.
    static func word(row: Int, column: Int, _ level: Level) -> String {
        "\(mark)\(level.letter)\(row)x\(column)"
    }

    /// The words of the 3x3 block of cells around `c` (fewer at the poles;
    /// wrapping at the antimeridian).
    public static func block(_ c: Coordinate, _ level: Level) -> [String] {
        blockCells(c, level).map { word(row: $0.row, column: $0.column, level) }
    }

    /// The rows and columns (at `level`) of the cells `block` names.
    public static func blockCells(_ c: Coordinate, _ level: Level) -> [(row: Int, column: Int)] {
        let f = fine(c), d = level == .fine ? 1 : 10
        let y = f.row / d, x = f.column / d
        let columns = 36_000 / d, rows = 18_000 / d
        var out: [(row: Int, column: Int)] = []
        for dy in -1...1 where y + dy >= 0 && y + dy <= rows {
            for dx in -1...1 {
                out.append((y + dy, ((x + dx) % columns + columns) % columns))
            }
        }
        return out
    }

    /// Whether a place whose `place.text_cell` is `key` holds one of the
    /// cell words of `cells` (`blockCells` at `level`): its cell words
    /// are `key`'s row and column, divided by 10 at the coarse level.
    public static func contains(_ cells: [(row: Int, column: Int)], _ level: Level, key: Int64) -> Bool {
        guard key >= 0 else { return false }
        let d = level == .fine ? 1 : 10
        let row = Int(key / 100_000) / d, column = Int(key % 100_000) / d
        return cells.contains { $0.row == row && $0.column == column }
    }
}
