/// What a stored spatial index was built from: it is current while these
/// three numbers are (`place_generation`, the largest place row, the last
/// import run).
package struct IndexMarker: Equatable, Sendable {
    package var generation: Int64
    package var maxPlace: Int64
    package var maxRun: Int64

    package init(generation: Int64, maxPlace: Int64, maxRun: Int64) {
        self.generation = generation
        self.maxPlace = maxPlace
        self.maxRun = maxRun
    }
}
