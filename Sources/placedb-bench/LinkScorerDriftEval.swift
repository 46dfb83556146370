// placedb-bench eval-link-scorer-drift [--data DIR] [--pairs a:b,...] [--wrong] [--unlinked]
//
// The same-place scorer alone (no import, no grouping: `eval-link-drift`
// measures those) on real drift: two OpenStreetMap snapshots of one
// region (../shared/data/osm/poi-nwr) as two sources with no ID in common
// (the newer one renumbered). Each older place is linked to its best
// newer candidate within SamePlace.searchRadiusMeters plus both extents
// when the probability reaches SamePlace.threshold; the OSM ID is the
// truth. Reports the share of persisted places (same OSM ID in both)
// linked to themselves; the links that join two OSM objects that both
// persisted (wrong: two places that exist side by side in both
// snapshots); the links from a vanished object to a new one (an ID
// change, which osm/derived lists when it has a same-name rule for it);
// and the time to score and to build a LinkRecord.
import Foundation
import PlaceKit
import PlaceModel

enum LinkScorerDriftEval {
    static let defaultPairs = [
        "andorra-2013-05-28:andorra-2021-10-28", "liechtenstein-2015-07-27:liechtenstein-2021-10-28",
        "andorra-2021-04-13:andorra-2021-10-28",
    ]

    struct Loaded { var records: [LinkRecord]; var osmIDs: [String]; var named: [Bool]; var initSeconds: Double }

