package import PlaceModel

/// A place's business status as the index keeps it (one byte).
package enum StatusCode: UInt8 {
    case unknown = 0, operational, closedTemporarily, closedPermanently, futureOpening, other

    /// From the column's UTF-8 bytes, without making a string.
    package init(bytes b: UnsafeRawBufferPointer) {
        func equals(_ s: StaticString) -> Bool {
            s.utf8CodeUnitCount == b.count && s.withUTF8Buffer { $0.elementsEqual(b) }
        }
        if equals("OPERATIONAL") {
            self = .operational
        } else if equals("CLOSED_TEMPORARILY") {
            self = .closedTemporarily
        } else if equals("CLOSED_PERMANENTLY") {
            self = .closedPermanently
        } else if equals("FUTURE_OPENING") {
            self = .futureOpening
        } else {
            self = .other
        }
    }

    package var businessStatus: BusinessStatus? {
        switch self {
        case .operational: .operational
        case .closedTemporarily: .closedTemporarily
        case .closedPermanently: .closedPermanently
        case .futureOpening: .futureOpening
        case .unknown, .other: nil
        }
    }
}
