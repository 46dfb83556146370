import Foundation
import PlaceModel
import PlaceStorage
#if canImport(Glibc)
    import Glibc
#endif

/// A paged search's ranking so far (`PlaceReader.pageMemo`): the hits
/// ranked for `limit`, how many of them the filters have seen, and those
/// they accepted. A later page of the same request continues it instead of
/// ranking again; a changed database (`marker`) starts over.
struct PagedRanking {
    var marker: String
    var limit: Int
    var hits: [TextHit]
    var scanned = 0
    var accepted: [TextHit] = []
}
