import Testing
@testable import PlaceKit

@Suite("SVGWriter.fit: a label cut to a width")
struct SVGWriterFitTests {
    /// What `fit` is defined as: drop the last character until the rest and
    /// "…" fit (quadratic; the reference for short strings).
    static func reference(_ s: String, width: Double, fontSize: Double) -> String {
        if SVGWriter.textWidth(s, fontSize: fontSize) <= width { return s }
        var t = Substring(s)
        while !t.isEmpty && SVGWriter.textWidth(String(t) + "…", fontSize: fontSize) > width { t = t.dropLast() }
        return t.isEmpty ? "" : String(t) + "…"
    }

    @Test(
        "the same cut as dropping characters one by one, whole characters only (accents, CJK, emoji, combining marks)",
        arguments: [
            "Brasserie Saint-Roch", "Café du Lac", "東京タワー展望台", "Île-de-France 🇫🇷 café",
            "e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}", "WWWWWiiiii", "",
        ])
    func sameAsReference(_ s: String) {
        for width in [0.0, 5, 20, 33.3, 60, 100, 400] {
            let cut = SVGWriter.fit(s, width: width, fontSize: 11)
            #expect(cut == Self.reference(s, width: width, fontSize: 11), "\(s) at \(width)")
            if cut != s && !cut.isEmpty {
                #expect(cut.hasSuffix("…"))
                #expect(SVGWriter.textWidth(cut, fontSize: 11) <= width)
            }
        }
    }

    @Test("a 10,000-character name is cut to the width like a short one")
    func longName() {
        let long = "Long " + String(repeating: "x", count: 9995)
        let cut = SVGWriter.fit(long, width: 200, fontSize: 11)
        #expect(cut == Self.reference(String(long.prefix(100)), width: 200, fontSize: 11))
        #expect(cut.count < 60)
    }
}