    static func load(_ path: String, renumber: Bool) throws -> Loaded {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var parts:
            [(placeID: String, coordinate: Coordinate, extentMeters: Double, document: JSONValue, extra: JSONValue?)] =
                []
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.drop { $0 == "\u{1E}" || $0 == " " }
            if trimmed.isEmpty { continue }
            guard let value = try? JSONValue(parsing: String(trimmed)),
                let p = try? LinkRecord.decodedParts(value, format: .osm), !p.skipped
            else { continue }
            parts.append((p.placeID, p.coordinate, p.extentMeters, p.document, p.extra))
        }
        // Built three times; the fastest pass is the time reported.
        var records: [LinkRecord] = []
        var seconds = Double.infinity
        let ids = parts.indices.map { renumber ? "renumbered-\($0)" : parts[$0].placeID }
        for _ in 0..<3 {
            let t0 = DispatchTime.now().uptimeNanoseconds
            records = []
            records.reserveCapacity(parts.count)
            for (i, p) in parts.enumerated() {
                records.append(
                    LinkRecord(
                        placeID: ids[i], source: renumber ? "new" : "old",
                        coordinate: p.coordinate, extentMeters: p.extentMeters, document: p.document, extra: p.extra))
            }
            seconds = min(seconds, Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9)
        }
        return Loaded(
            records: records, osmIDs: parts.map(\.placeID), named: parts.map { $0.document["displayName"] != nil },
            initSeconds: seconds)
    }

    static func run(_ args: [String]) throws {
        let data = option("--data", args) ?? "../shared/data/osm"
        guard FileManager.default.fileExists(atPath: "\(data)/poi-nwr") else {
            print("skipped: \(data)/poi-nwr is absent; nothing to evaluate")
            return
        }
        let pairs = option("--pairs", args).map { $0.split(separator: ",").map(String.init) } ?? defaultPairs
        print(
            "placedb-bench eval-link-scorer-drift: threshold \(SamePlace.threshold), search radius \(SamePlace.searchRadiusMeters) m + extents; the newer snapshot renumbered"
        )
        print("")
        print(
            "| older | newer | places old/new | persisted | linked to itself | links | wrong: both persisted | ID-change links (in osm/derived) | candidates scored | µs a score | µs a LinkRecord |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        for pair in pairs {
            let names = pair.split(separator: ":").map(String.init)
            guard names.count == 2 else { continue }
            let a = try load("\(data)/poi-nwr/\(names[0]).poi-nwr.geojsonseq", renumber: false)
            let b = try load("\(data)/poi-nwr/\(names[1]).poi-nwr.geojsonseq", renumber: true)
            // B by latitude, for a window scan.
            let order = b.records.indices.sorted {
                b.records[$0].coordinate.latitude < b.records[$1].coordinate.latitude
            }
            let lats = order.map { b.records[$0].coordinate.latitude }
            let maxExtent = b.records.map(\.extentMeters).max() ?? 0
            var bIndex: [String: Int] = [:]
            for (i, id) in b.osmIDs.enumerated() { bIndex[id] = i }
            let aIDs = Set(a.osmIDs)
            // osm/derived's probable ID changes between these two dates, as "old>new".
            var derived = Set<String>()
            let region = names[0].split(separator: "-").first.map(String.init) ?? ""
            let dates = names.map { String($0.dropFirst(region.count + 1)) }
            if let text = try? String(
                contentsOfFile: "\(data)/derived/osm-id-changes_\(region)_\(dates[0])_to_\(dates[1]).csv",
                encoding: .utf8)
            {
                for line in text.split(whereSeparator: \.isNewline).dropFirst() {
                    let f = line.split(separator: ",", omittingEmptySubsequences: false)
                    if f.count > 1 {
                        derived.insert(AliasEval.osmID(String(f[0])) + ">" + AliasEval.osmID(String(f[1])))
                    }
                }
            }
            var idChanges = 0, idChangesListed = 0
            var persisted = 0, persistedNamed = 0, selfLinked = 0, selfLinkedNamed = 0, links = 0, wrong = 0,
                wrongNamed = 0, linksNamed = 0
            var scores = 0
            var scoreNs: UInt64 = 0
            for (i, r) in a.records.enumerated() {
                let reach = SamePlace.searchRadiusMeters + r.extentMeters + maxExtent
                let dLat = reach / 111_195
                var lo = 0, hi = lats.count
                while lo < hi {
                    let m = (lo + hi) / 2; if lats[m] < r.coordinate.latitude - dLat { lo = m + 1 } else { hi = m }
                }
                var best = -1
                var bestP = 0.0
                var k = lo
                let t0 = DispatchTime.now().uptimeNanoseconds
                while k < lats.count && lats[k] <= r.coordinate.latitude + dLat {
                    let j = order[k]
                    let p = SamePlace.probability(r, b.records[j])
                    scores += 1
                    if p > bestP { bestP = p; best = j }
                    k += 1
                }
                scoreNs += DispatchTime.now().uptimeNanoseconds - t0
                let isPersisted = bIndex[a.osmIDs[i]] != nil
                if isPersisted { persisted += 1; if a.named[i] { persistedNamed += 1 } }
                if isPersisted, args.contains("--unlinked"), let j = bIndex[a.osmIDs[i]],
                    !(best >= 0 && b.osmIDs[best] == b.osmIDs[j] && bestP >= SamePlace.threshold)
                {
                    let w = JSONWriter()
                    print(
                        "  unlinked \(a.osmIDs[i]) p \(SamePlace.probability(r, b.records[j])) best \(best >= 0 ? b.osmIDs[best] : "-") \(bestP)"
                    )
                    print("    " + w.string(SamePlace.score(r, b.records[j]).evidence))
                }
                if best >= 0 && bestP >= SamePlace.threshold {
                    links += 1
                    if a.named[i] { linksNamed += 1 }
                    if b.osmIDs[best] == a.osmIDs[i] {
                        selfLinked += 1
                        if a.named[i] { selfLinkedNamed += 1 }
                    } else if !isPersisted && !aIDs.contains(b.osmIDs[best]) {
                        idChanges += 1
                        if derived.contains(a.osmIDs[i] + ">" + b.osmIDs[best]) { idChangesListed += 1 }
                    } else {
                        if args.contains("--wrong") {
                            print(
                                String(
                                    format: "  wrong p %.3f persisted %@ %@ %@ -> %@ %@ (%.0f m)", bestP,
                                    isPersisted ? "yes" : "no", a.osmIDs[i], r.primaryNameForExplain,
                                    b.osmIDs[best], b.records[best].primaryNameForExplain,
                                    r.coordinate.distance(to: b.records[best].coordinate)))
                        }
                        wrong += 1
                        if a.named[i] { wrongNamed += 1 }
                    }
                }
            }
            func pct(_ x: Int, _ n: Int) -> String {
                n == 0 ? "-" : String(format: "%.1f%%", 100 * Double(x) / Double(n))
            }
            let perInit = (a.initSeconds + b.initSeconds) * 1e6 / Double(a.records.count + b.records.count)
            _ = (persistedNamed, selfLinkedNamed, wrongNamed, linksNamed)
            print(
                "| \(names[0]) | \(names[1]) | \(a.records.count)/\(b.records.count) | \(persisted) | \(pct(selfLinked, persisted)) | \(links) | \(wrong) (\(pct(wrong, links))) | \(idChanges) (\(derived.isEmpty ? "no list" : "\(idChangesListed)")) | \(scores) | \(String(format: "%.2f", Double(scoreNs) / 1000 / Double(max(1, scores)))) | \(String(format: "%.1f", perInit)) |"
            )
        }
    }
}
