/// Two places whose captured `openNow` is wrong at the fixture's times,
/// for the tests that every output path serves hours at the time asked.
///
/// `h1`: Mondays 09:00-17:00 UTC, current hours for Monday 2025-12-01
/// only, a delivery window Mondays 10:00-12:00; every captured `openNow`
/// is true, and the regular hours carry the capture's `nextCloseTime`
/// (long past at the fixture's times). `h2`: open 24 hours, captured `openNow` false.
public enum ServedHoursFixture {
    public static let ndjson = """
        {"id":"h1","displayName":{"text":"Hours One"},"location":{"latitude":10.0,"longitude":10.0},"types":["cafe"],"businessStatus":"OPERATIONAL","utcOffsetMinutes":0,"regularOpeningHours":{"openNow":true,"nextCloseTime":"2025-12-01T17:00:00Z","periods":[{"open":{"day":1,"hour":9,"minute":0},"close":{"day":1,"hour":17,"minute":0}}],"weekdayDescriptions":["Monday: 9:00 AM – 5:00 PM"]},"currentOpeningHours":{"openNow":true,"periods":[{"open":{"day":1,"hour":9,"minute":0,"date":{"year":2025,"month":12,"day":1}},"close":{"day":1,"hour":17,"minute":0,"date":{"year":2025,"month":12,"day":1}}}]},"regularSecondaryOpeningHours":[{"secondaryHoursType":"DELIVERY","openNow":true,"periods":[{"open":{"day":1,"hour":10,"minute":0},"close":{"day":1,"hour":12,"minute":0}}]}]}
        {"id":"h2","displayName":{"text":"Hours Two"},"location":{"latitude":10.0001,"longitude":10.0},"types":["store"],"businessStatus":"OPERATIONAL","utcOffsetMinutes":0,"regularOpeningHours":{"openNow":false,"periods":[{"open":{"day":0,"hour":0,"minute":0}}]}}

        """
    /// Sunday: h1's regular hours say closed, its current ones (6 days
    /// old) are still served.
    public static let sunday = "2025-12-07T12:00:00Z"
    /// Monday five weeks later: h1 is open by the regular hours; its
    /// current hours ended more than 7 days before.
    public static let later = "2026-01-05T12:00:00Z"
}
