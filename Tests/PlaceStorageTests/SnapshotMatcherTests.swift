import Foundation
import Testing
@testable import PlaceModel
@testable import PlaceStorage

/// The snapshot matcher on its own: which removed place it links to which
/// added one, and why (moved, redrawn, merged, split, renumbered).
@Suite("SnapshotMatcher")
struct SnapshotMatcherTests {
    static let base = Coordinate(latitude: 47.14, longitude: 9.52)

    /// A candidate `north` meters north and `east` meters east of `base`.
    static func place(
        _ id: String, _ name: String?, north: Double = 0, east: Double = 0, type: String? = "cafe", rowid: Int64 = 1
    ) -> SnapshotMatcher.Candidate {
        let lat = base.latitude + north / 111_195
        let lng = base.longitude + east / (111_195 * cos(base.latitude * .pi / 180))
        return SnapshotMatcher.Candidate(
            rowid: rowid, id: id, name: name, folded: SnapshotMatcher.bigrams(name),
            numbers: SnapshotMatcher.numbers(name),
            coordinate: Coordinate(latitude: lat, longitude: lng), types: type.map { [$0] } ?? [], primaryType: type)
    }

    let matcher = SnapshotMatcher(options: MatchOptions())

    @Test("the same name a few meters away is a move, with its score as confidence and the evidence")
    func moved() throws {
        let edges = matcher.match(
            removed: [Self.place("old", "Café du Lac")], added: [Self.place("new", "Cafe du Lac", north: 20)],
            renumbering: false)
        let edge = try #require(edges.first)
        #expect(edges.count == 1)
        #expect(edge.aliasID == "old" && edge.placeID == "new" && edge.reason == .moved)
        // Name 1 (folded), distance 1 - 20/150, type 1.
        #expect(abs(edge.confidence - (0.6 + 0.25 * (1 - 20.0 / 150) + 0.15)) < 0.002)
        #expect(edge.evidence?["typeMatch"] == "primary")
        #expect(edge.evidence?["nameSimilarity"] == .double(1))
    }

    @Test("another name, a place beyond the radius, or names that differ only in their number are not linked")
    func notLinked() {
        let removed = [Self.place("old", "Mühleholz I")]
        #expect(
            matcher.match(removed: removed, added: [Self.place("a", "Bahnhof Vaduz", north: 5)], renumbering: false)
                .isEmpty)
        #expect(
            matcher.match(removed: removed, added: [Self.place("b", "Mühleholz I", north: 151)], renumbering: false)
                .isEmpty)
        #expect(
            matcher.match(removed: removed, added: [Self.place("c", "Mühleholz II", north: 5)], renumbering: false)
                .isEmpty)
        #expect(
            !matcher.match(removed: removed, added: [Self.place("d", "Mühleholz I", north: 149)], renumbering: false)
                .isEmpty)
    }

    @Test("an OpenStreetMap node drawn again as a way is redrawn; a bulk re-keying is renumbered")
    func redrawnAndRenumbered() {
        let redrawn = matcher.match(
            removed: [Self.place("osm:n1", "Rathaus")], added: [Self.place("osm:w9", "Rathaus", east: 10)],
            renumbering: false)
        #expect(redrawn.map(\.reason) == [.redrawn])
        let renumbered = matcher.match(
            removed: [Self.place("osm:n1", "Rathaus")], added: [Self.place("osm:n2", "Rathaus", east: 10)],
            renumbering: true)
        #expect(renumbered.map(\.reason) == [.renumbered])
    }

    @Test("two removed places taken by one added place are a merge")
    func merged() {
        let edges = matcher.match(
            removed: [Self.place("r1", "Post"), Self.place("r2", "Post", east: 30)],
            added: [Self.place("a", "Post", east: 15)], renumbering: false)
        #expect(edges.map(\.aliasID) == ["r1", "r2"])
        #expect(edges.allSatisfy { $0.placeID == "a" && $0.reason == .merged })
    }

    @Test("a removed place with two near-equal candidates of the same name is split between them, best first")
    func split() {
        let edges = matcher.match(
            removed: [Self.place("r", "Schule")],
            added: [Self.place("far", "Schule", north: -12), Self.place("near", "Schule", north: 10)],
            renumbering: false)
        #expect(edges.map(\.placeID) == ["near", "far"])
        #expect(edges.allSatisfy { $0.reason == .split })
    }

    @Test("each removed place takes its best free candidate: two moves side by side are not crossed")
    func bestFirst() {
        let edges = matcher.match(
            removed: [Self.place("r-bank", "Bank", east: 0), Self.place("r-bakery", "Bakery", east: 60)],
            added: [Self.place("a-bakery", "Bakery", east: 70), Self.place("a-bank", "Bank", east: 5)],
            renumbering: false)
        #expect(
            Dictionary(uniqueKeysWithValues: edges.map { ($0.aliasID, $0.placeID) }) == [
                "r-bank": "a-bank", "r-bakery": "a-bakery",
            ])
    }

    @Test("the grid finds every pair within the radius that a scan of all pairs finds, across cell edges")
    func gridMatchesScan() {
        var removed: [SnapshotMatcher.Candidate] = [], added: [SnapshotMatcher.Candidate] = []
        for i in 0..<40 {
            // Pairs straddling grid cells at 0...140 m apart.
            let north = Double(i * 997 % 3000), east = Double(i * 613 % 3000)
            removed.append(Self.place("r\(i)", "Shop \(i)", north: north, east: east, rowid: Int64(i)))
            added.append(
                Self.place(
                    "a\(i)", "Shop \(i)", north: north + Double(i % 8) * 25, east: east - Double(i % 5) * 14,
                    rowid: Int64(100 + i)))
        }
        let edges = matcher.match(removed: removed, added: added, renumbering: false)
        let scanned = removed.indices.filter {
            SnapshotMatcher.meters(removed[$0].coordinate, added[$0].coordinate) <= 150
        }
        #expect(Set(edges.map(\.aliasID)) == Set(scanned.map { "r\($0)" }))
        #expect(edges.allSatisfy { $0.aliasID.dropFirst() == $0.placeID.dropFirst() })
    }

    @Test("names are compared folded: case, accents and punctuation do not count")
    func folding() {
        #expect(
            SnapshotMatcher.dice(
                SnapshotMatcher.bigrams("CAFÉ-Bar  Zürich"), SnapshotMatcher.bigrams("cafe bar zurich")) == 1)
        #expect(SnapshotMatcher.dice(SnapshotMatcher.bigrams("abc"), SnapshotMatcher.bigrams(nil)) == 0)
        #expect(SnapshotMatcher.numbers("Mühleholz II, Haus 3") == ["ii", "3"])
    }
}
