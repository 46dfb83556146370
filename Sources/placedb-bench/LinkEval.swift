// placedb-bench eval-link-pairs [--pairs PATH] [--misses] [--folds K]
// placedb-bench fit-link [--pairs PATH] [--folds K] --write PATH
//
// The same-place scorer (`SamePlace`, issue 30) on Overture's labelled
// conflation pairs (../shared/data/conflation/overture-pairs-dev.ndjson,
// SOURCES.md "Conflation"): each side becomes an Overture GeoJSON Feature
// (a Point; the two sides 30 m apart at one spot per pair, so distance is
// neutral), decoded by the import's own decoder into the document and
// extras the database stores, then into a LinkRecord.
//
// eval-link-pairs: precision, recall and F1 of the shipped weights at
// `SamePlace.threshold`; a K-fold cross-validation (fit on K-1 folds, the
// threshold chosen there by the same rule, scored on the fold left out;
// folds by pair number); microseconds per score.
// fit-link: fits the logistic model on every pair (L2, Newton), chooses the
// threshold on the cross-validated scores (the highest F1 whose precision
// is at least `minPrecision`), and writes SamePlaceWeights.swift.
import Foundation
import PlaceKit
import PlaceModel

enum LinkEval {
    static let defaultPairs = "../shared/data/conflation/overture-pairs-dev.ndjson"
    /// Precision first: the threshold is the best F1 with precision at least this.
    static let minPrecision = 0.92
    /// L2 penalty of the fit (on the summed log-likelihood).
    static let ridge = 1.0

    struct Pair {
        let number: Int
        let label: Bool
        let a: LinkRecord
        let b: LinkRecord
        let names: (String, String)
    }

    static func run(_ args: [String]) throws {
        guard let pairs = try load(args) else { return }
        let folds = option("--folds", args).flatMap(Int.init) ?? 3
        let rows = pairs.map { features($0) }
        let labels = pairs.map(\.label)

        if let which = option("--explain", args) {
            for n in which.split(separator: ",").compactMap({ Int($0) }) {
                guard let p = pairs.first(where: { $0.number == n }) else { continue }
                let w = JSONWriter()
                print("pair \(n) label \(p.label ? 1 : 0): \(p.names.0) | \(p.names.1)")
                print(w.string(SamePlace.score(p.a, p.b).evidence))
            }
            return
        }
        if let dump = option("--dump", args) {
            var csv = "pair,label," + SamePlace.featureNames.joined(separator: ",") + ",offset,a,b\n"
            for (p, r) in zip(pairs, rows) {
                func q(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "'") + "\"" }
                csv +=
                    "\(p.number),\(p.label ? 1 : 0)," + r.x.map { String($0) }.joined(separator: ",")
                    + ",\(r.offset),\(q(p.names.0)),\(q(p.names.1))\n"
            }
            try csv.write(toFile: dump, atomically: true, encoding: .utf8)
        }
        // The shipped model.
        var probs: [Double] = []
        for p in pairs { probs.append(SamePlace.score(p.a, p.b).probability) }
        let shipped = metrics(probs, labels, SamePlace.threshold)
        print(
            "placedb-bench eval-link-pairs: \(pairs.count) pairs (\(labels.filter { $0 }.count) same place), the two records 30 m apart"
        )
        print("")
        print("| model | threshold | precision | recall | F1 | TP | FP | FN |")
        print("|---|---|---|---|---|---|---|---|")
        print(row("shipped weights (fitted on all dev pairs)", SamePlace.threshold, shipped))
        let cv = crossValidate(rows, labels, folds: folds)
        print(
            row(
                "\(folds)-fold cross-validated (fit and threshold on \(folds - 1)/\(folds))", cv.meanThreshold,
                cv.metrics))
        print("")
        let auc = rocAUC(probs, labels)
        print(
            String(
                format: "ROC AUC (shipped): %.4f; cross-validated F1 per fold: %@", auc,
                cv.perFold.map { String(format: "%.3f", $0) }.joined(separator: ", ")))

