"""Every request field of searchText and searchNearby, sent by Google's
client (google-maps-places, REST transport: enums go as numbers) to
`placedb serve`, checked against what the discovery document says of it
and docs/server.md's table says placedb does.

`test_every_field_has_a_test` reads the discovery document
(../shared/data/google/schema/places.v1.discovery.json) and fails when a
request field of either method has no test here; it is skipped, saying so,
where the shared data is absent.
"""
import json
import os
import re
import unittest

from test_google_client import IMPORT_ERROR, ROOT, PLACES, ServedDatabase
import urllib.error
import urllib.request

try:
    from google.api_core import exceptions as gexc
    from google.maps import places_v1
except Exception:  # pragma: no cover
    pass

DISCOVERY = os.path.join(ROOT, "..", "shared", "data", "google", "schema", "places.v1.discovery.json")

CENTER = {"latitude": 46.52, "longitude": 6.63}


def kiosks():
    """45 "Kiosk N" cafes (ratings 1.0 ... 5.0, price levels in turn) and a
    place for each filter, beside the shared fixture's places."""
    levels = ["PRICE_LEVEL_INEXPENSIVE", "PRICE_LEVEL_MODERATE", "PRICE_LEVEL_EXPENSIVE"]
    out = [dict(p) for p in PLACES]
    for n in range(45):
        out.append({"id": f"k{n}", "displayName": {"text": f"Kiosk {n}"},
                    "location": {"latitude": 46.52 + n * 0.0001, "longitude": 6.63}, "types": ["cafe"], "primaryType": "cafe",
                    "rating": 1 + (n % 9) * 0.5, "userRatingCount": n, "priceLevel": levels[n % 3]})
    out += [
        {"id": "allday", "displayName": {"text": "Allday Kiosk"}, "location": {"latitude": 46.5, "longitude": 6.6},
         "types": ["store"], "utcOffsetMinutes": 60, "regularOpeningHours": {"periods": [{"open": {"day": 0, "hour": 0, "minute": 0}}]}},
        {"id": "plumber", "displayName": {"text": "Plumber Kiosk"}, "location": {"latitude": 46.5, "longitude": 6.6},
         "types": ["plumber"], "pureServiceAreaBusiness": True},
        {"id": "soon", "displayName": {"text": "Soon Kiosk"}, "location": {"latitude": 46.5201, "longitude": 6.6302},
         "types": ["cafe"], "businessStatus": "FUTURE_OPENING", "userRatingCount": 9000},
        {"id": "charger", "displayName": {"text": "Charger Kiosk"}, "location": {"latitude": 46.5, "longitude": 6.6},
         "types": ["electric_vehicle_charging_station"],
         "evChargeOptions": {"connectorCount": 2, "connectorAggregation": [{"type": "EV_CONNECTOR_TYPE_TYPE_2", "maxChargeRateKw": 22, "count": 2}]}},
    ]
    return out


def snake(name):
    return re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), name)


