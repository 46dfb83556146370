"""The map page of `placedb serve` (GET /) in a real browser: Debian's
chromium driven by chromedriver through Selenium.

Run by Scripts/test after the Swift suite:
    PLACEDB=.build/debug/placedb python3 -m unittest discover -s Tests/browser -v
Skipped, saying why, when selenium, chromium or chromedriver is missing
(Scripts/setup installs them: chromium and chromium-driver with apt, selenium
with pip). The database is this directory's own fixture (the bundled
Lausanne sample, a small OpenStreetMap-style basemap and hostile names),
imported through the CLI: no ../shared data.

PLACEDB_SCREENSHOTS=docs/img writes each step's screenshot there (PNG);
otherwise they go to a temporary directory.
"""
import json
import os
import shutil
import sys
import tempfile
import time
import unittest
import urllib.parse

try:
    from selenium import webdriver
    from selenium.common.exceptions import NoAlertPresentException, TimeoutException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    IMPORT_ERROR = None
except Exception as e:  # pragma: no cover
    IMPORT_ERROR = e

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pysupport"))
from placedb_process import PLACEDB, ROOT, Server, cli  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver") or ("/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None)


def why_skip():
    if IMPORT_ERROR is not None:
        return f"selenium cannot be imported ({IMPORT_ERROR}); Scripts/setup installs it with pip"
    if not CHROMIUM:
        return "chromium is not installed (apt-get install chromium; Scripts/setup installs it)"
    if not CHROMEDRIVER:
        return "chromedriver is not installed (apt-get install chromium-driver; Scripts/setup installs it)"
    if not os.access(PLACEDB, os.X_OK):
        return f"no placedb binary at {PLACEDB} (swift build first)"
    return None


SKIP = why_skip()

# Names that must reach the page as text, never as markup or code.
LONG_NAME = "Long " + "x" * 9995
HOSTILE = [
    {"id": "hostile-html", "displayName": {"text": '<img src=x onerror="window.__pwned=1;alert(1)">Bold <b>name</b>'},
     "location": {"latitude": 46.51905, "longitude": 6.62985}, "types": ["cafe"], "primaryType": "cafe",
     "formattedAddress": '<a href="javascript:window.__pwned=5">address</a>'},
    {"id": "hostile-script", "displayName": {"text": "<script>window.__pwned=2;alert(2)</script>"},
     "location": {"latitude": 46.51915, "longitude": 6.63005}, "types": ["cafe"], "primaryType": "cafe"},
    {"id": "hostile-rtl", "displayName": {"text": "\u202eexe.evil\u202c Café"},
     "location": {"latitude": 46.51925, "longitude": 6.62995}, "types": ["cafe"], "primaryType": "cafe"},
    {"id": "hostile-long", "displayName": {"text": LONG_NAME},
     "location": {"latitude": 46.51935, "longitude": 6.63015}, "types": ["cafe"], "primaryType": "cafe"},
]


