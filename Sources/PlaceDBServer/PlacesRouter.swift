import Foundation
import PlaceKit
import PlaceModel
import Synchronization

/// Maps requests to the Places API (New) routes and placedb's own, and
/// answers each in the API's shapes (docs/server.md). No sockets here:
/// `HTTPServer` feeds it, and tests call it directly too.
package final class PlacesRouter: Sendable {
    package let backend: ServerBackend
    package let configuration: ServerConfiguration
    private let defaultMask: FieldMask?
    private let apiKey: [UInt8]?
    /// Parsed masks by their text (clients send the same few masks).
    private let masks = Mutex<[String: FieldMask]>([:])
    /// Parsed list masks by the list's name and the mask's text.
    private let listMasks = Mutex<[ListMaskKey: FieldMask]>([:])
    /// The address the server listens on, once bound (the port chosen for 0).
    private let bound = Mutex<(host: String, port: UInt16)?>(nil)
    private let hosts: HostAllowList
    /// Image links handed out by photo media to clients that sent the key in a header.
    private let photoTokens = PhotoTokens()

    /// Where the map page's assets are (`MapPage.assets`).
    static let mapAssetPrefix = "/map/assets/"

    private struct ListMaskKey: Hashable {
        let prefix: String
        let text: String
    }

    package init(backend: ServerBackend, configuration: ServerConfiguration) throws {
        self.backend = backend
        self.configuration = configuration
        defaultMask = try configuration.defaultFieldMask.map { try FieldMask(parsing: $0) }
        apiKey = configuration.apiKey.map { Array($0.utf8) }
        hosts = HostAllowList(listening: configuration.host, allowed: configuration.allowedHosts)
    }

    /// Tells the router where the server listens (the port a 0 was given).
    @Sendable func listening(host: String, port: UInt16) {
        bound.withLock { $0 = (host, port) }
    }

    @Sendable package func respond(to request: HTTPRequest) -> HTTPResponse {
        do {
            return try route(request)
        } catch {
            return APIError(error).hidingPaths(backend.pathsToHide).response
        }
    }

    private func route(_ request: HTTPRequest) throws -> HTTPResponse {
        if let host = request.header("Host"), !hosts.allows(host) {
            throw APIError.permissionDenied(
                "the Host '\(host.prefix(255))' is not served here (a name placedb serve was not told of; DNS rebinding is refused); start it with --allow-host NAME to serve that name",
                reason: "HOST_NOT_ALLOWED")
        }
        let path = request.path
        func only(_ methods: String...) throws {
            if !methods.contains(request.method) {
                throw APIError.methodNotAllowed(request.method, path, allowed: methods)
            }
        }
        // The page's library, script and style hold no data: served without
        // the key (a <script src> cannot send its header). Their table (Leaflet
        // decoded from base64) is built by the first request for one.
        if path.hasPrefix(Self.mapAssetPrefix), let asset = MapPage.assets[path] {
            try only("GET", "HEAD")
            return HTTPResponse(
                status: 200, headers: MapPage.headers(contentType: asset.type) + [("Cache-Control", "no-cache")],
                body: asset.body)
        }
        try checkKey(request)
        let format = try ResponseFormat(request)
        switch path {
        case "/", "/index.html":
            try only("GET", "HEAD")
            return HTTPResponse(
                status: 200, headers: MapPage.headers(contentType: "text/html; charset=UTF-8"),
                body: Array(MapPage.html.utf8))
        case "/map/features":
            try only("GET", "HEAD")
            return try format.json(bytes: backend.mapFeaturesJSON(try Self.mapFeatureRequest(request)))
        case "/map/summary":
            try only("GET", "HEAD")
            return format.json(.object(try backend.mapSummaryJSON()))
        case "/v1/places:searchNearby":
            try only("POST")
            return try searchNearby(request, format)
        case "/v1/places:searchText":
            try only("POST")
            return try searchText(request, format)
        case "/v1/places:autocomplete":
            try only("POST")
            return try autocomplete(request, format)
        case "/placedb/v1/currentPlace":
            try only("POST")
            return try currentPlace(request, format)
        case "/placedb/v1/currentPlace:svg":
            try only("POST")
            let svg = try backend.currentPlaceSVG(try CurrentPlaceRequest(json: try body(request)))
            return HTTPResponse(status: 200, headers: [("Content-Type", "image/svg+xml")], body: svg)
        case "/placedb/v1/places:resolve":
            try only("POST")
            return try resolve(request, format)
        case "/placedb/v1/health":
            try only("GET", "HEAD")
            if let trouble = backend.databaseStatus() {
                var answer = format.json([
                    "status": "NOT_SERVING",
                    "reason": .string(APIError.internal(trouble).hidingPaths(backend.pathsToHide).message),
                    "placeCount": .int(Int64(try backend.placeCount())),
                ])
                answer.status = 503
                return answer
            }
            return format.json(["status": "SERVING", "placeCount": .int(Int64(try backend.placeCount()))])
        case "/placedb/v1/version":
            try only("GET", "HEAD")
            return format.json(["version": .string(configuration.version), "api": "places.googleapis.com/v1"])
        default:
            break
        }
        if path.hasPrefix("/v1/places/") {
            let rest = String(path.dropFirst("/v1/places/".count))
            if let photo = PhotoPath(rest, suffix: "/media") {
                try only("GET", "HEAD")
                return try photoMedia(request, photo, format)
            }
            try only("GET", "HEAD")
            return try placeDetails(request, id: rest, format)
        }
        if path.hasPrefix("/map/places/"), path.count > "/map/places/".count {
            try only("GET", "HEAD")
            return format.json(
                .object(try backend.mapPlaceJSON(id: PlaceID(parsing: String(path.dropFirst("/map/places/".count))))))
        }
        if path.hasPrefix("/placedb/v1/places/") {
            let rest = String(path.dropFirst("/placedb/v1/places/".count))
            if let photo = PhotoPath(rest, suffix: "/image") {
                try only("GET", "HEAD")
                return try photoImage(request, photo)
            }
            if rest.hasSuffix("/openStatus"), rest.count > "/openStatus".count {
                try only("GET", "HEAD")
                return try openStatus(request, id: String(rest.dropLast("/openStatus".count)), format)
            }
        }
        throw APIError.notFound(
            "Method not found: \(request.method) \(path) (see docs/server.md)", reason: "METHOD_NOT_FOUND")
    }

    // MARK: - The map page

    /// `bbox=west,south,east,north` (degrees; required), `zoom` (0...24;
    /// default: the one that fits the box's width in 1,024 pixels),
    /// `limit` (1...5000, default 2000).
    static func mapFeatureRequest(_ request: HTTPRequest) throws -> MapFeatureRequest {
        guard let text = request.query("bbox") else {
            throw APIError.invalidArgument(
                "bbox is required: west,south,east,north in degrees (e.g. bbox=6.62,46.51,6.64,46.53)")
        }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double(trimmed($0)) }
        guard parts.count == 4, let w = parts[0], let s = parts[1], let e = parts[2], let n = parts[3],
            [w, s, e, n].allSatisfy(\.isFinite)
        else {
            throw APIError.invalidArgument(
                "bbox must be four numbers west,south,east,north in degrees, not '\(text.prefix(100))'")
        }
        guard (-180...180).contains(w), (-180...180).contains(e), (-90...90).contains(s), (-90...90).contains(n), w < e,
            s < n
        else {
            throw APIError.invalidArgument(
                "bbox must have -180 <= west < east <= 180 and -90 <= south < north <= 90, not '\(text.prefix(100))'")
        }
        var zoom = max(0, min(24, Int((log2(360 * 4 / (e - w))).rounded(.down))))
        if let z = request.query("zoom") {
            guard let v = Int(z), (0...24).contains(v) else {
                throw APIError.invalidArgument("zoom must be an integer from 0 to 24, not '\(z.prefix(40))'")
            }
            zoom = v
        }
        var limit = MapFeatureRequest.defaultLimit
        if let l = request.query("limit") {
            guard let v = Int(l), (1...MapFeatureRequest.maxLimit).contains(v) else {
                throw APIError.invalidArgument(
                    "limit must be an integer from 1 to \(MapFeatureRequest.maxLimit), not '\(l.prefix(40))'")
            }
            limit = v
        }
        return MapFeatureRequest(rect: GeoRect(south: s, west: w, north: n, east: e), zoom: zoom, limit: limit)
    }

    // MARK: - Key

    /// `X-Goog-Api-Key` or `?key=`, compared in constant time.
    private func checkKey(_ request: HTTPRequest) throws {
        guard let apiKey else { return }
        // The image link photo media gave a client that sent its key in a
        // header (a redirect does not carry the header; the link is good
        // for that photo only, for an hour).
        if let token = request.query("token"), request.path.hasPrefix("/placedb/v1/places/"),
            let photo = PhotoPath(String(request.path.dropFirst("/placedb/v1/places/".count)), suffix: "/image"),
            photoTokens.valid(token, for: photo.name)
        {
            return
        }
        guard let given = request.header("X-Goog-Api-Key") ?? request.query("key") else { throw APIError.apiKeyMissing }
        if !Self.constantTimeEqual(Array(given.utf8), apiKey) { throw APIError.apiKeyInvalid }
    }

    /// Equal bytes, in a time that depends only on the lengths.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var diff = UInt8(a.count == b.count ? 0 : 1)
        let n = max(a.count, b.count)
        for i in 0..<n {
            let x = i < a.count ? a[i] : 0
            let y = i < b.count ? b[i] : 0
            diff |= x ^ y
        }
        return diff == 0
    }

    // MARK: - Field masks

    /// The mask of `X-Goog-FieldMask`, else `fields`/`$fields`, else
    /// `--default-field-mask`, else the 400 the API answers.
    private func maskText(_ request: HTTPRequest, required: Bool) throws -> String? {
        if let m = request.header("X-Goog-FieldMask") ?? request.query("fields") ?? request.query("$fields") {
            if trimmed(m).isEmpty {
                throw APIError.invalidArgument("the field mask is empty; list the fields to return (or * for all)")
            }
            return m
        }
        if let defaultField = configuration.defaultFieldMask { return defaultField }
        if required {
            throw APIError.invalidArgument(
                "FieldMask is a required parameter. See https://developers.google.com/maps/documentation/places/web-service/choose-fields on how to provide it (X-Goog-FieldMask header or fields= parameter)."
            )
        }
        return nil
    }

    /// A list mask (`places.id,places.displayName`): each path names a
    /// member of the list's items; `prefix` is the list's name.
    private func listMask(_ request: HTTPRequest, prefix: String, required: Bool) throws -> FieldMask {
        guard let text = try maskText(request, required: required) else { return .all }
        let key = ListMaskKey(prefix: prefix, text: text)
        if let known = listMasks.withLock({ $0[key] }) { return known }
        let parsed = try parseListMask(text, prefix: prefix)
        listMasks.withLock { cache in
            if cache.count >= 1024 { cache.removeAll() }
            cache[key] = parsed
        }
        return parsed
    }

    /// `listMask`'s answer for the mask's text (not remembered).
    private func parseListMask(_ text: String, prefix: String) throws -> FieldMask {
        let items = text.split(separator: ",").map(trimmed).filter { !$0.isEmpty }
        var paths: [String] = []
        for item in items {
            if item == "*" || item == prefix || item == "\(prefix).*" { return .all }
            if item.hasPrefix(prefix + ".") {
                paths.append(String(item.dropFirst(prefix.count + 1)))
            } else if prefix == "places" {
                throw APIError.invalidArgument(
                    "field mask path '\(item)' must start with '\(prefix).' (e.g. \(prefix).displayName)")
            } else {
                paths.append(item)
            }
        }
        return try mask(paths.joined(separator: ","))
    }

    /// `FieldMask(parsing:)`, remembered.
    private func mask(_ text: String) throws -> FieldMask {
        if let known = masks.withLock({ $0[text] }) { return known }
        let parsed = try FieldMask(parsing: text)
        masks.withLock { cache in
            if cache.count >= 1024 { cache.removeAll() }
            cache[text] = parsed
        }
        return parsed
    }

    // MARK: - Routes

    private func placeDetails(_ request: HTTPRequest, id: String, _ format: ResponseFormat) throws -> HTTPResponse {
        guard !id.isEmpty else { throw APIError.invalidArgument("missing place ID in /v1/places/{id}") }
        // `openNow` is computed, not stored (as `placedb place --fields`).
        var text = try maskText(request, required: true)!
        var openNow = false
        if text.contains("openNow") {
            let items = text.split(separator: ",").map(trimmed)
            if items.contains("openNow") {
                openNow = true
                text = items.filter { $0 != "openNow" }.joined(separator: ",")
            }
        }
        let mask: FieldMask? = text.isEmpty ? nil : try self.mask(text)
        do {
            return try format.json(
                bytes: backend.placeDetailsJSON(
                    id: PlaceID(parsing: id), mask: mask,
                    language: try Self.languageCode(request.query("languageCode")),
                    openNow: openNow, at: .instant(Date())))
        } catch PlaceDBError.notFound where id.contains("/") && !PlaceIDSpelling.isOldOSM(id) {
            throw APIError.invalidArgument(Self.slashRule(id))
        }
    }

    /// A request's `languageCode` (nil: none, or empty); a malformed tag is 400.
    static func languageCode(_ text: String?) throws -> String? {
        guard let text, !text.isEmpty else { return nil }
        guard NameLanguage.isValidTag(text) else {
            throw APIError.invalidArgument(
                "languageCode '\(text.prefix(40))' is not a language tag (BCP 47: en, sv, en-GB, zh-Hant)")
        }
        return text
    }

    /// Why a place ID with a `/` that is no older spelling of a stored ID
    /// is refused (docs/server.md#place-ids).
    static func slashRule(_ id: String) -> String {
        "a place ID is one path segment and holds no '/': '\(id.count > 120 ? id.prefix(117) + "..." : id)' is neither an OpenStreetMap ID in the old spelling (osm:node/1, now osm:n1) nor the source spelling of a stored ID (a/b, stored as a%2Fb); see docs/server.md#place-ids"
    }

    private func searchNearby(_ request: HTTPRequest, _ format: ResponseFormat) throws -> HTTPResponse {
        var json = try body(request)
        if let r = json["rankPreference"], let n = r.intValue {
            guard let name = EnumEncoding.rankPreference[n] else {
                throw APIError.invalidArgument("rankPreference must be 0, 1 or 2 (or DISTANCE, POPULARITY), not \(n)")
            }
            json["rankPreference"] = .string(name)
        }
        let fields = try listMask(request, prefix: "places", required: true)
        let nearby = try NearbySearchRequest(json: json)
        // The API's limits (the CLI allows more).
        guard (1...20).contains(nearby.maxResultCount) else {
            throw APIError.invalidArgument("maxResultCount must be between 1 and 20, not \(nearby.maxResultCount)")
        }
        guard let radius = nearby.radiusMeters else {
            throw APIError.invalidArgument("locationRestriction.circle.radius is required")
        }
        guard radius > 0 && radius <= 50_000 else {
            throw APIError.invalidArgument(
                "locationRestriction.circle.radius must be greater than 0 and at most 50000 meters, not \(radius)")
        }
        return try format.json(bytes: backend.searchNearbyJSON(nearby, fields: fields))
    }

    private func currentPlace(_ request: HTTPRequest, _ format: ResponseFormat) throws -> HTTPResponse {
        let fields = try listMask(request, prefix: "placeLikelihoods.place", required: false)
        return try format.json(
            bytes: backend.findPlaceLikelihoodsJSON(try CurrentPlaceRequest(json: try body(request)), fields: fields))
    }

    private func resolve(_ request: HTTPRequest, _ format: ResponseFormat) throws -> HTTPResponse {
        let json = try body(request)
        for key in json.keys where key != "placeIds" {
            throw APIError.invalidArgument("unknown field '\(key)'; expected placeIds")
        }
        guard let list = json["placeIds"]?.arrayValue else {
            throw APIError.invalidArgument("placeIds is required: an array of place IDs")
        }
        var ids: [PlaceID] = []
        for (i, v) in list.enumerated() {
            guard let s = v.stringValue, !s.isEmpty else {
                throw APIError.invalidArgument("placeIds[\(i)] must be a non-empty string")
            }
            ids.append(PlaceID(parsing: s))
        }
        guard ids.count <= 10_000 else {
            throw APIError.invalidArgument("at most 10000 placeIds a request, not \(ids.count)")
        }
        return format.json(["results": .array(try backend.resolve(ids).map(\.json))])
    }

    private func openStatus(_ request: HTTPRequest, id: String, _ format: ResponseFormat) throws -> HTTPResponse {
        var time = HoursQueryTime.instant(Date())
        if let at = request.query("at"), at != "now" {
            guard let t = HoursQueryTime(parsing: at) else {
                throw APIError.invalidArgument(
                    "at must be an RFC 3339 time such as 2026-05-01T12:30:00Z, 2026-05-01T12:30 (the wall clock at the place) or now, not '\(at)'"
                )
            }
            time = t
        }
        var secondary: SecondaryHoursType?
        if let kind = request.query("hours"), kind != "regular" {
            guard SecondaryHoursType.allKnown.map(\.rawValue).contains(kind) else {
                throw APIError.invalidArgument(
                    "hours must be regular or one of \(SecondaryHoursType.allKnown.map(\.rawValue).joined(separator: ", ")), not '\(kind)'"
                )
            }
            secondary = SecondaryHoursType(rawValue: kind)
        }
        return format.json(.object(try backend.openStatus(id: PlaceID(parsing: id), at: time, secondary: secondary)))
    }

    // MARK: - Photos

    /// `places/{id}/photos/{ref}` out of `{id}/photos/{ref}{suffix}`.
    struct PhotoPath {
        let name: String
        init?(_ rest: String, suffix: String) {
            // "/photos/" is looked for before the suffix only: in
            // `ID/photos/media` the two would share a slash.
            guard rest.hasSuffix(suffix) else { return nil }
            let head = rest.dropLast(suffix.count)
            guard let r = head.range(of: "/photos/", options: .backwards) else { return nil }
            let id = head[..<r.lowerBound]
            let ref = head[r.upperBound...]
            guard !id.isEmpty, !ref.isEmpty, !ref.contains("/") else { return nil }
            // The place ID in placedb's spelling (`osm:node/1` is `osm:n1`).
            name = "places/\(PlaceIDSpelling.canonical(String(id)))/photos/\(ref)"
        }
    }

    /// `maxWidthPx` and `maxHeightPx`: at least one, each in 1...4800.
    private func photoSize(_ request: HTTPRequest) throws -> (width: Int, height: Int) {
        func pixels(_ name: String) throws -> Int? {
            guard let text = request.query(name) else { return nil }
            guard let n = Int(text), (1...PhotoLimits.maxPixelSize).contains(n) else {
                throw APIError.invalidArgument(
                    "\(name) must be an integer between 1 and \(PhotoLimits.maxPixelSize), not '\(text)'")
            }
            return n
        }
        let w = try pixels("maxWidthPx"), h = try pixels("maxHeightPx")
        if w == nil && h == nil {
            throw APIError.invalidArgument(
                "give maxWidthPx or maxHeightPx (or both), each between 1 and \(PhotoLimits.maxPixelSize)")
        }
        return (w ?? PhotoLimits.maxPixelSize, h ?? PhotoLimits.maxPixelSize)
    }

    private func photoMedia(_ request: HTTPRequest, _ photo: PhotoPath, _ format: ResponseFormat) throws -> HTTPResponse
    {
        let size = try photoSize(request)
        // Only a photo whose image is here gets a link: a link that would
        // answer 404 is a 404 now (with skipHttpRedirect too).
        guard let hasImage = try backend.photoHasImage(name: photo.name) else {
            throw APIError.notFound("no photo '\(photo.name)'", reason: "PHOTO_NOT_FOUND")
        }
        if !hasImage {
            throw APIError.notFound(
                "photo '\(photo.name)' has no local image on this server (placedb photo add stores one)",
                reason: "PHOTO_MEDIA_NOT_FOUND")
        }
        var query = "maxWidthPx=\(size.width)&maxHeightPx=\(size.height)"
        if let key = request.query("key") {
            query += "&key=" + (key.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        } else if apiKey != nil {
            // The key came in a header, which the redirect's request will not carry.
            query += "&token=" + photoTokens.issue(for: photo.name)
        }
        let encoded = photo.name.addingPercentEncoding(withAllowedCharacters: Self.pathCharacters) ?? photo.name
        let uri = "\(origin(request))/placedb/v1/\(encoded)/image?\(query)"
        let skip = request.query("skipHttpRedirect")
        if skip == "true" || skip == "1" {
            return format.json(["name": .string(photo.name + "/media"), "photoUri": .string(uri)])
        }
        return HTTPResponse(
            status: 302, headers: [("Location", uri), ("Content-Type", "text/plain; charset=UTF-8")],
            body: Array("Found: \(uri)\n".utf8))
    }

    /// The image bytes, from the database only.
    private func photoImage(_ request: HTTPRequest, _ photo: PhotoPath) throws -> HTTPResponse {
        let size = try photoSize(request)
        let image = try backend.photo(name: photo.name, maxWidth: size.width, maxHeight: size.height)
        return HTTPResponse(
            status: 200,
            headers: [("Content-Type", image.format.mediaType), ("Cache-Control", "private, max-age=3600")],
            body: image.data)
    }

    static let pathCharacters: CharacterSet = {
        var s = CharacterSet.alphanumerics
        s.insert(charactersIn: "-._~/:@!$&'()*+,;=")
        return s
    }()

    /// `http://` and the request's Host when it is a plain ASCII
    /// host[:port] (the allow-list has passed it), else the address the
    /// server listens on, with the port it was given.
    private func origin(_ request: HTTPRequest) -> String {
        if let host = request.header("Host"), !host.isEmpty, host.utf8.count < 256,
            host.utf8.allSatisfy(HostAllowList.isHostByte)
        {
            return "http://\(host)"
        }
        let (host, port) = bound.withLock { $0 } ?? (configuration.host, configuration.port)
        return "http://\(HostAllowList.urlHost(listening: host)):\(port)"
    }

    /// Text Search: the body as `placedb search --batch` reads it, with the
    /// API's limits (a non-blank textQuery; `pageSize` and `maxResultCount`
    /// 0 or absent for 20, above 20 served as 20, negative refused; a bias
    /// circle's radius 0...50000). The mask may name the response's other
    /// members: `nextPageToken` (written when there is a next page),
    /// `routingSummaries`, `contextualContents`, `searchUri` (never written
    /// here: docs/server.md).
    private func searchText(_ request: HTTPRequest, _ format: ResponseFormat) throws -> HTTPResponse {
        var json = try body(request)
        if let r = json["rankPreference"], let n = r.intValue {
            guard let name = EnumEncoding.textRankPreference[n] else {
                throw APIError.invalidArgument("rankPreference must be 0, 1 or 2 (or DISTANCE, RELEVANCE), not \(n)")
            }
            json["rankPreference"] = .string(name)
        }
        let (fields, nextPageToken, places) = try searchTextMask(request)
        if let q = json["textQuery"]?.stringValue, trimmed(q).isEmpty {
            throw APIError.invalidArgument("textQuery must not be empty")
        }
        for key in ["maxResultCount", "pageSize"] {
            guard let v = json[key] else { continue }
            guard let n = v.intValue else {
                throw APIError.invalidArgument("\(key) must be an integer, not \(JSONWriter().string(v).prefix(100))")
            }
            if n < 0 { throw APIError.invalidArgument("\(key) must not be negative, not \(n)") }
            // 0 is the default (20); more than 20 is served as 20 (the API's rules).
            if n == 0 { json[key] = nil } else if n > 20 { json[key] = .int(20) }
        }
        do {
            let search = try TextSearchRequest(json: json)
            if case .circle(_, let r)? = search.locationBias, let r, r > 50_000 {
                throw APIError.invalidArgument(
                    "locationBias.circle.radius must be greater than 0 and at most 50000 meters, not \(r)")
            }
            return try format.json(
                bytes: backend.searchTextJSON(search, fields: fields, nextPageToken: nextPageToken, places: places))
        } catch let error as PlaceDBError {
            throw Self.pageTokenError(error) ?? APIError(error)
        }
    }

    /// A refused page token, with its reason (`PAGE_TOKEN_INVALID`).
    private static func pageTokenError(_ error: PlaceDBError) -> APIError? {
        guard case .invalidArgument(let m) = error, m.hasPrefix("pageToken") else { return nil }
        return APIError.invalidArgument(m, reason: "PAGE_TOKEN_INVALID")
    }

    /// The members of the searchText response (the discovery document's
    /// `SearchTextResponse`) besides `places`.
    static let searchTextTopLevel: Set<String> = [
        "nextPageToken", "routingSummaries", "contextualContents", "searchUri",
    ]

    /// searchText's mask: the paths under `places.`, whether it asks for
    /// `nextPageToken`, and whether for places at all (`*` asks for all).
    private func searchTextMask(_ request: HTTPRequest) throws -> (FieldMask, nextPageToken: Bool, places: Bool) {
        guard let text = try maskText(request, required: true) else { return (.all, true, true) }
        guard
            text.contains("nextPageToken") || text.contains("routingSummaries") || text.contains("contextualContents")
                || text.contains("searchUri")
        else {
            let all = text.contains("*") && text.split(separator: ",").contains { trimmed($0) == "*" }
            return (try listMask(request, prefix: "places", required: true), all, true)
        }
        var rest: [String] = []
        var token = false
        for item in text.split(separator: ",").map(trimmed) where !item.isEmpty {
            if Self.searchTextTopLevel.contains(item) {
                if item == "nextPageToken" { token = true }
            } else {
                rest.append(item)
            }
        }
        if rest.isEmpty { return (.all, token, false) }
        let parsed = try parseListMask(rest.joined(separator: ","), prefix: "places")
        return (parsed, token || rest.contains("*"), true)
    }

    /// Autocomplete: the body as `placedb autocomplete --batch` reads it;
    /// a field mask (optional, as in the API) keeps the paths it names
    /// (`suggestions.placePrediction.placeId`, ...).
    private func autocomplete(_ request: HTTPRequest, _ format: ResponseFormat) throws -> HTTPResponse {
        let complete = try AutocompleteRequest(json: try body(request))
        guard let text = try maskText(request, required: false) else {
            return try format.json(bytes: try backend.autocompleteJSON(complete))
        }
        let paths = text.split(separator: ",").map(trimmed).filter { !$0.isEmpty }
        if paths.contains("*") { return try format.json(bytes: try backend.autocompleteJSON(complete)) }
        for p in paths where !p.hasPrefix("suggestions") {
            throw APIError.invalidArgument(
                "field mask path '\(p)' must start with 'suggestions' (e.g. suggestions.placePrediction.placeId)")
        }
        for p in paths { try Self.checkAutocompletePath(p) }
        return try format.json(
            bytes: try backend.autocompleteJSON(
                complete, keeping: paths.map { $0.split(separator: ".").map(String.init) }))
    }

    /// The autocomplete response's members, as the API's discovery document
    /// gives them (`AutocompletePlacesResponse`): a mask path must name
    /// one, as the API checks (it answers 400).
    private static let autocompleteSchema: MaskSchema = {
        let text = MaskSchema(["text": .leaf, "matches": MaskSchema(["startOffset": .leaf, "endOffset": .leaf])])
        let structured = MaskSchema(["mainText": text, "secondaryText": text])
        return MaskSchema([
            "suggestions": MaskSchema([
                "placePrediction": MaskSchema([
                    "place": .leaf, "placeId": .leaf, "text": text, "structuredFormat": structured,
                    "types": .leaf, "distanceMeters": .leaf,
                ]),
                "queryPrediction": MaskSchema(["text": text, "structuredFormat": structured]),
            ])
        ])
    }()

    /// A 400 unless `path` names a member of the autocomplete response (`*` last: all below).
    static func checkAutocompletePath(_ path: String) throws {
        var node = autocompleteSchema
        var walked: [Substring] = []
        for part in path.split(separator: ".", omittingEmptySubsequences: false) {
            if part == "*", walked.count == path.split(separator: ".", omittingEmptySubsequences: false).count - 1 {
                return
            }
            guard let below = node.members?[String(part)] else {
                let at = walked.isEmpty ? "the response" : walked.joined(separator: ".")
                let known = node.members.map { $0.keys.sorted().joined(separator: ", ") }
                throw APIError.invalidArgument(
                    "field mask path '\(path)': \(at) has no member '\(part)'"
                        + (known.map { " (members: \($0))" } ?? " (it has no sub-fields)"))
            }
            walked.append(part)
            node = below
        }
    }

    // MARK: - Bodies

    /// The request body as a JSON object, or the 400 the API gives.
    private func body(_ request: HTTPRequest) throws -> JSONObject {
        if request.body.isEmpty { throw APIError.invalidArgument("the request body is empty; expected a JSON object") }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: request.body)
        } catch let e as JSONSyntaxError {
            throw APIError.invalidArgument("invalid JSON payload: \(e.message) at byte \(e.offset + 1)")
        }
        guard case .object(let o) = value else {
            throw APIError.invalidArgument("invalid JSON payload: expected an object, got \(value.kindDescription)")
        }
        return o
    }
}

/// `s` without ASCII spaces and tabs at either end.
func trimmed<S: StringProtocol>(_ s: S) -> String {
    var sub = Substring(s)
    while let f = sub.first, f == " " || f == "\t" { sub.removeFirst() }
    while let l = sub.last, l == " " || l == "\t" { sub.removeLast() }
    return String(sub)
}

/// A JSON response's shape for checking mask paths: its members, or none (a leaf).
struct MaskSchema: Sendable {
    let members: [String: MaskSchema]?
    init(_ members: [String: MaskSchema]) { self.members = members }
    private init() { members = nil }
    static let leaf = MaskSchema()
}
