/// `GET /`: one small page to explore the database through the server's
/// own routes (HTML, CSS and JavaScript written here; no outside assets, no
/// map tiles). docs/server.md.
enum ExplorerPage {
    /// The page's style sheet (inline; allowed by its hash).
    static let style = #"""
  body { font: 15px/1.4 system-ui, sans-serif; margin: 0; color: #222; background: #fafafa; }
  header { background: #234; color: #fff; padding: .6em 1em; display: flex; gap: 1em; align-items: center; flex-wrap: wrap; }
  header h1 { font-size: 1.1em; margin: 0; }
  header form { display: flex; gap: .4em; }
  input { font: inherit; padding: .25em .4em; }
  button { font: inherit; cursor: pointer; }
  main { display: grid; grid-template-columns: minmax(16em, 1fr) 2fr; gap: 1em; padding: 1em; }
  section { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: .8em 1em; }
  h2 { font-size: 1em; margin: 0 0 .5em; }
  ul { list-style: none; padding: 0; margin: 0; }
  li { padding: .2em 0; border-bottom: 1px solid #eee; }
  a { color: #05a; cursor: pointer; text-decoration: none; }
  .muted { color: #777; font-size: .9em; }
  .error { color: #b00; }
  .photos { display: flex; gap: .6em; flex-wrap: wrap; }
  figure { margin: 0; max-width: 220px; }
  figure img { max-width: 220px; border-radius: 4px; display: block; }
  figcaption { font-size: .8em; color: #555; }
  #current svg { max-width: 100%; height: auto; cursor: crosshair; border: 1px solid #ddd; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .1em 1em; margin: 0; }
  dt { color: #666; }
"""#

    /// The page's script (inline; allowed by its hash). Data from the
    /// database is inserted as text (`textContent`), never as markup; only
    /// http and https URIs become links; the current-place picture is
    /// parsed as SVG and stripped of anything active.
    static let script = #"""
"use strict";
const key = new URLSearchParams(location.search).get("key");
const $ = (id) => document.getElementById(id);
function headers(mask) {
  const h = { "Content-Type": "application/json" };
  if (mask) h["X-Goog-FieldMask"] = mask;
  if (key) h["X-Goog-Api-Key"] = key;
  return h;
}
async function call(method, path, mask, body) {
  const r = await fetch(path, { method, headers: headers(mask), body: body ? JSON.stringify(body) : undefined });
  const type = r.headers.get("Content-Type") || "";
  const data = type.startsWith("application/json") ? await r.json() : await r.text();
  if (!r.ok) throw new Error((data.error && data.error.message) || r.status + " " + r.statusText);
  return data;
}
function text(el, s) { el.textContent = s; return el; }
function make(tag, props, children) {
  const el = document.createElement(tag);
  Object.assign(el, props || {});
  for (const c of children || []) el.append(c);
  return el;
}
function status(s, isError) { const el = $("status"); el.textContent = s || ""; el.className = isError ? "error" : "muted"; }
function placeLink(p, extra) {
  const a = make("a", { textContent: (p.displayName && p.displayName.text) || p.id, href: "#place=" + encodeURIComponent(p.id) });
  return make("li", { className: "place-item" }, [a, make("span", { className: "muted", textContent: extra ? "  " + extra : "" })]);
}
// Imported data never becomes code: only a web (http or https) URI becomes
// a link; anything else (a script or data URI, ...) is shown as text.
function webLink(uri) {
  try {
    const u = new URL(uri, location.href);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
  } catch (e) { return null; }
}
// The picture is parsed as SVG (never as HTML) and kept inert: no script,
// no foreign content, no links, no event handler attributes.
function svgPicture(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const root = doc.documentElement;
  if (!(root instanceof SVGSVGElement)) throw new Error("the picture is not SVG");
  for (const el of [root, ...root.querySelectorAll("*")]) {
    if (["script", "foreignObject", "a", "iframe", "use", "image"].includes(el.localName)) { el.remove(); continue; }
    for (const at of [...el.attributes]) if (/^on|href$/i.test(at.localName)) el.removeAttribute(at.name);
  }
  return document.importNode(root, true);
}
function meters(m) { return m < 1000 ? Math.round(m) + " m" : (m / 1000).toFixed(1) + " km"; }

async function search(q) {
  status("searching…");
  const list = $("result-list");
  try {
    const r = await call("POST", "/v1/places:searchText", "places.id,places.displayName,places.formattedAddress", { textQuery: q });
    list.replaceChildren(...(r.places || []).map((p) => placeLink(p, p.formattedAddress || "")));
    if (!(r.places || []).length) list.replaceChildren(make("li", { className: "muted", textContent: "no places found" }));
    status("");
  } catch (e) {
    list.replaceChildren(make("li", { className: "error", textContent: "Search by name: " + e.message }));
    status("");
  }
}

async function showPlace(id) {
  status("loading " + id + "…");
  try {
    const p = await call("GET", "/v1/places/" + encodeURIComponent(id), "*");
    $("place").hidden = false;
    text($("place-name"), (p.displayName && p.displayName.text) || p.id);
    const dl = $("place-fields");
    dl.replaceChildren();
    const rows = [["id", p.id], ["types", (p.types || []).join(", ")], ["address", p.formattedAddress],
                  ["location", p.location && p.location.latitude + "," + p.location.longitude],
                  ["rating", p.rating && p.rating + " (" + (p.userRatingCount || 0) + ")"], ["status", p.businessStatus],
                  ["hours", p.regularOpeningHours && (p.regularOpeningHours.weekdayDescriptions || []).join("; ")],
                  ["website", p.websiteUri], ["phone", p.internationalPhoneNumber], ["asked for", p.requestedId]];
    for (const [k, v] of rows) if (v) dl.append(make("dt", { textContent: k }), make("dd", { textContent: v }));
    const photos = $("photos");
    photos.replaceChildren();
    for (const photo of p.photos || []) {
      try {
        const media = await call("GET", "/v1/" + photo.name.split("/").map(encodeURIComponent).join("/") + "/media?maxWidthPx=400&skipHttpRedirect=true" + (key ? "&key=" + encodeURIComponent(key) : ""));
        const by = (photo.authorAttributions || []).map((a) => {
          const href = webLink(a.uri), label = a.displayName || a.uri || "";
          return href ? make("a", { href, textContent: label, rel: "noopener noreferrer" }) : make("span", { textContent: label });
        });
        const caption = make("figcaption", { className: "attribution" }, by.length ? ["Photo: "].concat(by) : ["Photo"]);
        photos.append(make("figure", {}, [make("img", { src: media.photoUri, alt: photo.name, className: "photo" }), caption]));
      } catch (e) { /* a photo without a local image is listed by name only */
        photos.append(make("figure", {}, [make("figcaption", { className: "muted", textContent: "no local image: " + photo.name.split("/").pop().slice(0, 24) })]));
      }
    }
    if (p.location) {
      $("fix").value = p.location.latitude + "," + p.location.longitude;
      await showNearby(p.location);
    }
    status("");
  } catch (e) {
    status(id + ": " + e.message, true);
  }
}

async function showNearby(center) {
  const r = await call("POST", "/v1/places:searchNearby", "places.id,places.displayName,places.primaryType",
                       { locationRestriction: { circle: { center, radius: 2000 } }, maxResultCount: 20 });
  $("nearby").hidden = false;
  $("nearby-list").replaceChildren(...(r.places || []).map((p) => placeLink(p, meters(p.distanceMeters) + (p.primaryType ? " · " + p.primaryType : ""))));
}

async function showCurrent(lat, lng, accuracy) {
  status("asking where " + lat.toFixed(6) + "," + lng.toFixed(6) + " is…");
  const body = { location: { latitude: lat, longitude: lng }, accuracyMeters: accuracy, maxResultCount: 5 };
  try {
    const svg = await call("POST", "/placedb/v1/currentPlace:svg", null, body);
    const r = await call("POST", "/placedb/v1/currentPlace", "placeLikelihoods.place.id,placeLikelihoods.place.displayName", body);
    $("current").hidden = false;
    const pic = svgPicture(svg);
    $("current-svg").replaceChildren(pic);
    const circle = pic && pic.querySelector(".accuracy-circle");
    if (pic && circle) {
      pic.addEventListener("click", (ev) => {
        const pt = pic.createSVGPoint(); pt.x = ev.clientX; pt.y = ev.clientY;
        const p = pt.matrixTransform(pic.getScreenCTM().inverse());
        const perMeter = parseFloat(circle.getAttribute("r")) / accuracy;
        const east = (p.x - parseFloat(circle.getAttribute("cx"))) / perMeter;
        const north = (parseFloat(circle.getAttribute("cy")) - p.y) / perMeter;
        const nlat = lat + north / 111320, nlng = lng + east / (111320 * Math.cos(lat * Math.PI / 180));
        $("fix").value = nlat.toFixed(6) + "," + nlng.toFixed(6);
        showCurrent(nlat, nlng, accuracy);
      });
    }
    const items = (r.placeLikelihoods || []).map((l) => placeLink(l.place, (100 * l.likelihood).toFixed(1) + "%"));
    items.push(make("li", { className: "muted", textContent: "none of these: " + (100 * r.noneLikelihood).toFixed(1) + "%" }));
    $("current-list").replaceChildren(...items);
    status("");
  } catch (e) {
    status(e.message, true);
  }
}

$("search-form").addEventListener("submit", (e) => { e.preventDefault(); const q = $("search").value.trim(); if (q) search(q); });
$("id-form").addEventListener("submit", (e) => { e.preventDefault(); const id = $("place-id").value.trim(); if (id) location.hash = "place=" + encodeURIComponent(id); });
$("fix-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const [lat, lng] = $("fix").value.split(",").map(Number);
  if (Number.isFinite(lat) && Number.isFinite(lng)) location.hash = "fix=" + lat + "," + lng + "&accuracy=" + (Number($("accuracy").value) || 20);
  else status("give the point as lat,lng", true);
});
function route() {
  const h = new URLSearchParams(location.hash.slice(1));
  if (h.get("place")) showPlace(h.get("place"));
  if (h.get("fix")) {
    const [lat, lng] = h.get("fix").split(",").map(Number);
    $("fix").value = h.get("fix");
    $("accuracy").value = Number(h.get("accuracy")) || 20;
    showCurrent(lat, lng, Number(h.get("accuracy")) || 20);
  }
  if (h.get("q")) { $("search").value = h.get("q"); search(h.get("q")); }
}
window.addEventListener("hashchange", route);
route();
"""#

    /// The page.
    static let html = """
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>placedb</title>
<style>\(style)</style>
</head>
<body>
<header>
  <h1>placedb</h1>
  <form id="search-form"><input id="search" placeholder="Search by name" size="24"><button>Search</button></form>
  <form id="id-form"><input id="place-id" placeholder="Place ID" size="24"><button>Open</button></form>
  <form id="fix-form"><input id="fix" placeholder="lat,lng" size="18"><input id="accuracy" value="20" size="4" title="accuracy (m)"><button>Where am I?</button></form>
  <span id="status" class="muted"></span>
</header>
<main>
  <div>
    <section id="results"><h2>Places</h2><ul id="result-list"><li class="muted">Search by name, open an ID, or ask where a point is.</li></ul></section>
  </div>
  <div>
    <section id="place" hidden><h2 id="place-name"></h2><dl id="place-fields"></dl><div class="photos" id="photos"></div></section>
    <section id="nearby" hidden><h2>Nearby</h2><ul id="nearby-list"></ul></section>
    <section id="current" hidden><h2>Current place <span class="muted">(click the picture to move the fix)</span></h2><div id="current-svg"></div><ul id="current-list"></ul></section>
  </div>
</main>
<script>\(script)</script>
</body>
</html>
"""

    /// The headers of the page's response: a policy that lets the page run
    /// only its own script and style (by their SHA-256) and talk only to
    /// this server, so nothing imported can run even if it reached the
    /// markup; no MIME sniffing; no referrer sent to linked sites.
    static let headers: [(String, String)] = [
        ("Content-Type", "text/html; charset=UTF-8"),
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    ]

    static let contentSecurityPolicy = [
        "default-src 'none'", "script-src \(SHA256.cspSource(script))", "style-src \(SHA256.cspSource(style))",
        "img-src 'self' data:", "connect-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
    ].joined(separator: "; ")
}
