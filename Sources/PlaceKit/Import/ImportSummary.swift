import Foundation
public import PlaceModel

/// Counts of one import (of one input, or of several added up).
public struct ImportSummary: Sendable, Equatable {
    public var inputs = 0
    public var records = 0
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0
    /// Places that had been removed and came back.
    public var revived = 0
    /// Records whose ID this run had already written (the later one wins).
    public var duplicates = 0
    /// Places of a snapshot's source that the snapshot no longer has.
    public var removed = 0
    /// Alias edges a snapshot recorded from removed places to added ones.
    public var linked = 0
    public var rejected = 0
    /// Places whose viewport was ignored as a footprint because it is bad
    /// (inverted, across the antimeridian, larger than 20 km, out of
    /// range), by reason; the place is imported with it all the same.
    public var ignoredViewports: [ViewportEvidence: Int] = [:]
    /// Records with members whose stored values were kept because they were
    /// captured later (an older dump imported after a newer one). Such a
    /// record may still add members the stored place lacked (then it is
    /// counted as updated too).
    public var older = 0
    /// Records merged into a stored place where neither the record nor
    /// the stored capture has a time and their values differ: the captures
    /// are unordered, and the records' content decided which values stay
    /// (the same in any order of files; `--captured-at` orders them).
    public var unordered = 0
    /// Records by where their capture time came from.
    public var captureSources: [CaptureSource: Int] = [:]
    /// Records whose own timestamp was out of range (before 2000, or more
    /// than a day ahead): they were dated by their reviews, or not at all.
    public var timestampsOutOfRange = 0
    /// Inputs skipped whole (`--on-error skip`): they held no places.
    public var skippedInputs = 0
    /// Features that are not places (neither a name nor a place type), by
    /// what they are ("road, path or crossing": 80123, ...); see
    /// `ImportOptions.allFeatures`.
    public var skipped: [String: Int] = [:]
    public var bytes: Int64 = 0
    public var seconds: Double = 0

    public init() {}

    /// True when the import changed nothing in the database.
    public var changedNothing: Bool { inserted == 0 && updated == 0 && revived == 0 && removed == 0 }

    /// How many features were skipped as not places.
    public var skippedCount: Int { skipped.values.reduce(0, +) }

    public static func += (a: inout ImportSummary, b: ImportSummary) {
        a.inputs += b.inputs
        a.records += b.records
        a.inserted += b.inserted
        a.updated += b.updated
        a.unchanged += b.unchanged
        a.revived += b.revived
        a.duplicates += b.duplicates
        a.removed += b.removed
        a.rejected += b.rejected
        a.ignoredViewports.merge(b.ignoredViewports, uniquingKeysWith: +)
        a.older += b.older
        a.unordered += b.unordered
        a.captureSources.merge(b.captureSources, uniquingKeysWith: +)
        a.timestampsOutOfRange += b.timestampsOutOfRange
        a.skippedInputs += b.skippedInputs
        a.skipped.merge(b.skipped, uniquingKeysWith: +)
        a.bytes += b.bytes
        a.seconds += b.seconds
    }
}

extension ImportSummary {
    init(records: Int, rejected: Int, bytes: Int64, seconds: Double) {
        self.init()
        self.inputs = 1
        self.records = records
        self.rejected = rejected
        self.bytes = bytes
        self.seconds = seconds
    }
}
