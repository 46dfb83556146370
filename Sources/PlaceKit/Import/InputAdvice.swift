import PlaceModel

/// What to do with an input placedb does not read as places: a line of
/// advice, or what it is when placedb reads such a thing another way (the
/// error's `InputError.Found`, which the library and the command line each
/// put in their own words).
enum InputAdvice: Equatable, ExpressibleByStringLiteral {
    case text(String)
    case image
    case sqliteDatabase

    init(stringLiteral value: String) { self = .text(value) }
}
