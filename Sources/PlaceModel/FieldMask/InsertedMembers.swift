#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Members written apart from a document, to be put back among its
/// members (`PlaceJSON.write(...inserted:...)`): their bytes, and for each
/// its position among the whole document's members (ascending) and where
/// it is in `bytes`.
package struct InsertedMembers {
    package var bytes: [UInt8] = []
    package var members: [(position: Int, span: JSONParser.MemberSpan)] = []

    package init() {}
}
