import Testing
@testable import PlaceStorage

/// Stored content hashes decide whether a re-imported place changed, so a
/// faster way to feed the hash must give the very same values.
@Suite("FNV-1a content hash")
struct FNV1aTests {
    @Test(
        "a string's bytes hash the same through its storage as through its UTF-8 view",
        arguments: [
            "", "a", "Café du Lac", "東京駅", "emoji 🥐 and a long tail " + String(repeating: "x", count: 300),
            "nul\u{0}inside",
        ])
    func utf8MatchesView(text: String) {
        var viaView = FNV1a(), viaStorage = FNV1a()
        viaView.add(text.utf8)
        viaStorage.add(utf8: text)
        #expect(viaView.value == viaStorage.value)
        // A substring's copy (not native at offset 0) too.
        let tail = String(text.dropFirst())
        var a = FNV1a(), b = FNV1a()
        a.add(tail.utf8)
        b.add(utf8: tail)
        #expect(a.value == b.value)
    }

    @Test("the known FNV-1a 64 values")
    func knownValues() {
        var empty = FNV1a()
        empty.add(utf8: "")
        #expect(empty.value == 0xcbf2_9ce4_8422_2325)
        var a = FNV1a()
        a.add(utf8: "a")
        #expect(a.value == 0xaf63_dc4c_8601_ec8c)
        var foobar = FNV1a()
        foobar.add(utf8: "foobar")
        #expect(foobar.value == 0x8594_4171_f739_67e8)
    }
}
