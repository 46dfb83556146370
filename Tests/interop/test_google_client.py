"""Google's official Places client (google-maps-places, REST transport)
against `placedb serve`: every answer must equal, member for member, what
the CLI prints for the same request (both parsed into the client's protos).

Run by Scripts/test after the Swift suite:
    PLACEDB=.build/debug/placedb python3 -m unittest discover -s Tests/interop -v
Skipped, saying so, only when google.maps.places_v1 cannot be imported.
"""
import json
import os
import subprocess
import sys
import tempfile
import threading
import unittest
import urllib.error
import urllib.request

try:
    from google.api_core import exceptions as gexc
    from google.api_core.client_options import ClientOptions
    from google.auth.credentials import AnonymousCredentials
    from google.maps import places_v1
    IMPORT_ERROR = None
except Exception as e:  # pragma: no cover
    IMPORT_ERROR = e

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pysupport"))
from placedb_process import PLACEDB, ROOT, Server, cli, write_lines  # noqa: E402

PHOTO = os.path.join(ROOT, "Scripts", "sample", "photos", "demo-photo-0.jpg")

PLACES = [
    {"id": "cafe", "displayName": {"text": "Café du Lac", "languageCode": "fr"},
     "location": {"latitude": 46.5201, "longitude": 6.6301}, "types": ["cafe", "food"], "primaryType": "cafe",
     "userRatingCount": 10, "rating": 4.5, "businessStatus": "OPERATIONAL", "priceLevel": "PRICE_LEVEL_MODERATE",
     "utcOffsetMinutes": 60, "formattedAddress": "Place de la Riponne 1, 1005 Lausanne",
     "regularOpeningHours": {"periods": [{"open": {"day": 1, "hour": 8, "minute": 0}, "close": {"day": 1, "hour": 18, "minute": 0}}],
                             "weekdayDescriptions": ["Monday: 8:00 AM – 6:00 PM"]},
     "photos": [{"name": "places/cafe/photos/demo-photo-0", "widthPx": 1600, "heightPx": 1200,
                 "authorAttributions": [{"displayName": "placedb demo", "uri": "https://example.org/demo"}]}]},
    {"id": "bar", "displayName": {"text": "Bar"}, "location": {"latitude": 46.5205, "longitude": 6.6305},
     "types": ["bar"], "primaryType": "bar", "userRatingCount": 500, "businessStatus": "CLOSED_TEMPORARILY"},
    {"id": "park", "displayName": {"text": "Parc"}, "location": {"latitude": 46.521, "longitude": 6.631},
     "types": ["park"], "primaryType": "park"},
    {"id": "old", "displayName": {"text": "Café du Lac (old)"}, "location": {"latitude": 46.5201, "longitude": 6.6301},
     "types": ["cafe"], "businessStatus": "CLOSED_PERMANENTLY", "movedPlaceId": "cafe"},
]


def client(endpoint):
    return places_v1.PlacesClient(transport="rest", credentials=AnonymousCredentials(),
                                  client_options=ClientOptions(api_endpoint=endpoint))


class ServedDatabase(unittest.TestCase):
    """A database that `build(directory, db)` fills, served by placedb
    (with `server_args`) for the class's tests, and Google's client on it."""
    prefix = "placedb-interop-"
    server_args = ()

    @classmethod
    def build(cls, directory, db):
        raise NotImplementedError

    @staticmethod
    def import_records(directory, db, name, records):
        """Writes `records` one JSON per line to `directory/name` and imports them into `db`."""
        src = write_lines(os.path.join(directory, name), records)
        subprocess.run([PLACEDB, "import", src, "--db", db], check=True, capture_output=True)

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix=cls.prefix)
        cls.db = os.path.join(cls.tmp.name, "places.sqlite")
        cls.build(cls.tmp.name, cls.db)
        cls.server = Server(cls.db, *cls.server_args)
        cls.client = client(cls.server.endpoint)

    @classmethod
    def tearDownClass(cls):
        code = cls.server.stop()
        cls.tmp.cleanup()
        assert code == 0, f"placedb serve exited {code} on SIGTERM"


