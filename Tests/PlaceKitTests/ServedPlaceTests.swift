import Foundation
import Testing
@testable import PlaceKit
@testable import PlaceModel
@testable import PlaceStorage
import PlaceKitTestSupport

/// The library serves places as `placedb place` does: `fetchPlace`,
/// `searchNearby`, `findPlaceLikelihoods` compute `openNow` inside the
/// hours at the time asked (now by default); `fetchStoredPlace` gives the
/// record as captured.
@Suite("Library: places are served, never as captured")
struct ServedPlaceTests {
    let dir: TempDirectory
    let client: PlaceReader

    init() throws {
        dir = try TempDirectory("placedb-served")
        let file = try dir.write("hours.ndjson", ServedHoursFixture.ndjson)
        let path = dir.file("places.sqlite")
        _ = try PlaceImporter(databasePath: path).importInput(.file(file))
        client = try PlaceReader(databasePath: path)
    }

    static func time(_ text: String) throws -> HoursQueryTime { try #require(HoursQueryTime(parsing: text)) }

    @Test("fetchPlace serves openNow at the time asked and drops stale current hours")
    func fetchPlaceAt() throws {
        let sunday = try client.fetchPlace(id: "h1", at: Self.time(ServedHoursFixture.sunday))
        #expect(sunday.document["regularOpeningHours"]?["openNow"] == false)
        #expect(sunday.document["currentOpeningHours"]?["openNow"] == false)
        #expect(sunday.document["regularSecondaryOpeningHours"]?.arrayValue?.first?["openNow"] == false)
        let later = try client.fetchPlace(id: "h1", at: Self.time(ServedHoursFixture.later))
        #expect(later.document["regularOpeningHours"]?["openNow"] == true)
        #expect(later.document["currentOpeningHours"] == nil)
        // A mask cutting into the hours gets the served value.
        let masked = try client.fetchPlace(
            id: "h1", fields: FieldMask(parsing: "regularOpeningHours.openNow"),
            at: Self.time(ServedHoursFixture.sunday))
        #expect(masked.document["regularOpeningHours"] == ["openNow": false])
    }

    @Test(
        "nextOpenTime (closed) and nextCloseTime (open) are computed at the time asked, never the capture's; the JSON paths agree"
    )
    func nextTimes() throws {
        let sunday = try client.fetchPlace(id: "h1", at: Self.time(ServedHoursFixture.sunday))
        let regular = try #require(sunday.document["regularOpeningHours"]?.objectValue)
        #expect(regular["nextOpenTime"] == .string("2025-12-08T09:00:00Z"))
        #expect(
            regular["nextCloseTime"] == nil, "closed: the next opening only; the captured nextCloseTime is never served"
        )
        #expect(
            sunday.document["regularSecondaryOpeningHours"]?.arrayValue?.first?["nextOpenTime"]
                == .string("2025-12-08T10:00:00Z"))
        let later = try client.fetchPlace(id: "h1", at: Self.time(ServedHoursFixture.later))
        #expect(later.document["regularOpeningHours"]?["nextCloseTime"] == .string("2026-01-05T17:00:00Z"))
        #expect(later.document["regularOpeningHours"]?["nextOpenTime"] == nil)
        // Open around the clock: it never closes, so no nextCloseTime.
        let h2 = try client.fetchPlace(id: "h2", at: Self.time(ServedHoursFixture.later))
        #expect(h2.document["regularOpeningHours"]?["openNow"] == true)
        #expect(h2.document["regularOpeningHours"]?["nextCloseTime"] == nil)
        // The byte-level writers (Place Details, searchNearby JSON) serve the same.
        for at in [ServedHoursFixture.sunday, ServedHoursFixture.later] {
            let details = try JSONValue(
                parsing: client.placeDetailsJSON(id: "h1", fields: .all, openNow: false, at: Self.time(at)))
            let fetched = try client.fetchPlace(id: "h1", at: Self.time(at))
            for key in ["regularOpeningHours", "currentOpeningHours", "regularSecondaryOpeningHours"] {
                #expect(details[key] == fetched.document[key], "\(key) at \(at)")
            }
        }
        // Never a next time before the time asked, nor more than 7 days after it.
        var nextTimes = 0
        for day in 0..<14 {
            for hour in stride(from: 0, to: 24, by: 5) {
                let text = String(format: "2025-12-%02dT%02d:17:00Z", day + 1, hour)
                let at = try #require(HoursQueryTime(parsing: text))
                guard case .instant(let instant) = at else { continue }
                for id in ["h1", "h2"] {
                    let place = try client.fetchPlace(id: PlaceID(id), at: at)
                    for key in ["regularOpeningHours", "currentOpeningHours"] {
                        for name in ["nextOpenTime", "nextCloseTime"] {
                            guard let value = place.document[key]?[name]?.stringValue else { continue }
                            let date = try #require(ISO8601DateFormatter().date(from: value))
                            #expect(
                                date > instant && date.timeIntervalSince(instant) <= 7 * 86_400,
                                "\(id) \(key).\(name) \(value) at \(text)")
                            nextTimes += 1
                        }
                    }
                }
            }
        }
        #expect(nextTimes > 50, "next open or close times served: \(nextTimes)")
    }

    @Test("fetchPlace without a time serves now: never the captured openNow")
    func fetchPlaceNow() throws {
        // Open 24 hours, captured closed.
        #expect(try client.fetchPlace(id: "h2").document["regularOpeningHours"]?["openNow"] == true)
        // December 2025's current hours are stale by now.
        #expect(try client.fetchPlace(id: "h1").document["currentOpeningHours"] == nil)
    }

    @Test("fetchStoredPlace gives the record as captured")
    func stored() throws {
        let h1 = try client.fetchStoredPlace(id: "h1")
        #expect(h1.document["currentOpeningHours"]?["openNow"] == true)
        #expect(try client.fetchStoredPlace(id: "h2").document["regularOpeningHours"]?["openNow"] == false)
    }

    @Test("searchNearby serves openNow at the time asked, whole or masked")
    func searchNearbyAt() throws {
        let request = NearbySearchRequest(center: Coordinate(latitude: 10, longitude: 10))
        for fields in [FieldMask.all, try FieldMask(parsing: "id,regularOpeningHours,currentOpeningHours")] {
            let sunday = try client.searchNearby(request, fields: fields, at: Self.time(ServedHoursFixture.sunday))
            let h1 = try #require(sunday.first { $0.place.id == "h1" }).place
            #expect(h1.document["regularOpeningHours"]?["openNow"] == false)
            #expect(h1.document["currentOpeningHours"]?["openNow"] == false)
            let h2 = try #require(sunday.first { $0.place.id == "h2" }).place
            #expect(h2.document["regularOpeningHours"]?["openNow"] == true)
            let later = try client.searchNearby(request, fields: fields, at: Self.time(ServedHoursFixture.later))
            #expect(later.first { $0.place.id == "h1" }?.place.document["currentOpeningHours"] == nil)
        }
    }

    @Test("searchNearbyJSON gives what searchNearby serves")
    func searchNearbyJSONAgrees() throws {
        let request = NearbySearchRequest(center: Coordinate(latitude: 10, longitude: 10))
        for at in [ServedHoursFixture.sunday, ServedHoursFixture.later] {
            for mask in ["*", "id,regularOpeningHours.openNow,currentOpeningHours,regularSecondaryOpeningHours"] {
                let fields = try FieldMask(parsing: mask)
                let json = try JSONValue(parsing: client.searchNearbyJSON(request, fields: fields, at: Self.time(at)))
                let decoded = try client.searchNearby(request, fields: fields, at: Self.time(at))
                let listed = try #require(json["places"]?.arrayValue)
                #expect(!decoded.isEmpty, "\(mask) at \(at): no places to compare")
                #expect(listed.count == decoded.count)
                for (j, d) in zip(listed, decoded) {
                    for key in Place.hoursMembers {
                        #expect(j[key] == d.place.document[key], "\(mask) at \(at): \(d.place.id) \(key)")
                    }
                }
            }
        }
    }

    @Test("findPlaceLikelihoods serves openNow at the request's time, else now")
    func likelihoods() throws {
        var request = CurrentPlaceRequest(location: Coordinate(latitude: 10.00005, longitude: 10), accuracyMeters: 50)
        request.at = try Self.time(ServedHoursFixture.sunday)
        for fields in [FieldMask.all, try FieldMask(parsing: "id,regularOpeningHours")] {
            let list = try client.findPlaceLikelihoods(request, fields: fields)
            #expect(
                list.placeLikelihoods.first { $0.place.id == "h1" }?.place.document["regularOpeningHours"]?["openNow"]
                    == false)
        }
        let now = try client.findPlaceLikelihoods(
            CurrentPlaceRequest(location: Coordinate(latitude: 10.00005, longitude: 10), accuracyMeters: 50),
            fields: FieldMask(parsing: "id,regularOpeningHours"))
        #expect(
            now.placeLikelihoods.first { $0.place.id == "h2" }?.place.document["regularOpeningHours"]?["openNow"]
                == true)
    }
}
