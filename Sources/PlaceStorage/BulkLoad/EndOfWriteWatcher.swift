import PlaceModel

/// Watches the end of an import part by part: `placedb-bench world` sets
/// one to report where the end goes; an import runs without one. The
/// calls only name the parts as they end; the watcher keeps the time, so
/// an import without one does the same work.
package protocol EndOfWriteWatcher: AnyObject {
    /// The end begins: the last record is read.
    func endBegins()
    /// The part `name` has ended (it began where the one before ended).
    func partEnded(_ name: String)
    /// Of the part that just ended, `seconds` of wall time went to `name`.
    func lastPartIncluded(_ name: String, seconds: Double)
}
