import CSQLite

/// A value stored in or bound to SQLite.
package enum DatabaseValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    package var int64: Int64? {
        switch self {
        case .integer(let v): v
        case .real(let v): Int64(exactly: v)
        default: nil
        }
    }
    package var int: Int? { int64.map { Int($0) } }
    package var double: Double? {
        switch self {
        case .integer(let v): Double(v)
        case .real(let v): v
        default: nil
        }
    }
    package var string: String? {
        if case .text(let s) = self { return s }
        return nil
    }
    package var blob: [UInt8]? {
        if case .blob(let b) = self { return b }
        return nil
    }
    package var isNull: Bool { self == .null }
}

extension DatabaseValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByNilLiteral
{
    package init(stringLiteral value: String) { self = .text(value) }
    package init(integerLiteral value: Int64) { self = .integer(value) }
    package init(floatLiteral value: Double) { self = .real(value) }
    package init(nilLiteral: ()) { self = .null }
}

extension DatabaseValue {
    package init(_ value: String?) { self = value.map { .text($0) } ?? .null }
    package init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
    package init(_ value: Int64?) { self = value.map { .integer($0) } ?? .null }
    package init(_ value: Double?) { self = value.map { .real($0) } ?? .null }
}
