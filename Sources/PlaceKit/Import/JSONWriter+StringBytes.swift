import Foundation
import PlaceModel

extension JSONWriter {
    func stringBytes(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        write(value, into: &out)
        return out
    }
}