        // Speed: score (with evidence) and probability (without), release build expected.
        let reps = max(1, 200_000 / pairs.count)
        var sink = 0.0
        var t0 = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<reps { for p in pairs { sink += SamePlace.probability(p.a, p.b) } }
        let probabilityNs = Double(DispatchTime.now().uptimeNanoseconds - t0) / Double(reps * pairs.count)
        t0 = DispatchTime.now().uptimeNanoseconds
        let scoreReps = max(1, reps / 4)
        for _ in 0..<scoreReps { for p in pairs { sink += SamePlace.score(p.a, p.b).probability } }
        let scoreNs = Double(DispatchTime.now().uptimeNanoseconds - t0) / Double(scoreReps * pairs.count)
        t0 = DispatchTime.now().uptimeNanoseconds
        let evidenceReps = max(1, reps / 40)
        for _ in 0..<evidenceReps {
            for p in pairs { if case .object(let o) = SamePlace.score(p.a, p.b).evidence { sink += Double(o.count) } }
        }
        let evidenceNs = Double(DispatchTime.now().uptimeNanoseconds - t0) / Double(evidenceReps * pairs.count)
        print(
            String(
                format:
                    "speed: SamePlace.probability %.2f µs per pair, SamePlace.score %.2f µs, its evidence (--explain) %.1f µs (checksum %.1f)",
                probabilityNs / 1000, scoreNs / 1000, evidenceNs / 1000, sink))

