/// Why a record is not a place placedb can store.
public struct DecodeError: Error, Sendable, Equatable {
    public let message: String
    /// The record's place ID, when it had one.
    public let placeID: String?

    package init(_ message: String, placeID: String? = nil) {
        self.message = message
        self.placeID = placeID
    }
}
