"""Every request field of autocomplete (AutocompletePlacesRequest), sent by
Google's client (google-maps-places, REST transport) to `placedb serve`,
checked against what the discovery document says of it and docs/server.md's
table says placedb does; and the answer's members (matches, query
predictions) read back through the client's own types.

`test_every_field_has_a_test` reads the discovery document
(../shared/data/google/schema/places.v1.discovery.json) and fails when a
request field has no test here; it is skipped, saying so, where the shared
data is absent.
"""
import json
import os
import unittest

from test_google_client import IMPORT_ERROR, ROOT, ServedDatabase
from test_search_fields import DISCOVERY, snake

try:
    from google.api_core import exceptions as gexc
    from google.maps import places_v1
except Exception:  # pragma: no cover
    pass

LAUSANNE = {"latitude": 46.52, "longitude": 6.63}


def places():
    """Around Lausanne: pizza places, a café, the town itself, a pure
    service-area business and a future opening; one pizzeria in Geneva."""
    return [
        {"id": "bella", "displayName": {"text": "Pizzeria Bella"}, "formattedAddress": "Rue du Pont 1, 1003 Lausanne",
         "location": {"latitude": 46.5210, "longitude": 6.6320}, "types": ["pizza_restaurant", "restaurant"], "primaryType": "pizza_restaurant"},
        {"id": "mario", "displayName": {"text": "Pizza Mario"}, "location": {"latitude": 46.5220, "longitude": 6.6330},
         "types": ["pizza_restaurant"], "primaryType": "pizza_restaurant", "userRatingCount": 50},
        {"id": "geneva", "displayName": {"text": "Pizza Geneva"}, "location": {"latitude": 46.2044, "longitude": 6.1432},
         "types": ["pizza_restaurant"], "primaryType": "pizza_restaurant", "userRatingCount": 5000},
        {"id": "cafe", "displayName": {"text": "Café du Lac"}, "formattedAddress": "Quai d'Ouchy 1, 1006 Lausanne",
         "location": {"latitude": 46.5201, "longitude": 6.6301}, "types": ["cafe"], "primaryType": "cafe"},
        {"id": "lausanne", "displayName": {"text": "Lausanne"}, "location": {"latitude": 46.5197, "longitude": 6.6323},
         "types": ["locality", "political"], "primaryType": "locality"},
        {"id": "plumber", "displayName": {"text": "Pizza Plumbing"}, "location": {"latitude": 46.52, "longitude": 6.63},
         "types": ["plumber"], "primaryType": "plumber", "pureServiceAreaBusiness": True},
        {"id": "soon", "displayName": {"text": "Pizza Soon"}, "location": {"latitude": 46.52, "longitude": 6.63},
         "types": ["restaurant"], "primaryType": "restaurant", "businessStatus": "FUTURE_OPENING"},
    ]


