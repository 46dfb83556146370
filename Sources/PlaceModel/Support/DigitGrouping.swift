/// Whole numbers written for people: digits grouped by three with commas
/// ("5,842", "-1,048,576"), as error messages and warnings show sizes and
/// distances.
package enum DigitGrouping {
    public static func grouped(_ n: Int64) -> String {
        var digits = Array(String(n.magnitude))
        var i = digits.count - 3
        while i > 0 { digits.insert(",", at: i); i -= 3 }
        return (n < 0 ? "-" : "") + String(digits)
    }
}