@unittest.skipIf(IMPORT_ERROR is not None, f"google-maps-places cannot be imported ({IMPORT_ERROR}); pip install google-maps-places")
class GoogleClientTests(ServedDatabase):
    @classmethod
    def build(cls, directory, db):
        cls.import_records(directory, db, "places.ndjson", PLACES)
        cli("photo", "add", "places/cafe/photos/demo-photo-0", PHOTO, db=db)

    def mask(self, fields):
        return [("x-goog-fieldmask", fields)]

    def assertAPIError(self, exception, status, call):
        """Over REST, api_core picks the exception class by HTTP code
        (400 BadRequest, the parent of InvalidArgument; 403 Forbidden, of
        PermissionDenied); the body carries the API's status name."""
        with self.assertRaises(exception) as ctx:
            call()
        self.assertEqual(ctx.exception.response.json()["error"]["status"], status)
        return ctx.exception

    # Place Details

    def test_get_place_equals_cli_for_each_mask(self):
        for mask in ["id,displayName", "id,displayName,location,types,rating,userRatingCount,businessStatus,priceLevel",
                     "formattedAddress,regularOpeningHours,photos", "*"]:
            with self.subTest(mask=mask):
                got = self.client.get_place(name="places/cafe", metadata=self.mask(mask))
                want = places_v1.Place.from_json(cli("place", "cafe", "--fields", mask, "--output", "json", db=self.db),
                                                 ignore_unknown_fields=True)
                self.assertEqual(got, want)
                if "id" in mask or mask == "*":
                    self.assertEqual(got.id, "cafe")
        limited = self.client.get_place(name="places/cafe", metadata=self.mask("id,displayName"))
        self.assertEqual(limited.display_name.text, "Café du Lac")
        self.assertEqual(limited.rating, 0)  # not in the mask, not sent
        full = self.client.get_place(name="places/cafe", metadata=self.mask("businessStatus,priceLevel"))
        self.assertEqual(full.business_status, places_v1.Place.BusinessStatus.OPERATIONAL)
        self.assertEqual(full.price_level, places_v1.PriceLevel.PRICE_LEVEL_MODERATE)

    def test_get_place_old_id_answers_current_place(self):
        got = self.client.get_place(name="places/old", metadata=self.mask("id,displayName"))
        self.assertEqual(got.id, "cafe")

    def test_get_place_errors(self):
        self.assertAPIError(gexc.NotFound, "NOT_FOUND", lambda: self.client.get_place(name="places/nowhere", metadata=self.mask("id")))
        e = self.assertAPIError(gexc.BadRequest, "INVALID_ARGUMENT", lambda: self.client.get_place(name="places/cafe", metadata=self.mask("id,colour")))
        self.assertIn("colour", e.message)
        e = self.assertAPIError(gexc.BadRequest, "INVALID_ARGUMENT", lambda: self.client.get_place(name="places/cafe"))  # no mask
        self.assertIn("FieldMask is a required parameter", e.message)

    # searchNearby

    def nearby_request(self, **extra):
        return places_v1.SearchNearbyRequest(
            location_restriction=places_v1.SearchNearbyRequest.LocationRestriction(
                circle=places_v1.Circle(center={"latitude": 46.52, "longitude": 6.63}, radius=500)), **extra)

    def test_search_nearby_equals_cli(self):
        # Without rank_preference the API ranks by popularity; the CLI by distance unless told.
        for extra, args in [({}, ["--rank", "popularity"]), ({"max_result_count": 2}, ["--limit", "2", "--rank", "popularity"]),
                            ({"included_types": ["cafe"]}, ["--type", "cafe", "--rank", "popularity"]),
                            ({"rank_preference": places_v1.SearchNearbyRequest.RankPreference.POPULARITY}, ["--rank", "popularity"]),
                            ({"rank_preference": places_v1.SearchNearbyRequest.RankPreference.DISTANCE}, [])]:
            with self.subTest(extra=str(extra)):
                got = self.client.search_nearby(request=self.nearby_request(**extra), metadata=self.mask("places.id,places.displayName,places.businessStatus"))
                out = cli("nearby", "46.52,6.63", "--radius", "500", "--fields", "id,displayName,businessStatus", "--output", "json", *args, db=self.db)
                want = places_v1.SearchNearbyResponse.from_json(out, ignore_unknown_fields=True)
                self.assertEqual(got, want)
                self.assertGreater(len(got.places), 0)

    def test_search_nearby_limits(self):
        self.assertAPIError(gexc.BadRequest, "INVALID_ARGUMENT",
                            lambda: self.client.search_nearby(request=self.nearby_request(max_result_count=21), metadata=self.mask("places.id")))
        bad = self.nearby_request()
        bad.location_restriction.circle.radius = 50001
        self.assertAPIError(gexc.BadRequest, "INVALID_ARGUMENT", lambda: self.client.search_nearby(request=bad, metadata=self.mask("places.id")))

    # searchText and autocomplete (the text index, docs/search.md)

    def test_search_text_equals_cli(self):
        bias = places_v1.SearchTextRequest.LocationBias(circle=places_v1.Circle(center={"latitude": 46.52, "longitude": 6.63}))
        for extra, args in [({}, []), ({"max_result_count": 1}, ["--limit", "1"]), ({"included_type": "cafe"}, ["--type", "cafe"]),
                            ({"location_bias": bias}, ["--near", "46.52,6.63"])]:
            with self.subTest(extra=str(extra)):
                got = self.client.search_text(request={"text_query": "Café du Lac", **extra},
                                              metadata=self.mask("places.id,places.displayName,places.businessStatus"))
                out = cli("search", "Café du Lac", "--fields", "id,displayName,businessStatus", "--output", "json", *args, db=self.db)
                want = places_v1.SearchTextResponse.from_json(out, ignore_unknown_fields=True)
                self.assertEqual(got, want)
                self.assertEqual(got.places[0].id, "cafe")
        # Folded and misspelt queries find the café too.
        for q in ["cafe du lac", "Cafe du Lca"]:
            self.assertIn("cafe", [p.id for p in self.client.search_text(request={"text_query": q}, metadata=self.mask("places.id")).places])

    def test_search_text_limits(self):
        self.assertAPIError(gexc.BadRequest, "INVALID_ARGUMENT",
                            lambda: self.client.search_text(request={"text_query": "cafe", "max_result_count": -1}, metadata=self.mask("places.id")))
        self.assertAPIError(gexc.BadRequest, "INVALID_ARGUMENT",
                            lambda: self.client.search_text(request={"text_query": "cafe"}))  # no mask
        self.assertAPIError(gexc.BadRequest, "INVALID_ARGUMENT",
                            lambda: self.client.search_text(request={"text_query": ""}, metadata=self.mask("places.id")))

    def test_autocomplete_places_equals_cli(self):
        got = self.client.autocomplete_places(request={"input": "Café du", "origin": {"latitude": 46.52, "longitude": 6.63}})
        out = cli("autocomplete", "Café du", "--near", "46.52,6.63", "--output", "json", db=self.db)
        want = places_v1.AutocompletePlacesResponse.from_json(out, ignore_unknown_fields=True)
        # The CLI's --near is a bias as well as the origin: the same places, in the same order.
        self.assertEqual([s.place_prediction.place_id for s in got.suggestions], [s.place_prediction.place_id for s in want.suggestions])
        plain = self.client.autocomplete_places(request={"input": "Café du"})
        self.assertEqual(plain, places_v1.AutocompletePlacesResponse.from_json(cli("autocomplete", "Café du", "--output", "json", db=self.db),
                                                                               ignore_unknown_fields=True))
        first = plain.suggestions[0].place_prediction
        self.assertEqual(first.place, "places/cafe")
        self.assertEqual(first.text.text, "Café du Lac, Place de la Riponne 1, 1005 Lausanne")
        self.assertEqual(first.structured_format.main_text.text, "Café du Lac")
        self.assertGreater(got.suggestions[0].place_prediction.distance_meters, 0)

    # Photos

    def test_get_photo_media_skip_redirect(self):
        media = self.client.get_photo_media(request={"name": "places/cafe/photos/demo-photo-0/media", "max_width_px": 400,
                                                     "skip_http_redirect": True})
        self.assertEqual(media.name, "places/cafe/photos/demo-photo-0/media")
        self.assertTrue(media.photo_uri.startswith(self.server.endpoint + "/"), media.photo_uri)
        with urllib.request.urlopen(media.photo_uri) as r:
            self.assertEqual(r.headers["Content-Type"], "image/jpeg")
            image = r.read()
        self.assertEqual(image, cli("photo", "fetch", "demo-photo-0", "--max-width", "400", "-o", "-", db=self.db))

    def test_get_photo_media_redirect(self):
        # Without skip_http_redirect the API answers 302 to the image; the
        # client's HTTP session follows it and gets the image bytes, which
        # the client cannot read as JSON (the same as with Google's API).
        url = f"{self.server.endpoint}/v1/places/cafe/photos/demo-photo-0/media?maxWidthPx=100"

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args, **kwargs):
                return None
        opener = urllib.request.build_opener(NoRedirect)
        with self.assertRaises(urllib.error.HTTPError) as ctx:
            opener.open(url)
        self.assertEqual(ctx.exception.code, 302)
        location = ctx.exception.headers["Location"]
        with urllib.request.urlopen(location) as r:
            self.assertEqual(r.read(), cli("photo", "fetch", "demo-photo-0", "--max-width", "100", "-o", "-", db=self.db))
        with self.assertRaises(Exception):
            self.client.get_photo_media(request={"name": "places/cafe/photos/demo-photo-0/media", "max_width_px": 100})

    def test_get_photo_media_errors(self):
        self.assertAPIError(gexc.BadRequest, "INVALID_ARGUMENT", lambda: self.client.get_photo_media(
            request={"name": "places/cafe/photos/demo-photo-0/media", "max_width_px": 4801, "skip_http_redirect": True}))
        self.assertAPIError(gexc.NotFound, "NOT_FOUND", lambda: self.client.get_photo_media(
            request={"name": "places/cafe/photos/nope/media", "max_width_px": 100, "skip_http_redirect": True}))

    def test_access_log_has_a_line_per_request(self):
        before = len(self.server.log)
        self.client.get_place(name="places/cafe", metadata=self.mask("id"))
        for _ in range(100):
            if len(self.server.log) > before:
                break
            threading.Event().wait(0.02)
        # The target as the client sent it (percent-encoded, with the query).
        line = self.server.log[-1].split(" ")
        self.assertEqual(line[0], "GET")
        self.assertEqual(line[1].split("?")[0], "/v1/places/cafe")
        self.assertIn("enum-encoding%3Dint", line[1])
        self.assertEqual(line[2], "200")