@unittest.skipIf(IMPORT_ERROR is not None, f"google-maps-places cannot be imported ({IMPORT_ERROR})")
class SearchFieldTests(ServedDatabase):
    prefix = "placedb-interop-fields-"
    server_args = ("--quiet",)

    @classmethod
    def build(cls, directory, db):
        cls.import_records(directory, db, "places.ndjson", kiosks())

    def text(self, mask="places.id", **fields):
        return self.client.search_text(request={"text_query": "kiosk", **fields}, metadata=[("x-goog-fieldmask", mask)])

    def raw(self, body, mask="places.id"):
        """searchText by plain HTTP: google-maps-places 0.9.1 has no
        page_size, page_token or next_page_token (the discovery document
        has); the status and the parsed answer."""
        request = urllib.request.Request(f"{self.server.endpoint}/v1/places:searchText", data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json", "X-Goog-FieldMask": mask})
        try:
            with urllib.request.urlopen(request) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def raw_ids(self, body, mask="places.id"):
        status, answer = self.raw(body, mask)
        self.assertEqual(status, 200, answer)
        return [p["id"] for p in answer.get("places", [])]

    def nearby(self, mask="places.id", radius=500, center=CENTER, **fields):
        request = places_v1.SearchNearbyRequest(location_restriction=places_v1.SearchNearbyRequest.LocationRestriction(
            circle=places_v1.Circle(center=center, radius=radius)), **fields)
        return self.client.search_nearby(request=request, metadata=[("x-goog-fieldmask", mask)])

    def ids(self, response):
        return [p.id for p in response.places]

    def bad(self, call, *words):
        with self.assertRaises(gexc.BadRequest) as ctx:
            call()
        error = ctx.exception.response.json()["error"]
        self.assertEqual(error["status"], "INVALID_ARGUMENT")
        for w in words:
            self.assertIn(w, error["message"])
        return ctx.exception

    # The discovery document: a test for every request field.

    @unittest.skipUnless(os.path.exists(DISCOVERY), "needs ../shared/data/google/schema/places.v1.discovery.json")
    def test_every_field_has_a_test(self):
        with open(DISCOVERY) as f:
            schemas = json.load(f)["schemas"]
        missing = []
        for method, schema in [("search_text", "GoogleMapsPlacesV1SearchTextRequest"), ("search_nearby", "GoogleMapsPlacesV1SearchNearbyRequest")]:
            fields = schemas[schema]["properties"]
            self.assertGreater(len(fields), 5)
            for field in fields:
                if not hasattr(self, f"test_{method}_{snake(field)}"):
                    missing.append(f"{method}.{field}")
        self.assertEqual(missing, [], "request fields of the discovery document without a test here")

    # searchText

    def test_search_text_text_query(self):
        self.assertEqual(len(self.ids(self.text())), 20)
        self.assertIn("cafe", self.ids(self.client.search_text(request={"text_query": "Café du Lac"}, metadata=[("x-goog-fieldmask", "places.id")])))
        self.bad(lambda: self.client.search_text(request={"text_query": " "}, metadata=[("x-goog-fieldmask", "places.id")]), "textQuery")

    def test_search_text_location_bias(self):
        bias = {"circle": {"center": {"latitude": 46.5244, "longitude": 6.63}, "radius": 100}}
        self.assertEqual(self.ids(self.text(location_bias=bias, max_result_count=1)), ["k44"])
        far = {"circle": {"center": CENTER, "radius": 50001}}
        self.bad(lambda: self.text(location_bias=far), "radius")

    def test_search_text_location_restriction(self):
        box = {"rectangle": {"low": {"latitude": 46.52415, "longitude": 6.62}, "high": {"latitude": 46.53, "longitude": 6.64}}}
        self.assertEqual(sorted(self.ids(self.text(location_restriction=box))), ["k42", "k43", "k44"])
        both = {"location_restriction": box, "location_bias": {"circle": {"center": CENTER}}}
        self.bad(lambda: self.text(**both), "locationBias")

    def test_search_text_included_type(self):
        self.assertEqual(self.ids(self.text(included_type="store")), ["allday"])
        self.bad(lambda: self.text(included_type="kiosque"), "'kiosque'", "includedType")

    def test_search_text_strict_type_filtering(self):
        self.assertEqual(self.ids(self.text(included_type="store", strict_type_filtering=True)), ["allday"])
        self.assertEqual(self.ids(self.text(included_type="store", strict_type_filtering=False)), ["allday"])

    def test_search_text_open_now(self):
        self.assertEqual(self.ids(self.text(open_now=True)), ["allday"])

    def test_search_text_min_rating(self):
        got = self.text(mask="places.id,places.rating", min_rating=4.1)
        self.assertGreater(len(got.places), 0)
        self.assertTrue(all(p.rating >= 4.5 for p in got.places), [p.rating for p in got.places])
        self.bad(lambda: self.text(min_rating=6), "minRating")
        self.bad(lambda: self.text(min_rating=-0.5), "minRating")

    def test_search_text_price_levels(self):
        got = self.text(mask="places.id,places.priceLevel", price_levels=[places_v1.PriceLevel.PRICE_LEVEL_EXPENSIVE])
        self.assertEqual(len(got.places), 15)
        self.assertEqual({p.price_level for p in got.places}, {places_v1.PriceLevel.PRICE_LEVEL_EXPENSIVE})
        self.bad(lambda: self.text(price_levels=[places_v1.PriceLevel.PRICE_LEVEL_UNSPECIFIED]), "priceLevels")

    def test_search_text_rank_preference(self):
        bias = {"circle": {"center": {"latitude": 46.5, "longitude": 6.6}}}
        by_distance = self.text(location_bias=bias, rank_preference=places_v1.SearchTextRequest.RankPreference.DISTANCE, max_result_count=2)
        self.assertEqual(set(self.ids(by_distance)), {"allday", "charger"})  # both at the point
        relevance = self.text(location_bias=bias, rank_preference=places_v1.SearchTextRequest.RankPreference.RELEVANCE)
        self.assertEqual(len(relevance.places), 20)

    def test_search_text_page_size(self):
        q = {"textQuery": "kiosk"}
        self.assertEqual(len(self.raw_ids({**q, "pageSize": 3})), 3)
        self.assertEqual(len(self.raw_ids({**q, "pageSize": 50})), 20)  # above 20: 20
        self.assertEqual(len(self.raw_ids({**q, "pageSize": 0})), 20)  # 0: the default
        status, answer = self.raw({**q, "pageSize": -1})
        self.assertEqual((status, answer["error"]["status"]), (400, "INVALID_ARGUMENT"))
        self.assertIn("pageSize", answer["error"]["message"])

    def test_search_text_max_result_count(self):
        self.assertEqual(len(self.text(max_result_count=4).places), 4)
        self.assertEqual(len(self.text(max_result_count=50).places), 20)
        self.assertEqual(len(self.raw_ids({"textQuery": "kiosk", "maxResultCount": 4, "pageSize": 2})), 2)
        self.bad(lambda: self.text(max_result_count=-1), "maxResultCount")

    def test_search_text_page_token(self):
        mask = "places.id,nextPageToken"
        pages, token = [], None
        while True:
            body = {"textQuery": "kiosk", "includedType": "cafe", "pageSize": 10, **({"pageToken": token} if token else {})}
            status, page = self.raw(body, mask)
            self.assertEqual(status, 200, page)
            pages.append([p["id"] for p in page["places"]])
            token = page.get("nextPageToken")
            if not token:
                break
        self.assertEqual([len(p) for p in pages], [10, 10, 10, 10, 5])
        seen = [i for p in pages for i in p]
        self.assertEqual(len(set(seen)), 45)
        self.assertEqual(seen[:20], self.raw_ids({"textQuery": "kiosk", "includedType": "cafe", "pageSize": 20}, mask))
        # Google's client reads a page's places from an answer with a token (it knows no nextPageToken).
        got = self.client.search_text(request={"text_query": "kiosk", "included_type": "cafe", "max_result_count": 10},
                                      metadata=[("x-goog-fieldmask", mask)])
        self.assertEqual(self.ids(got), pages[0])
        _, first = self.raw({"textQuery": "kiosk", "pageSize": 5}, mask)
        status, other = self.raw({"textQuery": "cafe", "pageToken": first["nextPageToken"]})
        self.assertEqual((status, other["error"]["status"]), (400, "INVALID_ARGUMENT"))
        self.assertIn("another request", other["error"]["message"])
        self.assertEqual(other["error"]["details"][0]["reason"], "PAGE_TOKEN_INVALID")
        self.assertNotIn("nextPageToken", self.raw({"textQuery": "kiosk"})[1])

    def test_search_text_ev_options(self):
        ev = places_v1.SearchTextRequest.EVOptions(connector_types=[places_v1.EVConnectorType.EV_CONNECTOR_TYPE_TYPE_2],
                                                   minimum_charging_rate_kw=11)
        self.assertEqual(self.ids(self.text(ev_options=ev)), ["charger"])
        self.assertEqual(self.ids(self.text(ev_options={"minimum_charging_rate_kw": 50})), [])

    def test_search_text_include_pure_service_area_businesses(self):
        self.assertNotIn("plumber", self.ids(self.text()))
        self.assertEqual(self.ids(self.client.search_text(request={"text_query": "plumber", "include_pure_service_area_businesses": True},
                                                          metadata=[("x-goog-fieldmask", "places.id")])), ["plumber"])

    def test_search_text_include_future_opening_businesses(self):
        q = {"text_query": "soon"}
        self.assertEqual(self.ids(self.client.search_text(request=q, metadata=[("x-goog-fieldmask", "places.id")])), [])
        self.assertEqual(self.ids(self.client.search_text(request={**q, "include_future_opening_businesses": True},
                                                          metadata=[("x-goog-fieldmask", "places.id")])), ["soon"])

    def test_search_text_routing_parameters(self):
        routing = {"origin": {"latitude": 46.5, "longitude": 6.6}, "travel_mode": places_v1.TravelMode.WALK,
                   "routing_preference": places_v1.RoutingPreference.TRAFFIC_UNAWARE, "route_modifiers": {"avoid_tolls": True}}
        self.assertEqual(self.text(routing_parameters=routing), self.text())
        self.assertEqual(list(self.text(mask="places.id,routingSummaries", routing_parameters=routing).routing_summaries), [])

    def test_search_text_search_along_route_parameters(self):
        along = {"polyline": {"encoded_polyline": "_p~iF~ps|U_ulLnnqC"}}
        self.assertEqual(self.text(search_along_route_parameters=along), self.text())
        self.bad(lambda: self.text(search_along_route_parameters={"polyline": {}}), "encodedPolyline")

    def test_search_text_language_code(self):
        self.assertEqual(self.text(language_code="fr"), self.text())

    def test_search_text_region_code(self):
        self.assertEqual(self.text(region_code="CH"), self.text())

    # searchNearby

    def test_search_nearby_location_restriction(self):
        self.assertIn("k0", self.ids(self.nearby(radius=10)))
        self.bad(lambda: self.nearby(radius=50001), "radius")

    def test_search_nearby_included_types(self):
        self.assertEqual(self.ids(self.nearby(center={"latitude": 46.5, "longitude": 6.6}, included_types=["store"])), ["allday"])
        self.bad(lambda: self.nearby(included_types=["cafee"]), "'cafee'", "did you mean 'cafe'")

    def test_search_nearby_excluded_types(self):
        got = self.ids(self.nearby(excluded_types=["cafe"]))
        self.assertTrue(got and all(not i.startswith("k") for i in got), got)
        self.bad(lambda: self.nearby(excluded_types=["kiosque"]), "'kiosque'")

    def test_search_nearby_included_primary_types(self):
        got = self.ids(self.nearby(included_primary_types=["bar"]))
        self.assertEqual(got, ["bar"])
        self.bad(lambda: self.nearby(included_primary_types=["barr"]), "'barr'")

    def test_search_nearby_excluded_primary_types(self):
        self.assertNotIn("bar", self.ids(self.nearby(excluded_primary_types=["bar"])))
        self.bad(lambda: self.nearby(excluded_primary_types=["barr"]), "'barr'")

    def test_search_nearby_max_result_count(self):
        self.assertEqual(len(self.nearby(max_result_count=3).places), 3)
        self.bad(lambda: self.nearby(max_result_count=21), "maxResultCount")

    def test_search_nearby_rank_preference(self):
        # No preference: POPULARITY, as Google (most rated first).
        self.assertEqual(self.ids(self.nearby(max_result_count=2)), ["bar", "k44"])
        self.assertEqual(self.ids(self.nearby(max_result_count=2, rank_preference=places_v1.SearchNearbyRequest.RankPreference.POPULARITY)),
                         ["bar", "k44"])
        self.assertEqual(self.ids(self.nearby(max_result_count=1, rank_preference=places_v1.SearchNearbyRequest.RankPreference.DISTANCE)),
                         ["k0"])

    def test_search_nearby_include_future_opening_businesses(self):
        self.assertNotIn("soon", self.ids(self.nearby()))
        self.assertEqual(self.ids(self.nearby(include_future_opening_businesses=True, max_result_count=1)), ["soon"])

    def test_search_nearby_routing_parameters(self):
        routing = {"origin": {"latitude": 46.5, "longitude": 6.6}, "travel_mode": places_v1.TravelMode.DRIVE}
        self.assertEqual(self.nearby(routing_parameters=routing), self.nearby())

    def test_search_nearby_language_code(self):
        self.assertEqual(self.nearby(language_code="fr"), self.nearby())

    def test_search_nearby_region_code(self):
        self.assertEqual(self.nearby(region_code="CH"), self.nearby())

    def test_search_nearby_empty_answer(self):
        got = self.nearby(center={"latitude": 10, "longitude": 10})
        self.assertEqual(list(got.places), [])


if __name__ == "__main__":
    unittest.main()