@unittest.skipIf(IMPORT_ERROR is not None, f"google-maps-places cannot be imported ({IMPORT_ERROR})")
class AutocompleteFieldTests(ServedDatabase):
    prefix = "placedb-interop-autocomplete-"
    server_args = ("--quiet",)

    @classmethod
    def build(cls, directory, db):
        cls.import_records(directory, db, "places.ndjson", places())

    def complete(self, **fields):
        return self.client.autocomplete_places(request={"input": "pizz", **fields})

    def ids(self, response):
        return [s.place_prediction.place_id for s in response.suggestions if s.place_prediction.place_id]

    def queries(self, response):
        return [s.query_prediction.text.text for s in response.suggestions if s.query_prediction.text.text]

    def bad(self, call, *words):
        with self.assertRaises(gexc.BadRequest) as ctx:
            call()
        error = ctx.exception.response.json()["error"]
        self.assertEqual(error["status"], "INVALID_ARGUMENT")
        for w in words:
            self.assertIn(w, error["message"])

    @unittest.skipUnless(os.path.exists(DISCOVERY), "needs ../shared/data/google/schema/places.v1.discovery.json")
    def test_every_field_has_a_test(self):
        with open(DISCOVERY) as f:
            fields = json.load(f)["schemas"]["GoogleMapsPlacesV1AutocompletePlacesRequest"]["properties"]
        self.assertGreater(len(fields), 10)
        missing = [field for field in fields if not hasattr(self, f"test_autocomplete_{snake(field)}")]
        self.assertEqual(missing, [], "request fields of the discovery document without a test here")

    def test_autocomplete_input(self):
        got = self.complete()
        self.assertEqual(set(self.ids(got)), {"bella", "mario", "geneva"})
        first = got.suggestions[0].place_prediction
        # matches: the part of the text the input matched, in code points.
        self.assertEqual([(m.start_offset, m.end_offset) for m in first.text.matches], [(0, 4)])
        self.assertEqual([(m.start_offset, m.end_offset) for m in first.structured_format.main_text.matches], [(0, 4)])
        cafe = self.client.autocomplete_places(request={"input": "Cafe du l"}).suggestions[0].place_prediction
        self.assertEqual(cafe.text.text, "Café du Lac, Quai d'Ouchy 1, 1006 Lausanne")
        self.assertEqual([(m.start_offset, m.end_offset) for m in cafe.text.matches], [(0, 4), (5, 7), (8, 9)])
        self.assertEqual(cafe.structured_format.secondary_text.text, "Quai d'Ouchy 1, 1006 Lausanne")
        self.assertEqual(list(cafe.structured_format.secondary_text.matches), [])
        ouchy = self.client.autocomplete_places(request={"input": "cafe ouch"}).suggestions[0].place_prediction
        self.assertEqual([(m.start_offset, m.end_offset) for m in ouchy.structured_format.secondary_text.matches], [(7, 11)])
        self.assertEqual(list(self.client.autocomplete_places(request={"input": "zzzz"}).suggestions), [])
        self.bad(lambda: self.client.autocomplete_places(request={"input": "x" * 1001}), "input")

    def test_autocomplete_input_offset(self):
        # The cursor after "pizz" of "pizzeria": "pizz" is what counts.
        self.assertEqual(self.ids(self.complete(input="pizzeria bella", input_offset=4)), self.ids(self.complete()))
        self.assertEqual(self.ids(self.client.autocomplete_places(request={"input": "cafe", "input_offset": 2})),
                         self.ids(self.client.autocomplete_places(request={"input": "ca"})))

    def test_autocomplete_location_bias(self):
        geneva = {"circle": {"center": {"latitude": 46.2044, "longitude": 6.1432}, "radius": 1000}}
        self.assertEqual(self.ids(self.complete(location_bias=geneva))[0], "geneva")
        self.assertEqual(self.ids(self.complete(location_bias={"circle": {"center": LAUSANNE, "radius": 1000}}))[0], "bella")
        self.bad(lambda: self.complete(location_bias={"circle": {"center": LAUSANNE, "radius": 50001}}), "radius")

    def test_autocomplete_location_restriction(self):
        box = {"rectangle": {"low": {"latitude": 46.5, "longitude": 6.6}, "high": {"latitude": 46.55, "longitude": 6.65}}}
        self.assertEqual(sorted(self.ids(self.complete(location_restriction=box))), ["bella", "mario"])
        both = {"location_restriction": box, "location_bias": {"circle": {"center": LAUSANNE}}}
        self.bad(lambda: self.complete(**both), "locationBias")

    def test_autocomplete_origin(self):
        got = self.complete(origin=LAUSANNE)
        by_id = {s.place_prediction.place_id: s.place_prediction.distance_meters for s in got.suggestions}
        self.assertLess(by_id["bella"], 200)
        self.assertGreater(by_id["geneva"], 50000)
        self.assertTrue(all(s.place_prediction.distance_meters == 0 for s in self.complete().suggestions))

    def test_autocomplete_included_primary_types(self):
        self.assertEqual(self.ids(self.client.autocomplete_places(request={"input": "lau", "included_primary_types": ["(cities)"]})), ["lausanne"])
        self.assertEqual(self.ids(self.client.autocomplete_places(request={"input": "ca", "included_primary_types": ["cafe"]})), ["cafe"])
        self.bad(lambda: self.complete(included_primary_types=["a", "b", "c", "d", "e", "f"]), "includedPrimaryTypes")

    def test_autocomplete_included_region_codes(self):
        self.assertEqual(self.complete(included_region_codes=["CH", "fr"]), self.complete())
        self.bad(lambda: self.complete(included_region_codes=["CHE"]), "includedRegionCodes")

    def test_autocomplete_language_code(self):
        self.assertEqual(self.complete(language_code="fr"), self.complete())

    def test_autocomplete_region_code(self):
        self.assertEqual(self.complete(region_code="CH"), self.complete())

    def test_autocomplete_session_token(self):
        self.assertEqual(self.complete(session_token="0b7a4a6e-2f6c-4f7e-9d5c-1d2e3f4a5b6c"), self.complete())
        self.assertEqual(self.complete(session_token="c2Vzc2lvbg=="), self.complete())
        self.bad(lambda: self.complete(session_token="not a token!"), "sessionToken")
        self.bad(lambda: self.complete(session_token="a" * 37), "sessionToken")

    def test_autocomplete_include_query_predictions(self):
        self.assertEqual(self.queries(self.complete()), [])
        got = self.complete(include_query_predictions=True, location_bias={"circle": {"center": LAUSANNE}})
        self.assertLessEqual(len(got.suggestions), 5)
        kinds = ["place" if s.place_prediction.place_id else "query" for s in got.suggestions]
        self.assertEqual(kinds, sorted(kinds))  # places first
        self.assertEqual(self.queries(got), ["pizza", "pizza near Lausanne", "pizza restaurant"][:kinds.count("query")])
        near = [s.query_prediction for s in got.suggestions if s.query_prediction.text.text == "pizza near Lausanne"][0]
        self.assertEqual(near.structured_format.main_text.text, "pizza")
        self.assertEqual(near.structured_format.secondary_text.text, "near Lausanne")
        self.assertEqual([(m.start_offset, m.end_offset) for m in near.text.matches], [(0, 4)])
        # Each query prediction, searched, finds places of its type.
        for q in self.queries(got)[::2]:
            found = self.client.search_text(request={"text_query": q}, metadata=[("x-goog-fieldmask", "places.id")])
            self.assertIn("bella", [p.id for p in found.places], q)

    def test_autocomplete_include_pure_service_area_businesses(self):
        self.assertNotIn("plumber", self.ids(self.complete()))
        self.assertIn("plumber", self.ids(self.complete(include_pure_service_area_businesses=True)))

    def test_autocomplete_include_future_opening_businesses(self):
        self.assertNotIn("soon", self.ids(self.complete()))
        self.assertIn("soon", self.ids(self.complete(include_future_opening_businesses=True)))


if __name__ == "__main__":
    unittest.main()