# Places whose source IDs do not fit `places/{place}` as given: OpenStreetMap
# elements (osm:node/1 before schema 13, osm:n1 now), a generic GeoJSON
# feature whose ID holds a '/', a Google place with a Maps CID
# (docs/formats.md#place-ids).
ID_FEATURES = [
    {"type": "Feature", "geometry": {"type": "Point", "coordinates": [7.4246, 43.7384]},
     "properties": {"@type": "node", "@id": 1794111149, "amenity": "cafe", "name": "Café de Paris"}},
    {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[7.4250, 43.7390], [7.4252, 43.7390], [7.4252, 43.7392], [7.4250, 43.7392], [7.4250, 43.7390]]]},
     "properties": {"@type": "way", "@id": 4097656, "tourism": "museum", "name": "Musée"}},
    {"type": "Feature", "geometry": {"type": "MultiPolygon", "coordinates": [[[[7.4240, 43.7380], [7.4243, 43.7380], [7.4243, 43.7383], [7.4240, 43.7383], [7.4240, 43.7380]]]]},
     "properties": {"@type": "relation", "@id": 123, "leisure": "park", "name": "Jardin"}},
    {"type": "Feature", "id": "mc/shops/7", "geometry": {"type": "Point", "coordinates": [7.4247, 43.7385]},
     "properties": {"name": "Boutique", "category": "store"}},
]
CID_PLACE = {"id": "ChIJmonacoCID", "displayName": {"text": "Hôtel"}, "location": {"latitude": 43.7386, "longitude": 7.4248},
             "googleMapsUri": "https://maps.google.com/?cid=10281119596374313554"}


