import Foundation
import Testing
import PlaceModel

/// README.md and docs/*.md: the README stays short, and no relative link
/// points at a file or a heading that is not there.
@Suite("README and docs")
struct DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardizedFileURL

    static func documents() throws -> [URL] {
        let docs = root.appendingPathComponent("docs")
        let pages = try FileManager.default.contentsOfDirectory(atPath: docs.path)
            .filter { $0.hasSuffix(".md") }.sorted()
            .map { docs.appendingPathComponent($0) }
        return [root.appendingPathComponent("README.md")] + pages
    }

    @Test("README.md has at most 300 lines")
    func readmeLength() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
        #expect(lines > 0)
        #expect(lines <= 300, "README.md has \(lines) lines")
    }

    @Test("the README starts with the two set-up commands")
    func readmeCommands() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let firstBlock = try #require(text.components(separatedBy: "```").dropFirst().first)
        #expect(firstBlock.contains("Scripts/demo"))
        #expect(firstBlock.contains("Scripts/test"))
    }

    @Test("every relative link in README.md and docs/ points to an existing file and heading")
    func links() throws {
        let documents = try Self.documents()
        #expect(documents.count > 5)
        var checked = 0
        for document in documents {
            let text = try String(contentsOf: document, encoding: .utf8)
            for link in MarkdownText.links(in: text) {
                guard !link.target.contains(":") else { continue } // https:, mailto:
                checked += 1
                let place = "\(document.lastPathComponent):\(link.line): (\(link.target))"
                let (path, anchor) = MarkdownText.split(link.target)
                let file =
                    path.isEmpty
                    ? document
                    : document.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
                guard FileManager.default.fileExists(atPath: file.path) else {
                    Issue.record("\(place): no such file \(file.path)")
                    continue
                }
                if let anchor, file.pathExtension == "md" {
                    let anchors = MarkdownText.anchors(in: try String(contentsOf: file, encoding: .utf8))
                    if !anchors.contains(anchor) {
                        Issue.record("\(place): no heading with anchor #\(anchor) in \(file.lastPathComponent)")
                    }
                }
            }
        }
        #expect(checked > 50, "only \(checked) relative links found: is the link reader broken?")
    }

    @Test("the link reader finds links and GitHub's heading anchors")
    func reader() {
        let text = """
            # Current place
            See [the model](#the-model) and [`Schemas/input/`](../Schemas/input), ![a chart](img/a.svg),
            a [wrapped
            link](hours.md#how-placedb-open-answers) and [web](https://example.org).
            ```sh
            # not a heading [not a link](nowhere.md)
            ```
            Code `[x](inline.md)` is no link.
            ## How `placedb open` answers
            ## OpenStreetMap `opening_hours`
            ## Café, à la carte: 1.5 km!
            ## Café, à la carte: 1.5 km!
            """
        #expect(
            MarkdownText.links(in: text).map(\.target) == [
                "#the-model", "../Schemas/input", "img/a.svg", "hours.md#how-placedb-open-answers",
                "https://example.org",
            ])
        #expect(MarkdownText.links(in: text).map(\.line) == [2, 2, 2, 4, 4])
        #expect(
            MarkdownText.anchors(in: text) == [
                "current-place", "how-placedb-open-answers", "openstreetmap-opening_hours", "café-à-la-carte-15-km",
                "café-à-la-carte-15-km-1",
            ])
        #expect(MarkdownText.split("hours.md#at") == ("hours.md", "at"))
        #expect(MarkdownText.split("#at") == ("", "at"))
        #expect(MarkdownText.split("a.md") == ("a.md", nil))
    }
}

/// Just enough Markdown for link checking: fenced code blocks and inline code
/// are not text, `[text](target)` is a link, a heading's anchor is GitHub's.
enum MarkdownText {
    /// The text with fenced code blocks and inline code spans blanked out
    /// (line breaks kept, so line numbers still hold).
    static func prose(_ text: String) -> [Character] {
        var out: [Character] = []
        var inFence = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inFence.toggle()
            } else if !inFence {
                var inCode = false
                for c in line {
                    if c == "`" { inCode.toggle(); out.append(" ") } else { out.append(inCode ? " " : c) }
                }
            }
            out.append("\n")
        }
        return out
    }

    static func links(in text: String) -> [(target: String, line: Int)] {
        let chars = prose(text)
        var result: [(String, Int)] = []
        var line = 1
        var i = 0
        while i < chars.count {
            if chars[i] == "\n" { line += 1 }
            if chars[i] == "]", i + 1 < chars.count, chars[i + 1] == "(" {
                var j = i + 2
                var target = ""
                while j < chars.count, chars[j] != ")", !chars[j].isWhitespace { target.append(chars[j]); j += 1 }
                if j < chars.count, chars[j] == ")", !target.isEmpty { result.append((target, line)) }
            }
            i += 1
        }
        return result
    }

    /// The anchors GitHub gives the headings: lower case, punctuation
    /// dropped, spaces as hyphens, "-1", "-2" ... for repeats.
    static func anchors(in text: String) -> [String] {
        var seen: [String: Int] = [:]
        var result: [String] = []
        var inFence = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inFence.toggle(); continue }
            guard !inFence, line.hasPrefix("#") else { continue }
            let title = line.drop(while: { $0 == "#" })
            guard title.first == " " else { continue }
            var slug = ""
            for c in title.trimmingCharacters(in: .whitespaces).lowercased() {
                if c.isLetter || c.isNumber || c == "-" || c == "_" {
                    slug.append(c)
                } else if c == " " {
                    slug.append("-")
                }
            }
            let n = seen[slug, default: 0]
            seen[slug] = n + 1
            result.append(n == 0 ? slug : "\(slug)-\(n)")
        }
        return result
    }

    static func split(_ target: String) -> (path: String, anchor: String?) {
        guard let hash = target.firstIndex(of: "#") else { return (target, nil) }
        return (String(target[..<hash]), String(target[target.index(after: hash)...]))
    }
}
