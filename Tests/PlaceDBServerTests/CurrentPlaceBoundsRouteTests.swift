import Foundation
import Testing
@testable import PlaceDBServer
import PlaceKit
import PlaceModel

/// The probe's hang through the server: `POST
/// /placedb/v1/currentPlace:svg` with accuracyMeters 1e308 held an event
/// loop forever. The library refuses the request; the server answers 400.
@Suite("currentPlace routes: bounded inputs")
struct CurrentPlaceBoundsRouteTests {
    @Test(
        "accuracyMeters 1e308 or over 50 km is answered 400 INVALID_ARGUMENT by both currentPlace routes",
        arguments: ["1e308", "50000.5", "1.7976931348623157e308"])
    func absurdAccuracy(accuracy: String) throws {
        let f = try ServerFixture()
        let router = try f.router()
        let body = #"{"location":{"latitude":46.5201,"longitude":6.6301},"accuracyMeters":\#(accuracy)}"#
        for path in ["/placedb/v1/currentPlace:svg", "/placedb/v1/currentPlace"] {
            let r = router.call("POST", path, headers: ["X-Goog-FieldMask": "*"], body: body)
            #expect(r.status == 400, "\(path): \(r.text)")
            #expect(r.errorStatus == "INVALID_ARGUMENT", "\(path)")
            #expect(r.text.contains("at most 50000"), "\(path): \(r.text)")
        }
        let ok = router.call(
            "POST", "/placedb/v1/currentPlace:svg",
            body: #"{"location":{"latitude":46.5201,"longitude":6.6301},"accuracyMeters":50000}"#)
        #expect(ok.status == 200)
    }
}