@unittest.skipIf(IMPORT_ERROR is not None, f"google-maps-places cannot be imported ({IMPORT_ERROR})")
class PlaceIDTests(ServedDatabase):
    """Every place searchNearby lists is fetched back by Google's client
    with get_place(name=...) by the name it was given."""

    server_args = ("--quiet",)

    @classmethod
    def build(cls, directory, db):
        src = write_lines(os.path.join(directory, "monaco.geojsonseq"), ID_FEATURES)
        google = write_lines(os.path.join(directory, "google.ndjson"), [CID_PLACE])
        cli("import", src, google, db=db)

    def listed(self):
        request = places_v1.SearchNearbyRequest(location_restriction=places_v1.SearchNearbyRequest.LocationRestriction(
            circle=places_v1.Circle(center={"latitude": 43.7385, "longitude": 7.4246}, radius=500)))
        return self.client.search_nearby(request=request, metadata=[("x-goog-fieldmask", "places.name,places.id")]).places

    def test_every_listed_place_is_fetched_back_by_its_name(self):
        places = self.listed()
        self.assertEqual(sorted(p.id for p in places),
                         ["ChIJmonacoCID", "mc%2Fshops%2F7", "osm:n1794111149", "osm:r123", "osm:w4097656"])
        for p in places:
            with self.subTest(name=p.name):
                self.assertEqual(p.name, "places/" + p.id)
                got = self.client.get_place(name=p.name, metadata=[("x-goog-fieldmask", "*")])
                want = places_v1.Place.from_json(cli("place", p.id, "--fields", "*", "--output", "json", db=self.db), ignore_unknown_fields=True)
                self.assertEqual(got, want)
                self.assertEqual(got.name, p.name)

    def test_old_spellings_and_cids_resolve(self):
        mask = [("x-goog-fieldmask", "id")]
        # The client refuses a '/' inside places/{place}; the old spelling
        # pre-encoded (it sends %252F) and the CID reach their places.
        with self.assertRaises(ValueError):
            self.client.get_place(name="places/osm:node/1794111149", metadata=mask)
        for name, id in [("places/osm:node%2F1794111149", "osm:n1794111149"), ("places/osm:way%2F4097656", "osm:w4097656"),
                         ("places/cid:10281119596374313554", "ChIJmonacoCID"), ("places/10281119596374313554", "ChIJmonacoCID")]:
            with self.subTest(name=name):
                self.assertEqual(self.client.get_place(name=name, metadata=mask).id, id)
        with self.assertRaises(gexc.NotFound):
            self.client.get_place(name="places/osm:n1", metadata=mask)

    def test_slash_that_is_no_old_spelling_is_refused_with_the_rule(self):
        request = urllib.request.Request(f"{self.server.endpoint}/v1/places/no%2Fsuch", headers={"X-Goog-FieldMask": "id"})
        with self.assertRaises(urllib.error.HTTPError) as ctx:
            urllib.request.urlopen(request)
        self.assertEqual(ctx.exception.code, 400)
        error = json.loads(ctx.exception.read())["error"]
        self.assertEqual(error["status"], "INVALID_ARGUMENT")
        self.assertIn("one path segment", error["message"])
        # The source's own spelling of a stored ID is no error.
        request = urllib.request.Request(f"{self.server.endpoint}/v1/places/mc/shops/7", headers={"X-Goog-FieldMask": "id"})
        with urllib.request.urlopen(request) as r:
            self.assertEqual(json.loads(r.read())["id"], "mc%2Fshops%2F7")