        if args.contains("--misses") {
            print("")
            print("misses of the shipped model (label, probability, names):")
            for (i, p) in pairs.enumerated() where (probs[i] >= SamePlace.threshold) != p.label {
                print(
                    String(
                        format: "  pair %d label %d p %.3f  %@  |  %@", p.number, p.label ? 1 : 0, probs[i], p.names.0,
                        p.names.1))
            }
        }
    }

    static func fit(_ args: [String]) throws {
        guard let pairs = try load(args) else { return }
        guard let out = option("--write", args) else {
            throw BenchError(message: "fit-link needs --write PATH (Sources/PlaceModel/Linking/SamePlaceWeights.swift)")
        }
        let folds = option("--folds", args).flatMap(Int.init) ?? 3
        let rows = pairs.map { features($0) }
        let labels = pairs.map(\.label)
        let cv = crossValidate(rows, labels, folds: folds)
        let threshold = chooseThreshold(cv.probabilities, labels)
        let model = logistic(rows, labels)
        let all = rows.map { predict(model, $0) }
        let m = metrics(all, labels, threshold)
        let cvm = metrics(cv.probabilities, labels, threshold)
        print(
            String(
                format:
                    "fit-link: %d pairs; threshold %.3f (best cross-validated F1 with precision >= %.2f); on all pairs P %.3f R %.3f F1 %.3f; %d-fold cross-validated P %.3f R %.3f F1 %.3f",
                pairs.count, threshold, minPrecision, m.precision, m.recall, m.f1, folds, cvm.precision, cvm.recall,
                cvm.f1))
        for (i, name) in SamePlace.featureNames.enumerated() {
            print(String(format: "  %-24@ %+.3f", name as NSString, model.weights[i]))
        }
        print(String(format: "  %-24@ %+.3f", "bias" as NSString, model.bias))
        var text =
            "// Generated by `placedb-bench fit-link --pairs \(option("--pairs", args) ?? defaultPairs)\n//     --write \(out)`:\n"
        text +=
            "// a logistic model (L2 \(ridge), Newton) on \(pairs.count) labelled Overture/Microsoft pairs (SOURCES.md, Conflation);\n"
        text += "// threshold: the best \(folds)-fold cross-validated F1 with precision >= \(minPrecision).\n"
        text += String(
            format:
                "// On all pairs at the threshold: P %.3f R %.3f F1 %.3f; cross-validated: P %.3f R %.3f F1 %.3f.\n",
            m.precision, m.recall, m.f1, cvm.precision, cvm.recall, cvm.f1)
        text += "// Do not edit by hand.\nenum SamePlaceWeights {\n"
        text += "    static let bias: Double = \(roundTrip(model.bias))\n"
        text += "    static let weights: [Double] = [\n"
        for (i, w) in model.weights.enumerated() {
            text += "        \(roundTrip(w)), // \(SamePlace.featureNames[i])\n"
        }
        text += "    ]\n"
        text += "    static let threshold: Double = \(roundTrip(threshold))\n"
        text += "}\n"
        try text.write(toFile: out, atomically: true, encoding: .utf8)
        print("wrote \(out)")
    }

    static func roundTrip(_ x: Double) -> String { String(format: "%.4f", x) }

    // MARK: Data

    static func load(_ args: [String]) throws -> [Pair]? {
        let path = option("--pairs", args) ?? defaultPairs
        guard FileManager.default.fileExists(atPath: path) else {
            print("skipped: \(path) is absent; nothing to evaluate")
            return nil
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var pairs: [Pair] = []
        var failed = 0
        for line in text.split(whereSeparator: \.isNewline) where !line.isEmpty {
            let row = try JSONValue(parsing: String(line))
            guard let number = row["pair"]?.intValue, let label = row["label"]?.intValue else { continue }
            let spot = Coordinate(
                latitude: 40 + Double(number % 1000) * 0.01, longitude: -100 + Double(number / 1000) * 0.01)
            // 30 m apart, east-west.
            let east = 30 / (111_195 * cos(spot.latitude * .pi / 180))
            do {
                let a = try LinkRecord.decoding(
                    feature(row, prefix: "", at: spot), format: .overture, source: "overture-meta")
                let b = try LinkRecord.decoding(
                    feature(
                        row, prefix: "base_", at: Coordinate(latitude: spot.latitude, longitude: spot.longitude + east)),
                    format: .overture, source: "overture-microsoft")
                let names = (
                    row["names"]?["primary"]?.stringValue ?? "", row["base_names"]?["primary"]?.stringValue ?? ""
                )
                pairs.append(Pair(number: number, label: label == 1, a: a, b: b, names: names))
            } catch {
                failed += 1
                FileHandle.standardError.write(Data("pair \(number): \(error)\n".utf8))
            }
        }
        if failed > 0 { print("\(failed) pairs could not be decoded (left out)") }
        return pairs
    }

    /// One side of a pair as an Overture GeoJSON Feature.
    static func feature(_ row: JSONValue, prefix: String, at c: Coordinate) -> JSONValue {
        var properties: [(String, JSONValue)] = []
        for key in [
            "names", "categories", "confidence", "websites", "socials", "emails", "phones", "brand", "addresses",
            "sources",
        ] {
            if let v = row[prefix + key], v != .null { properties.append((key, v)) }
        }
        let idValue = row[prefix.isEmpty ? "id" : "base_id"]
        let id: String
        switch idValue {
        case .string(let s)?: id = s
        case .int(let i)?: id = String(i)
        default: id = "pair-\(row["pair"]?.intValue ?? 0)-\(prefix.isEmpty ? "a" : "b")"
        }
        return .object(
            JSONObject([
                ("type", "Feature"), ("id", .string(id)),
                (
                    "geometry",
                    .object(
                        JSONObject([
                            ("type", "Point"), ("coordinates", .array([.double(c.longitude), .double(c.latitude)])),
                        ]))
                ),
                ("properties", .object(JSONObject(properties))),
            ]))
    }

    static func features(_ p: Pair) -> (x: [Double], offset: Double) {
        var f = [Double](repeating: 0, count: SamePlace.featureCount)
        let cited = f.withUnsafeMutableBufferPointer { SamePlace.features(p.a, p.b, into: $0) }
        let dc = SamePlace.distanceContribution(gapMeters: SamePlace.gapMeters(p.a, p.b)) ?? -50
        return (f, dc + SamePlace.fixedContribution(p.a, p.b, cited: cited))
    }

    // MARK: Model

    struct Model { var bias: Double; var weights: [Double] }

    static func predict(_ m: Model, _ r: (x: [Double], offset: Double)) -> Double {
        var z = m.bias + r.offset
        for i in 0..<r.x.count { z += m.weights[i] * r.x[i] }
        return 1 / (1 + exp(-z))
    }

    /// Evidence of agreement may not lower the probability, nor evidence
    /// of disagreement raise it: the sign each weight must have (a weight
    /// the data would give the other sign is left at 0). Without this the
    /// fit learns what the dev pairs' collection quirks say (in them a
    /// category conflict goes with the same place more often than not:
    /// a store's pharmacy counter is the store) and carries it to OSM and
    /// Google data, where it is wrong.
    static let positive: Set<String> = [
        "nameDice", "nameJaccard", "nameContained", "nameBigramContained", "namePrefixContained", "nameExact",
        "nameFirstToken",
        "phoneMatch", "domainMatch", "webPathMatch", "socialMatch", "emailMatch", "houseNumberMatch",
        "houseNumberTransposed",
        "postcodeMatch", "streetJaccard", "categoryExact", "categoryPrimaryGroup", "categoryGroup", "brandMatch",
    ]

    /// Sign-constrained logistic regression: fits, then fixes at 0 every
    /// weight of the wrong sign and fits again, until none is left.
    static func logistic(_ rows: [(x: [Double], offset: Double)], _ labels: [Bool]) -> Model {
        var fixed = Set<Int>()
        while true {
            let m = logistic(rows, labels, zeroed: fixed)
            var wrong = false
            for (i, name) in SamePlace.featureNames.enumerated() where !fixed.contains(i) {
                let w = m.weights[i]
                if (positive.contains(name) && w < 0) || (!positive.contains(name) && w > 0) {
                    fixed.insert(i); wrong = true
                }
            }
            if !wrong { return m }
        }
    }

    /// L2-penalized logistic regression by Newton's method (the bias not
    /// penalized); the weights in `zeroed` held at 0.
    static func logistic(_ rows: [(x: [Double], offset: Double)], _ labels: [Bool], zeroed: Set<Int>) -> Model {
        let rows =
            zeroed.isEmpty
            ? rows
            : rows.map { r in
                var x = r.x
                for i in zeroed { x[i] = 0 }
                return (x, r.offset)
            }
        let n = SamePlace.featureCount + 1
        var beta = [Double](repeating: 0, count: n)
        for _ in 0..<50 {
            var grad = [Double](repeating: 0, count: n)
            var hess = [Double](repeating: 0, count: n * n)
            for (r, y) in zip(rows, labels) {
                var z = beta[0] + r.offset
                for i in 0..<r.x.count { z += beta[i + 1] * r.x[i] }
                let p = 1 / (1 + exp(-z))
                let e = (y ? 1 : 0) - p
                let w = max(p * (1 - p), 1e-9)
                var xs = [1.0]
                xs += r.x
                for i in 0..<n {
                    grad[i] += e * xs[i]
                    if xs[i] == 0 { continue }
                    for j in 0..<n where xs[j] != 0 { hess[i * n + j] += w * xs[i] * xs[j] }
                }
            }
            for i in 1..<n { grad[i] -= ridge * beta[i]; hess[i * n + i] += ridge }
            hess[0] += 1e-6
            let step = solve(hess, grad, n)
            var moved = 0.0
            for i in 0..<n { beta[i] += step[i]; moved = max(moved, abs(step[i])) }
            if moved < 1e-8 { break }
        }
        return Model(bias: beta[0], weights: Array(beta[1...]))
    }

    /// Solves A x = b (A symmetric positive definite, n x n) by Gaussian elimination with pivoting.
    static func solve(_ a0: [Double], _ b0: [Double], _ n: Int) -> [Double] {
        var a = a0, b = b0
        for col in 0..<n {
            var pivot = col
            for r in col..<n where abs(a[r * n + col]) > abs(a[pivot * n + col]) { pivot = r }
            if pivot != col {
                for c in 0..<n { a.swapAt(col * n + c, pivot * n + c) }
                b.swapAt(col, pivot)
            }
            let d = a[col * n + col]
            if abs(d) < 1e-12 { continue }
            for r in (col + 1)..<n {
                let f = a[r * n + col] / d
                if f == 0 { continue }
                for c in col..<n { a[r * n + c] -= f * a[col * n + c] }
                b[r] -= f * b[col]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for r in stride(from: n - 1, through: 0, by: -1) {
            var s = b[r]
            for c in (r + 1)..<n { s -= a[r * n + c] * x[c] }
            let d = a[r * n + r]
            x[r] = abs(d) < 1e-12 ? 0 : s / d
        }
        return x
    }

    // MARK: Metrics

    struct Metrics {
        var tp = 0, fp = 0, fn = 0, tn = 0
        var precision: Double { tp + fp == 0 ? 1 : Double(tp) / Double(tp + fp) }
        var recall: Double { tp + fn == 0 ? 0 : Double(tp) / Double(tp + fn) }
        var f1: Double { precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall) }
    }

    static func metrics(_ probs: [Double], _ labels: [Bool], _ threshold: Double) -> Metrics {
        var m = Metrics()
        for (p, y) in zip(probs, labels) {
            switch (p >= threshold, y) {
            case (true, true): m.tp += 1
            case (true, false): m.fp += 1
            case (false, true): m.fn += 1
            case (false, false): m.tn += 1
            }
        }
        return m
    }

    /// The threshold of the best F1 whose precision is at least `minPrecision`
    /// (the best F1 overall when none reaches it); midway between two scores.
    static func chooseThreshold(_ probs: [Double], _ labels: [Bool]) -> Double {
        let sorted = Array(Set(probs)).sorted()
        var best = (f1: -1.0, t: 0.5, ok: false)
        for (i, p) in sorted.enumerated() {
            let t = i == 0 ? p : (p + sorted[i - 1]) / 2
            let m = metrics(probs, labels, t)
            let ok = m.precision >= minPrecision
            if (ok && !best.ok) || (ok == best.ok && m.f1 > best.f1) { best = (m.f1, t, ok) }
        }
        return best.t
    }

    static func crossValidate(_ rows: [(x: [Double], offset: Double)], _ labels: [Bool], folds: Int) -> (
        probabilities: [Double], metrics: Metrics, perFold: [Double], meanThreshold: Double
    ) {
        var probs = [Double](repeating: 0, count: rows.count)
        var total = Metrics()
        var perFold: [Double] = []
        var thresholds: [Double] = []
        for k in 0..<folds {
            let train = rows.indices.filter { $0 % folds != k }
            let test = rows.indices.filter { $0 % folds == k }
            let model = logistic(train.map { rows[$0] }, train.map { labels[$0] })
            let t = chooseThreshold(train.map { predict(model, rows[$0]) }, train.map { labels[$0] })
            thresholds.append(t)
            var m = Metrics()
            for i in test {
                probs[i] = predict(model, rows[i])
                let one = metrics([probs[i]], [labels[i]], t)
                m.tp += one.tp; m.fp += one.fp; m.fn += one.fn; m.tn += one.tn
            }
            perFold.append(m.f1)
            total.tp += m.tp; total.fp += m.fp; total.fn += m.fn; total.tn += m.tn
        }
        return (probs, total, perFold, thresholds.reduce(0, +) / Double(max(1, thresholds.count)))
    }

    static func rocAUC(_ probs: [Double], _ labels: [Bool]) -> Double {
        let order = probs.indices.sorted { probs[$0] < probs[$1] }
        var rankSum = 0.0
        var i = 0
        while i < order.count {
            var j = i
            while j + 1 < order.count && probs[order[j + 1]] == probs[order[i]] { j += 1 }
            let rank = Double(i + j) / 2 + 1
            for k in i...j where labels[order[k]] { rankSum += rank }
            i = j + 1
        }
        let pos = Double(labels.filter { $0 }.count), neg = Double(labels.count) - pos
        return (rankSum - pos * (pos + 1) / 2) / max(1, pos * neg)
    }

    static func row(_ name: String, _ t: Double, _ m: Metrics) -> String {
        String(
            format: "| %@ | %.3f | %.3f | %.3f | **%.3f** | %d | %d | %d |", name as NSString, t, m.precision, m.recall,
            m.f1, m.tp, m.fp, m.fn)
    }
}
