/// A neighbour found by the index: its slot and exact great-circle distance.
package struct IndexHit: Equatable {
    package var meters: Double
    package var slot: Int32
}
