"""`languageCode` through Google's official Places client: get_place,
search_nearby, search_text and autocomplete with language_code serve each
place's name in that language, as `placedb ... --language` prints it.

    PLACEDB=.build/debug/placedb python3 -m unittest discover -s Tests/interop -v
"""
import unittest

from test_google_client import IMPORT_ERROR, ServedDatabase, cli

if IMPORT_ERROR is None:
    from google.maps import places_v1

FEATURES = [
    {"type": "Feature", "geometry": {"type": "Point", "coordinates": [24.9497, 60.1695]},
     "properties": {"@type": "way", "@id": 10, "name": "Helsingin yliopisto", "name:fi": "Helsingin yliopisto",
                    "name:sv": "Helsingfors universitet", "name:en": "University of Helsinki", "amenity": "university"}},
    {"type": "Feature", "geometry": {"type": "Point", "coordinates": [24.9500, 60.1697]},
     "properties": {"@type": "node", "@id": 11, "name": "Kahvila Sininen", "amenity": "cafe"}},
]


@unittest.skipIf(IMPORT_ERROR is not None, f"google-maps-places cannot be imported ({IMPORT_ERROR}); pip install google-maps-places")
class LanguageCodeTests(ServedDatabase):
    prefix = "placedb-interop-languages-"

    @classmethod
    def build(cls, directory, db):
        cls.import_records(directory, db, "places.geojsonseq", FEATURES)

    def test_get_place_in_each_language(self):
        for language, text, code in [("sv", "Helsingfors universitet", "sv"), ("en-GB", "University of Helsinki", "en"),
                                     ("de", "Helsingin yliopisto", "fi")]:
            with self.subTest(language=language):
                got = self.client.get_place(request={"name": "places/osm:w10", "language_code": language},
                                            metadata=[("x-goog-fieldmask", "id,displayName")])
                self.assertEqual((got.display_name.text, got.display_name.language_code), (text, code))
                want = places_v1.Place.from_json(cli("place", "osm:w10", "--language", language, "--fields", "id,displayName",
                                                     "--output", "json", db=self.db), ignore_unknown_fields=True)
                self.assertEqual(got, want)

    def test_searches_in_a_language(self):
        nearby = self.client.search_nearby(
            request=places_v1.SearchNearbyRequest(
                location_restriction=places_v1.SearchNearbyRequest.LocationRestriction(
                    circle=places_v1.Circle(center={"latitude": 60.1695, "longitude": 24.9497}, radius=100)),
                rank_preference=places_v1.SearchNearbyRequest.RankPreference.DISTANCE, language_code="sv"),
            metadata=[("x-goog-fieldmask", "places.id,places.displayName")])
        self.assertEqual([p.display_name.text for p in nearby.places], ["Helsingfors universitet", "Kahvila Sininen"])
        text = self.client.search_text(request=places_v1.SearchTextRequest(text_query="Helsingfors universitet", language_code="en"),
                                       metadata=[("x-goog-fieldmask", "places.id,places.displayName")])
        self.assertEqual(text.places[0].display_name.text, "University of Helsinki")
        suggestions = self.client.autocomplete_places(request=places_v1.AutocompletePlacesRequest(input="University of Hel", language_code="sv"))
        self.assertEqual(suggestions.suggestions[0].place_prediction.structured_format.main_text.text, "Helsingfors universitet")


if __name__ == "__main__":
    unittest.main()
