import Foundation
import SQLiteDB
#if canImport(Glibc)
    import Glibc
#endif
import PlaceModel

/// Values spilled in sorted runs and merged back (`SortedRuns`): `precedes`
/// is their order, a plain function the merge's comparisons inline.
protocol RunOrdered: BitwiseCopyable {
    static func precedes(_ a: Self, _ b: Self) -> Bool
}

extension UInt64: RunOrdered {
    static func precedes(_ a: UInt64, _ b: UInt64) -> Bool { a < b }
}

/// Hilbert-sorted runs of index points (`IndexPoint.curveOrder`).
typealias PointRuns = SortedRuns<IndexPoint>