@unittest.skipIf(IMPORT_ERROR is not None, f"google-maps-places cannot be imported ({IMPORT_ERROR})")
class APIKeyTests(unittest.TestCase):
    def test_key_required(self):
        with tempfile.TemporaryDirectory(prefix="placedb-interop-") as tmp:
            db = os.path.join(tmp, "places.sqlite")
            src = os.path.join(tmp, "p.ndjson")
            with open(src, "w") as f:
                f.write(json.dumps(PLACES[0]) + "\n")
            subprocess.run([PLACEDB, "import", src, "--db", db], check=True, capture_output=True)
            server = Server(db, "--quiet", env={"PLACEDB_API_KEY": "k3y"})
            try:
                c = client(server.endpoint)
                # No key: 403 PERMISSION_DENIED; a wrong key: 400 INVALID_ARGUMENT, reason API_KEY_INVALID (as Google).
                with self.assertRaises(gexc.Forbidden) as ctx:
                    c.get_place(name="places/cafe", metadata=[("x-goog-fieldmask", "id")])
                self.assertEqual(ctx.exception.response.json()["error"]["status"], "PERMISSION_DENIED")
                with self.assertRaises(gexc.BadRequest) as ctx:
                    c.get_place(name="places/cafe", metadata=[("x-goog-fieldmask", "id"), ("x-goog-api-key", "nope")])
                self.assertEqual(ctx.exception.response.json()["error"]["status"], "INVALID_ARGUMENT")
                self.assertEqual(ctx.exception.reason, "API_KEY_INVALID")
                self.assertEqual(ctx.exception.domain, "googleapis.com")
                self.assertEqual(ctx.exception.metadata, {"service": "places.googleapis.com"})
                ok = c.get_place(name="places/cafe", metadata=[("x-goog-fieldmask", "id"), ("x-goog-api-key", "k3y")])
                self.assertEqual(ok.id, "cafe")
            finally:
                self.assertEqual(server.stop(), 0)
            # --quiet: no access log, only the two lines of the stop. The count
            # may be 1: libmicrohttpd ends a request (its completion callback)
            # just after writing the response's last byte, so the client can
            # read that byte and the test send SIGTERM first.
            self.assertEqual(len(server.log), 2, server.log)
            self.assertRegex(server.log[0], r"^placedb serve: SIGTERM: stopping; (0 requests|1 request) in flight$")
            self.assertEqual(server.log[1], "placedb serve: stopped")


if __name__ == "__main__":
    unittest.main()
