import Testing
import PlaceModel

@Suite("DigitGrouping: numbers written with commas by three")
struct DigitGroupingTests {
    @Test(
        "groups of three from the right, a sign kept in front",
        arguments: [
            (Int64(0), "0"), (999, "999"), (1000, "1,000"), (5842, "5,842"), (100_000, "100,000"),
            (1_048_576, "1,048,576"), (-1234, "-1,234"), (Int64.max, "9,223,372,036,854,775,807"),
            (Int64.min, "-9,223,372,036,854,775,808"),
        ])
    func grouped(_ n: Int64, _ text: String) {
        #expect(DigitGrouping.grouped(n) == text)
    }
}