@unittest.skipIf(SKIP is not None, SKIP or "")
class MapPageInBrowser(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="placedb-browser-")
        cls.db = os.path.join(cls.tmp.name, "places.sqlite")
        cli("import", os.path.join(ROOT, "Scripts", "sample", "lausanne-v1.ndjson"), "--time-zone", "Europe/Zurich", db=cls.db)
        cli("import", os.path.join(HERE, "lausanne-basemap.geojsonseq"), "--all-features", "--time-zone", "Europe/Zurich", db=cls.db)
        hostile = os.path.join(cls.tmp.name, "hostile.ndjson")
        with open(hostile, "w") as f:
            for r in HOSTILE:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
        cli("import", hostile, db=cls.db)
        cli("photo", "add", "--dir", os.path.join(ROOT, "Scripts", "sample", "photos"), db=cls.db)
        cls.shots = os.environ.get("PLACEDB_SCREENSHOTS") or os.path.join(cls.tmp.name, "screenshots")
        os.makedirs(cls.shots, exist_ok=True)
        cls.server = Server(cls.db)
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                  "--force-device-scale-factor=1", "--window-size=1100,720", "--lang=en-US"]:
            options.add_argument(a)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        cls.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        cls.driver.set_window_size(1100, 720)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.server.stop()
        cls.tmp.cleanup()

    # -- helpers

    def wait(self, condition, what, timeout=15):
        try:
            return WebDriverWait(self.driver, timeout).until(lambda d: condition(d))
        except TimeoutException:
            self.fail(f"timed out waiting for {what}; status line: {self.js('return document.body.innerText.slice(0, 600)')!r}")

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def shot(self, name):
        path = os.path.join(self.shots, name)
        self.driver.save_screenshot(path)
        self.assertGreater(os.path.getsize(path), 2000)
        return path

    def visible(self, element_id):
        return self.js("const e = document.getElementById(arguments[0]); return !!e && !e.hidden && e.offsetParent !== null;", element_id)

    def hash(self):
        return urllib.parse.unquote(self.js("return location.hash"))

    def features_loaded(self):
        return self.js("return pointLayer.getLayers().length") > 0

    def assert_clean(self):
        """No console error, no injected script ran, nothing loaded from elsewhere."""
        errors = [e for e in self.driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
        self.assertEqual(errors, [], "console errors")
        self.assertIsNone(self.js("return window.__pwned === undefined ? null : window.__pwned"), "an injected script ran")
        try:
            alert = self.driver.switch_to.alert
            text = alert.text
            alert.dismiss()
            self.fail(f"an alert was shown: {text!r}")
        except NoAlertPresentException:
            pass
        urls = self.js("return performance.getEntriesByType('resource').map((e) => e.name).concat([location.href])")
        for u in urls:
            self.assertTrue(u.startswith(self.server.origin + "/") or u.startswith("data:"), f"loaded from elsewhere: {u}")

    # -- the steps, in order (unittest sorts by name)

    def test_1_walkthrough(self):
        d = self.driver
        d.get(self.server.origin + "/")
        # Landing: the data's extent, counts by source and type, examples.
        self.wait(lambda d: "places" in d.find_element(By.ID, "landing-body").text, "the landing view's counts")
        self.wait(lambda d: self.features_loaded(), "the map's points")
        landing = d.find_element(By.ID, "landing-body").text
        self.assertIn("By source", landing)
        self.assertIn("By type", landing)
        self.assertTrue(self.js("return baseLayer.getLayers().length") > 0 or self.js("return map.getZoom()") < 12, "the basemap is drawn at this zoom")
        bounds = self.js("const b = map.getBounds(); return [b.getSouth(), b.getWest(), b.getNorth(), b.getEast()]")
        self.assertTrue(bounds[0] < 46.5145 and bounds[2] > 46.5256 and bounds[1] < 6.6236 and bounds[3] > 6.6397, f"the view fits the data: {bounds}")
        self.shot("map-1-landing.png")

        # Type three letters: suggestions.
        box = d.find_element(By.ID, "search")
        box.click()
        box.send_keys("bra")
        self.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#suggestions li[role=option]")) > 0, "suggestions for 'bra'")
        first = d.find_elements(By.CSS_SELECTOR, "#suggestions li[role=option]")[0]
        picked = first.find_element(By.TAG_NAME, "bdi").text
        self.assertIn("Brasserie", picked)
        # ... and on the map, one marker each.
        self.wait(lambda d: self.js("return suggestLayer.getLayers().length") == len(d.find_elements(By.CSS_SELECTOR, "#suggestions li[role=option]")),
                  "the suggestions on the map")
        self.shot("map-2-suggestions.png")

        # Pick it: its details, and the map on it.
        first.click()
        self.wait(lambda d: self.visible("place") and d.find_element(By.ID, "place-name").text == picked, "the picked place's details")
        self.assertIn("place=", self.hash())
        place_hash = self.hash()
        self.wait(lambda d: "Sources and IDs" in d.find_element(By.ID, "place-body").text, "the sources and IDs")
        details = d.find_element(By.ID, "place-body").text
        self.assertIn("demo-lsn-", details)
        self.assertRegex(details, r"Open now|Closed now")
        # The map moves (with its zoom animation) to the place, marked.
        self.wait(lambda d: self.js("const a = markLayer.getLayers()[0].getLatLng(), c = map.getCenter(); "
                                    "return Math.abs(a.lat - c.lat) < 1e-4 && Math.abs(a.lng - c.lng) < 1e-4"), "the map centred on the place")
        self.assertGreaterEqual(self.js("return map.getZoom()"), 16)
        self.wait(lambda d: self.js("return baseLayer.getLayers().length") > 0, "outlines at street zoom")
        time.sleep(0.3)
        self.shot("map-3-place.png")

        # Click the map: current place at that point.
        m = d.find_element(By.ID, "map")
        ActionChains(d).move_to_element_with_offset(m, 24, 18).click().perform()
        self.wait(lambda d: self.visible("current") and len(d.find_elements(By.CSS_SELECTOR, "#current-list li")) > 1, "the current place")
        self.assertIn("fix=", self.hash())
        self.assertIn("none of these", d.find_element(By.ID, "current-list").text)
        self.assertRegex(d.find_element(By.ID, "current-list").text, r"\d+\.\d%")
        self.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#current-svg svg")) == 1, "the current-place picture")
        self.shot("map-4-current.png")

        # Back: the place again.
        d.back()
        self.wait(lambda d: self.visible("place") and d.find_element(By.ID, "place-name").text == picked, "the place again after Back")
        self.assertEqual(self.hash().split("&map=")[0], place_hash.split("&map=")[0])
        self.wait(lambda d: "Sources and IDs" in d.find_element(By.ID, "place-body").text, "the details after Back")
        self.shot("map-5-back.png")
        # Back again: the landing.
        d.back()
        self.wait(lambda d: self.visible("landing"), "the landing after a second Back")
        self.assert_clean()

    def test_2_hostile_names_are_text(self):
        d = self.driver
        for record in HOSTILE:
            d.get(self.server.origin + "/#place=" + record["id"])
            self.wait(lambda d: "Sources and IDs" in d.find_element(By.ID, "place-body").text, f"{record['id']}'s details")
            name = self.js("return document.getElementById('place-name').textContent")
            self.assertEqual(name, record["displayName"]["text"])
            self.assertEqual(self.js("return document.getElementById('place-name').children.length"), 0, "the name is one text node")
            self.assertEqual(self.js("return document.querySelectorAll('#panel img:not(.photo), #panel script, #panel b').length"), 0)
        # The address holding a javascript: link is text, not a link.
        d.get(self.server.origin + "/#place=hostile-html")
        self.wait(lambda d: "javascript:window.__pwned=5" in d.find_element(By.ID, "place-body").text, "the address as text")
        self.assertEqual(self.js("return document.querySelectorAll('a[href^=\"javascript:\"]').length"), 0)
        # A search listing them all, and the map's tooltips.
        d.get(self.server.origin + "/#q=" + urllib.parse.quote("cafe"))
        self.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#result-list li")) > 3, "the search results")
        texts = self.js("return [...document.querySelectorAll('#result-list bdi')].map((b) => b.textContent)")
        self.assertIn("<script>window.__pwned=2;alert(2)</script>", texts)
        self.assertTrue(any(t.startswith("Long xxx") and t.endswith("…") for t in texts), "the 10,000-character name is cut")
        # The 10,000-character name does not widen the page.
        self.assertLessEqual(self.js("return document.documentElement.scrollWidth"), self.js("return window.innerWidth"))
        d.get(self.server.origin + "/#fix=46.5192,6.6300&accuracy=15")
        self.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#current-list li")) > 1, "the current place among hostile names")
        time.sleep(0.5)
        self.assert_clean()

    def test_3_phone_width(self):
        d = self.driver
        d.set_window_size(390, 844)
        try:
            d.get(self.server.origin + "/#place=demo-lsn-001")
            self.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#place-body img.photo")) == 1, "the photo at 390 px")
            self.wait(lambda d: self.js("const i = document.querySelector('img.photo'); return i.complete && i.naturalWidth > 0"), "the photo's bytes")
            width = self.js("return document.querySelector('img.photo').getBoundingClientRect().width")
            self.assertGreater(width, 300, "the photo fills the phone's width")
            self.assertLessEqual(self.js("return document.documentElement.scrollWidth"), 390)
            caption = d.find_element(By.CSS_SELECTOR, "figcaption.attribution").text
            self.assertTrue(caption.startswith("Photo"), caption)
            self.wait(lambda d: self.features_loaded(), "the map's points at 390 px")
            time.sleep(0.3)
            self.shot("map-6-phone.png")
            self.js("document.querySelector('#place-body .photos').scrollIntoView()")
            self.shot("map-7-phone-photo.png")
            self.assert_clean()
        finally:
            d.set_window_size(1100, 720)


if __name__ == "__main__":
    unittest.main()
