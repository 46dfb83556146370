import Foundation

/// `GET /`: the map page (docs/server.md#the-map-page). Leaflet (vendored,
/// `LeafletAssets`) draws the places and the footprints the database holds
/// from `GET /map/features`; nothing is loaded from another origin (no
/// tiles). Every value that came from the data is inserted as text
/// (`textContent`, `<bdi>`, `dir="auto"`), never as markup.
enum MapPage {
    /// The page's style sheet (`/map/assets/page.css`). Colours meet WCAG
    /// AA contrast (4.5:1 for text) on their backgrounds.
    static let style = #"""
        * { box-sizing: border-box; }
        html, body { height: 100%; }
        body { font: 15px/1.4 system-ui, sans-serif; margin: 0; color: #1d1d1d; background: #fff; display: flex; flex-direction: column; }
        header { background: #1f3347; color: #fff; padding: .45em .8em; display: flex; gap: .8em; align-items: center; flex-wrap: wrap; }
        header a#home { color: #fff; font-weight: 600; font-size: 1.1em; text-decoration: none; }
        #search-form { position: relative; flex: 1 1 16em; max-width: 34em; margin: 0; }
        #search { width: 100%; font: inherit; padding: .35em .5em; border: 1px solid #8a9bb0; border-radius: 4px; }
        #suggestions { position: absolute; z-index: 2000; left: 0; right: 0; top: 100%; margin: 2px 0 0; padding: 0; list-style: none;
          background: #fff; color: #1d1d1d; border: 1px solid #8a9bb0; border-radius: 4px; box-shadow: 0 4px 12px rgba(0,0,0,.25); }
        #suggestions li { padding: .4em .6em; cursor: pointer; border-bottom: 1px solid #e4e4e4; }
        #suggestions li[aria-selected="true"], #suggestions li:hover { background: #e3eefb; }
        #suggestions .secondary { color: #4a4a4a; font-size: .88em; display: block; }
        #status { color: #fff; font-size: .9em; }
        .banner { background: #fff4d6; color: #4d3800; border-bottom: 1px solid #e0c36b; padding: .4em .8em; margin: 0; }
        main { flex: 1; display: flex; min-height: 0; }
        #map { flex: 1 1 60%; min-height: 300px; background: #f2efe9; }
        #panel { flex: 0 0 26em; max-width: 40%; overflow-y: auto; padding: .6em .9em; border-left: 1px solid #cfcfcf; }
        section { margin-bottom: 1em; }
        h2 { font-size: 1.1em; margin: .2em 0 .4em; overflow-wrap: anywhere; }
        h3 { font-size: .95em; margin: .8em 0 .3em; color: #333; }
        ul.list { list-style: none; padding: 0; margin: 0; }
        ul.list li { padding: .25em 0; border-bottom: 1px solid #eee; overflow-wrap: anywhere; }
        a { color: #0b57a4; }
        .muted { color: #555; font-size: .9em; }
        .num { font-variant-numeric: tabular-nums; color: #444; white-space: nowrap; }
        .error { color: #8a1010; background: #fdeeee; border: 1px solid #e2a3a3; border-radius: 4px; padding: .3em .5em; }
        .open { color: #0b6b2b; font-weight: 600; }
        .closed { color: #8a1010; font-weight: 600; }
        dl.fields { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .15em .8em; margin: 0; }
        dl.fields dt { color: #555; }
        dl.fields dd { margin: 0; overflow-wrap: anywhere; }
        .photos { display: flex; gap: .6em; flex-wrap: wrap; }
        figure { margin: 0; flex: 1 1 100%; max-width: 30em; }
        figure img { width: 100%; height: auto; border-radius: 4px; display: block; }
        figcaption { font-size: .85em; color: #444; overflow-wrap: anywhere; }
        #current-svg svg { width: 100%; height: auto; border: 1px solid #ccc; }
        table.tags { border-collapse: collapse; font-size: .88em; width: 100%; }
        table.tags td { border-bottom: 1px solid #eee; padding: .1em .3em; vertical-align: top; overflow-wrap: anywhere; }
        form.tool { display: flex; gap: .4em; flex-wrap: wrap; margin: .3em 0; }
        form.tool input { font: inherit; padding: .2em .4em; min-width: 0; flex: 1 1 8em; }
        button { font: inherit; cursor: pointer; }
        .leaflet-container { font: inherit; }
        .leaflet-tooltip { max-width: 18em; white-space: normal; overflow-wrap: anywhere; }
        @media (max-width: 720px) {
          main { flex-direction: column; }
          #map { flex: 0 0 52vh; }
          #panel { flex: 1 0 auto; max-width: none; border-left: 0; border-top: 1px solid #cfcfcf; }
          header { gap: .4em; }
        }
        """#

    /// The page's script (`/map/assets/page.js`).
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
        async function call(method, path, mask, body, signal) {
          const r = await fetch(path, { method, headers: headers(mask), body: body ? JSON.stringify(body) : undefined, signal });
          const type = r.headers.get("Content-Type") || "";
          const data = type.startsWith("application/json") ? await r.json() : await r.text();
          if (!r.ok) throw new Error((data.error && data.error.message) || r.status + " " + r.statusText);
          return data;
        }
        // Every value from the data goes in as text; dir="auto" lets each take its own direction.
        function make(tag, props, children) {
          const el = document.createElement(tag);
          Object.assign(el, props || {});
          for (const c of children || []) if (c !== null && c !== undefined) el.append(c);
          return el;
        }
        function bdi(s) { return make("bdi", { textContent: s }); }
        function clip(s, n) { s = String(s); return s.length > n ? s.slice(0, n) + "…" : s; }
        function status(s) { $("status").textContent = s || ""; }
        function errorLine(where, e) { return make("p", { className: "error", textContent: where + ": " + (e && e.message || e) }); }
        function webLink(uri) {
          try {
            const u = new URL(uri, location.href);
            return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
          } catch (e) { return null; }
        }
        function meters(m) { return m < 1000 ? Math.round(m) + "\u00a0m" : (m / 1000).toFixed(1) + "\u00a0km"; }
        function placeName(p) { return (p.displayName && p.displayName.text) || p.id; }
        // The current-place picture: parsed as SVG (never HTML), stripped of anything active.
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

        // ---- State: every view is a URL (#q=, #place=, #fix=), so Back works.
        function stateURL(params) {
          // Readable: "/" and "," as they are (URLSearchParams reads them back alike).
          return "#" + Object.entries(params).map(([k, v]) => k + "=" + encodeURIComponent(v).replace(/%2F/g, "/").replace(/%2C/g, ",")).join("&");
        }
        function go(params) { location.hash = stateURL(params).slice(1); }
        function currentParams() { return Object.fromEntries(new URLSearchParams(location.hash.slice(1))); }
        function showOnly(id) {
          for (const s of ["landing", "results", "place", "current"]) $(s).hidden = s !== id;
        }

        // ---- The map.
        const map = L.map("map", { preferCanvas: true, minZoom: 1, maxZoom: 20, worldCopyJump: false, zoomSnap: 1 });
        map.attributionControl.setPrefix("Leaflet");
        map.attributionControl.addAttribution("placedb: your own data, offline");
        map.createPane("grid").style.zIndex = 300;
        map.createPane("basemap").style.zIndex = 350;
        const gridRenderer = L.canvas({ pane: "grid" });
        const baseRenderer = L.canvas({ pane: "basemap" });
        const gridLayer = L.layerGroup().addTo(map);
        const baseLayer = L.layerGroup().addTo(map);
        const pointLayer = L.layerGroup().addTo(map);
        const markLayer = L.layerGroup().addTo(map);
        const suggestLayer = L.layerGroup().addTo(map);
        const styles = {
          street: { color: "#9a9a9a", weight: 3, opacity: 0.9, fill: false },
          water: { color: "#6a9fd4", weight: 1, fillColor: "#aacbeb", fillOpacity: 0.8 },
          green: { color: "#7fae6e", weight: 1, fillColor: "#c7e3b4", fillOpacity: 0.7 },
          building: { color: "#a89f94", weight: 1, fillColor: "#d9d0c7", fillOpacity: 0.9 },
          boundary: { color: "#8c6bb1", weight: 1.5, dashArray: "4 4", fill: false },
          area: { color: "#c9bda6", weight: 1, fillColor: "#ebe3d3", fillOpacity: 0.6 },
        };
        function tooltipFor(name, type) {
          return () => make("span", {}, [bdi(clip(name || "(no name)", 80)), type ? make("span", { className: "muted", textContent: " · " + type }) : null]);
        }
        function drawGrid() {
          gridLayer.clearLayers();
          const b = map.getBounds(), span = Math.max(b.getEast() - b.getWest(), 1e-6);
          const steps = [90, 45, 30, 15, 10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005, 0.0002, 0.0001];
          const step = steps.find((s) => span / s >= 4) || 0.0001;
          const opts = { renderer: gridRenderer, color: "#cbc5ba", weight: 1, dashArray: "2 4", interactive: false };
          const south = Math.max(-85, b.getSouth()), north = Math.min(85, b.getNorth());
          const west = Math.max(-180, b.getWest()), east = Math.min(180, b.getEast());
          for (let x = Math.ceil(west / step) * step; x <= east; x += step) gridLayer.addLayer(L.polyline([[south, x], [north, x]], opts));
          for (let y = Math.ceil(south / step) * step; y <= north; y += step) gridLayer.addLayer(L.polyline([[y, west], [y, east]], opts));
        }
        let featureAbort = null, lastNote = "";
        async function loadFeatures() {
          const b = map.getBounds();
          const w = Math.max(-180, b.getWest()), e = Math.min(180, b.getEast()), s = Math.max(-90, b.getSouth()), n = Math.min(90, b.getNorth());
          if (!(w < e && s < n)) return;
          if (featureAbort) featureAbort.abort();
          featureAbort = new AbortController();
          try {
            const bbox = [w, s, e, n].map((v) => v.toFixed(6)).join(",");
            const data = await call("GET", "/map/features?bbox=" + bbox + "&zoom=" + map.getZoom() + "&prettyPrint=false" + (key ? "&key=" + encodeURIComponent(key) : ""), null, null, featureAbort.signal);
            baseLayer.clearLayers();
            pointLayer.clearLayers();
            for (const f of data.features) {
              const p = f.properties;
              if (p.layer === "point") {
                const m = L.circleMarker([f.geometry.coordinates[1], f.geometry.coordinates[0]],
                  { radius: 5, color: "#fff", weight: 1.5, fillColor: "#c2410c", fillOpacity: 1, bubblingMouseEvents: false });
                m.bindTooltip(tooltipFor(p.name, p.type));
                m.on("click", () => go({ place: p.id }));
                pointLayer.addLayer(m);
              } else {
                const layer = L.geoJSON(f, { style: Object.assign({ renderer: baseRenderer, interactive: false }, styles[p.layer] || styles.area) });
                baseLayer.addLayer(layer);
              }
            }
            // The graticule where the database has no outlines to draw here.
            if (data.counts.footprints === 0) drawGrid(); else gridLayer.clearLayers();
            const notes = [];
            if (data.truncated.points) notes.push("a sample of the places here; zoom in for all");
            if (data.zoomForFootprints) notes.push("outlines from zoom " + data.zoomForFootprints);
            lastNote = notes.join(" · ");
            $("map-note").textContent = lastNote;
          } catch (e) {
            if (e.name === "AbortError") return;
            drawGrid();
            $("map-note").replaceChildren(errorLine("Map features", e));
          }
        }
        let moveTimer = null, viewInURL = false;
        map.on("moveend", () => {
          clearTimeout(moveTimer);
          moveTimer = setTimeout(loadFeatures, 120);
          // The view is part of the URL without a new history entry (from the
          // first state's own view on: the placeholder view before it is not).
          if (!viewInURL) return;
          const c = map.getCenter(), params = currentParams();
          params.map = map.getZoom() + "/" + c.lat.toFixed(5) + "/" + c.lng.toFixed(5);
          history.replaceState(history.state, "", stateURL(params));
        });
        map.on("click", (ev) => {
          const acc = Number($("accuracy").value) || 20;
          go({ fix: ev.latlng.lat.toFixed(6) + "," + ev.latlng.lng.toFixed(6), accuracy: acc });
        });
        function viewFrom(params) {
          const parts = (params.map || "").split("/").map(Number);
          if (parts.length === 3 && parts.every(Number.isFinite)) { map.setView([parts[1], parts[2]], parts[0]); return true; }
          return false;
        }

        // The data's licences ask for their names on the map.
        const credits = { osm: "Data © OpenStreetMap contributors (ODbL)", overture: "Data © Overture Maps Foundation" };
        let credited = false;
        function attributeSources(s) {
          if (credited) return;
          credited = true;
          for (const r of s.bySource || []) if (credits[r.source]) map.attributionControl.addAttribution(credits[r.source]);
        }
        // ---- Landing: the data's extent, counts by source and type, examples.
        // Asked once (the server counts again only when the database changed).
        let summaryPromise = null;
        function getSummary() {
          if (!summaryPromise) {
            summaryPromise = call("GET", "/map/summary" + (key ? "?key=" + encodeURIComponent(key) : "")).then((s) => { attributeSources(s); return s; });
            summaryPromise.catch(() => { summaryPromise = null; });
          }
          return summaryPromise;
        }
        async function showLanding(params) {
          showOnly("landing");
          $("search").value = "";
          const box = $("landing-body");
          try {
            const seq = routeSeq;
            const s = await getSummary();
            if (seq !== routeSeq) return;
            box.replaceChildren();
            markLayer.clearLayers();
            if (!s.places) {
              box.append(make("p", { textContent: "The database holds no places yet (placedb import FILE adds some)." }));
              if (!viewFrom(params)) map.setView([20, 0], 2);
              return;
            }
            box.append(make("p", {}, [make("strong", { textContent: s.places.toLocaleString("en") + " places" }),
              s.footprints ? " · " + s.footprints.toLocaleString("en") + " outlines" : "", s.textIndex ? "" : " · no text index (search needs placedb text-index build)"]));
            const list = (title, rows, label, link) => {
              box.append(make("h3", { textContent: title }));
              box.append(make("ul", { className: "list" }, rows.map((r) => {
                const href = link && link(r);
                return make("li", {}, [make("span", { className: "num", textContent: r.count.toLocaleString("en") + " " }),
                  r[label] === "(none)" ? make("span", { className: "muted", textContent: "no type (outlines and other features)" })
                    : href ? make("a", { href }, [bdi(r[label].replace(/_/g, " "))]) : bdi(r[label])]);
              })));
            };
            list("By source", s.bySource, "source");
            list("By type", s.byType, "type", (r) => r.type === "(none)" ? null : stateURL({ q: r.type.replace(/_/g, " ") }));
            box.append(make("h3", { textContent: "Try" }));
            const tries = [];
            for (const e of s.examples) tries.push(make("li", {}, [make("a", { href: stateURL({ place: e.id }) }, [bdi(e.name)]), make("span", { className: "muted", textContent: " " + (e.type || "") })]));
            if (s.examples.length) {
              const e = s.examples[0];
              tries.push(make("li", {}, [make("a", { href: stateURL({ fix: e.location.latitude.toFixed(6) + "," + e.location.longitude.toFixed(6), accuracy: 20 }), textContent: "What is at " + e.location.latitude.toFixed(5) + "," + e.location.longitude.toFixed(5) + "?" })]));
            }
            const t = s.byType.find((r) => r.type !== "(none)");
            if (t && s.textIndex) tries.push(make("li", {}, [make("a", { href: stateURL({ q: t.type.replace(/_/g, " ") }) }, ["Search ", bdi(t.type.replace(/_/g, " "))])]));
            box.append(make("ul", { className: "list" }, tries));
            if (!viewFrom(params) && s.extent) {
              const x = s.extent;
              if (x.south === x.north && x.west === x.east) map.setView([x.south, x.west], 16);
              else map.fitBounds([[x.south, x.west], [x.north, x.east]], { padding: [20, 20] });
            }
          } catch (e) {
            box.replaceChildren(errorLine("Summary", e));
            if (!viewFrom(params)) map.setView([20, 0], 2);
          }
        }

        // ---- Type-ahead.
        let suggestTimer = null, suggestAbort = null, suggestions = [], selected = -1;
        function closeSuggestions() { suggestLayer.clearLayers(); $("suggestions").hidden = true; $("suggestions").replaceChildren(); suggestions = []; selected = -1; $("search").setAttribute("aria-expanded", "false"); }
        function markSelected() {
          [...$("suggestions").children].forEach((li, i) => li.setAttribute("aria-selected", i === selected ? "true" : "false"));
          if (selected >= 0) $("search").setAttribute("aria-activedescendant", "suggestion-" + selected);
          else $("search").removeAttribute("aria-activedescendant");
        }
        async function suggest(text) {
          if (suggestAbort) suggestAbort.abort();
          suggestAbort = new AbortController();
          const c = map.getCenter();
          try {
            const r = await call("POST", "/v1/places:autocomplete", null,
              { input: text, locationBias: { circle: { center: { latitude: c.lat, longitude: c.lng }, radius: 50000 } } }, suggestAbort.signal);
            suggestions = (r.suggestions || []).filter((s) => s.placePrediction);
            const ul = $("suggestions");
            ul.replaceChildren(...suggestions.map((s, i) => {
              const p = s.placePrediction, f = p.structuredFormat;
              const li = make("li", { role: "option", id: "suggestion-" + i, dir: "auto" }, [
                bdi(f ? f.mainText.text : p.text.text),
                f && f.secondaryText ? make("span", { className: "secondary", dir: "auto", textContent: f.secondaryText.text }) : null]);
              li.addEventListener("mousedown", (ev) => { ev.preventDefault(); pick(i); });
              return li;
            }));
            if (!suggestions.length) ul.replaceChildren(make("li", { className: "muted", textContent: "no suggestions; Enter searches" }));
            ul.hidden = false;
            showSuggestionsOnMap(suggestions, suggestAbort.signal);
            $("search").setAttribute("aria-expanded", "true");
            selected = -1;
          } catch (e) {
            if (e.name === "AbortError") return;
            $("suggestions").replaceChildren(make("li", { className: "error", textContent: "Autocomplete: " + e.message }));
            $("suggestions").hidden = false;
          }
        }
        // The suggestions on the map too (their locations from Place Details), numbered as listed.
        async function showSuggestionsOnMap(list, signal) {
          const located = await Promise.all(list.map((s) => call("GET", "/v1/places/" + encodeURIComponent(s.placePrediction.placeId), "id,location", null, signal).catch(() => null)));
          if (signal.aborted) return;
          suggestLayer.clearLayers();
          located.forEach((p, i) => {
            if (!p || !p.location) return;
            const m = L.circleMarker([p.location.latitude, p.location.longitude], { radius: 7, color: "#fff", weight: 2, fillColor: "#1d4ed8", fillOpacity: 1, bubblingMouseEvents: false });
            const f = list[i].placePrediction.structuredFormat;
            m.bindTooltip(tooltipFor(f ? f.mainText.text : list[i].placePrediction.text.text, null));
            m.on("click", () => pick(i));
            suggestLayer.addLayer(m);
          });
        }
        function pick(i) {
          const s = suggestions[i];
          closeSuggestions();
          if (s) go({ place: s.placePrediction.placeId });
        }
        $("search").addEventListener("input", () => {
          clearTimeout(suggestTimer);
          const text = $("search").value.trim();
          if (text.length < 2) { closeSuggestions(); return; }
          suggestTimer = setTimeout(() => suggest(text), 120);
        });
        $("search").addEventListener("keydown", (ev) => {
          if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
            if (!suggestions.length) return;
            ev.preventDefault();
            selected = (selected + (ev.key === "ArrowDown" ? 1 : suggestions.length - 1)) % suggestions.length;
            markSelected();
          } else if (ev.key === "Escape") {
            closeSuggestions();
          } else if (ev.key === "Enter" && selected >= 0) {
            ev.preventDefault();
            pick(selected);
          }
        });
        $("search").addEventListener("blur", () => setTimeout(closeSuggestions, 150));
        $("search-form").addEventListener("submit", (ev) => {
          ev.preventDefault();
          const q = $("search").value.trim();
          closeSuggestions();
          if (q) go({ q });
        });

        // ---- Search results.
        async function showResults(q, params) {
          showOnly("results");
          $("search").value = q;
          $("results-q").textContent = q;
          const list = $("result-list");
          list.replaceChildren(make("li", { className: "muted", textContent: "searching…" }));
          markLayer.clearLayers();
          try {
            const c = map.getCenter();
            const body = { textQuery: q };
            if (map.getZoom() >= 8) body.locationBias = { circle: { center: { latitude: c.lat, longitude: c.lng }, radius: 50000 } };
            const seq = routeSeq;
            const r = await call("POST", "/v1/places:searchText", "places.id,places.displayName,places.formattedAddress,places.location,places.primaryType", body);
            if (seq !== routeSeq) return;
            const places = r.places || [];
            list.replaceChildren(...places.map((p) => make("li", {}, [make("a", { href: stateURL({ place: p.id }) }, [bdi(clip(placeName(p), 200))]),
              p.formattedAddress ? make("div", { className: "muted", dir: "auto", textContent: clip(p.formattedAddress, 200) }) : null])));
            if (!places.length) list.replaceChildren(make("li", { className: "muted", textContent: "no places found" }));
            const pts = [];
            for (const p of places) if (p.location) {
              const ll = [p.location.latitude, p.location.longitude];
              pts.push(ll);
              const m = L.circleMarker(ll, { radius: 8, color: "#fff", weight: 2, fillColor: "#1d4ed8", fillOpacity: 1, bubblingMouseEvents: false });
              m.bindTooltip(tooltipFor(placeName(p), p.primaryType));
              m.on("click", () => go({ place: p.id }));
              markLayer.addLayer(m);
            }
            if (!viewFrom(params) && pts.length) map.fitBounds(pts, { padding: [40, 40], maxZoom: 17 });
          } catch (e) {
            list.replaceChildren(make("li", {}, [errorLine("Search", e)]));
          }
        }

        // ---- Place details.
        async function showPlace(id, params) {
          showOnly("place");
          const body = $("place-body");
          $("place-name").textContent = id;
          body.replaceChildren(make("p", { className: "muted", textContent: "loading…" }));
          markLayer.clearLayers();
          const seq = routeSeq;
          try {
            const [p, more] = await Promise.all([
              call("GET", "/v1/places/" + encodeURIComponent(id) + (key ? "?key=" + encodeURIComponent(key) : ""), "*,openNow"),
              call("GET", "/map/places/" + encodeURIComponent(id) + (key ? "?key=" + encodeURIComponent(key) : "")).catch(() => null)]);
            if (seq !== routeSeq) return;
            $("place-name").textContent = placeName(p);
            body.replaceChildren();
            const line = [];
            if (p.primaryType) line.push(make("span", { textContent: p.primaryType.replace(/_/g, " ") }));
            if (p.openNow === true) line.push(make("span", { className: "open", textContent: "Open now" }));
            if (p.openNow === false) line.push(make("span", { className: "closed", textContent: "Closed now" }));
            if (p.businessStatus && p.businessStatus !== "OPERATIONAL") line.push(make("span", { className: "closed", textContent: p.businessStatus.replace(/_/g, " ").toLowerCase() }));
            if (line.length) body.append(make("p", {}, line.flatMap((x, i) => i ? [" · ", x] : [x])));
            const dl = make("dl", { className: "fields" });
            const row = (k, v) => { if (v !== undefined && v !== null && v !== "") dl.append(make("dt", { textContent: k }), make("dd", { dir: "auto" }, [v])); };
            row("address", p.formattedAddress);
            if (p.rating) row("rating", p.rating + " (" + (p.userRatingCount || 0) + ")");
            const site = p.websiteUri && webLink(p.websiteUri);
            if (p.websiteUri) row("website", site ? make("a", { href: site, rel: "noopener noreferrer", textContent: clip(p.websiteUri, 80) }) : p.websiteUri);
            row("phone", p.internationalPhoneNumber || p.nationalPhoneNumber);
            if (p.location) row("location", p.location.latitude.toFixed(6) + "," + p.location.longitude.toFixed(6));
            body.append(dl);
            const hours = p.regularOpeningHours && (p.regularOpeningHours.weekdayDescriptions || periodLines(p.regularOpeningHours.periods));
            if (hours && hours.length) {
              body.append(make("h3", { textContent: "Hours" }), make("ul", { className: "list" }, hours.map((h) => make("li", { dir: "auto", textContent: h }))));
            }
            // Photos: those with a local image, each with its authors; the others counted in one line.
            const photos = p.photos || [];
            if (photos.length) {
              const box = make("div", { className: "photos" });
              body.append(make("h3", { textContent: "Photos" }), box);
              let without = 0;
              for (const photo of photos.slice(0, 6)) {
                try {
                  if (seq !== routeSeq) return;
                  const media = await call("GET", "/v1/" + photo.name.split("/").map(encodeURIComponent).join("/") + "/media?maxWidthPx=640&skipHttpRedirect=true" + (key ? "&key=" + encodeURIComponent(key) : ""));
                  const by = (photo.authorAttributions || []).map((a) => {
                    const href = webLink(a.uri), label = clip(a.displayName || a.uri || "", 80);
                    return href ? make("a", { href, rel: "noopener noreferrer" }, [bdi(label)]) : bdi(label);
                  });
                  const caption = make("figcaption", { className: "attribution" }, by.length ? ["Photo: "].concat(by.flatMap((x, i) => i ? [", ", x] : [x])) : ["Photo"]);
                  box.append(make("figure", {}, [make("img", { src: media.photoUri, alt: "Photo of " + clip(placeName(p), 80), className: "photo" }), caption]));
                } catch (e) { without += 1; }
              }
              without += Math.max(0, photos.length - 6);
              if (without) body.append(make("p", { className: "muted", textContent: without + (without === 1 ? " photo has" : " photos have") + " no local image here (placedb photo add stores one)." }));
            }
            // Sources and IDs.
            body.append(make("h3", { textContent: "Sources and IDs" }));
            const ids = make("dl", { className: "fields" });
            const idRow = (k, v) => { if (v) ids.append(make("dt", { textContent: k }), make("dd", { dir: "auto" }, [v])); };
            idRow("place ID", p.id);
            if (p.requestedId) idRow("asked for", p.requestedId);
            if (more && more.provenance) {
              idRow("source", more.provenance.source);
              idRow("captured", more.provenance.capturedAt);
              for (const r of more.provenance.records || []) idRow("record", r.placeId + " (" + r.source + ")");
            }
            body.append(ids);
            const tags = more && more.extra && more.extra.osm && more.extra.osm.tags;
            if (tags && typeof tags === "object") {
              body.append(make("h3", { textContent: "OpenStreetMap tags" }));
              body.append(make("table", { className: "tags" }, Object.entries(tags).map(([k, v]) =>
                make("tr", {}, [make("td", { dir: "auto", textContent: k }), make("td", { dir: "auto", textContent: typeof v === "string" ? v : JSON.stringify(v) })]))));
            }
            if (p.location) {
              const ll = [p.location.latitude, p.location.longitude];
              markLayer.addLayer(L.circleMarker(ll, { radius: 11, color: "#1d4ed8", weight: 3, fillColor: "#1d4ed8", fillOpacity: 0.25, interactive: false }));
              if (!viewFrom(params)) map.setView(ll, Math.max(map.getZoom() || 0, 17));
              if (seq === routeSeq) await showNearby(p, body, seq);
            }
          } catch (e) {
            if (seq === routeSeq) body.replaceChildren(errorLine(id, e));
          }
        }
        // Hours from periods when the record has no weekday descriptions.
        function periodLines(periods) {
          if (!Array.isArray(periods)) return null;
          const days = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
          const hm = (t) => String(t.hour || 0).padStart(2, "0") + ":" + String(t.minute || 0).padStart(2, "0");
          const byDay = days.map(() => []);
          for (const q of periods) if (q.open && Number.isInteger(q.open.day) && q.open.day >= 0 && q.open.day < 7) {
            byDay[q.open.day].push(q.close ? hm(q.open) + "–" + hm(q.close) : "open 24 hours");
          }
          return [1, 2, 3, 4, 5, 6, 0].map((d) => days[d] + ": " + (byDay[d].length ? byDay[d].join(", ") : "Closed"));
        }
        async function showNearby(p, body, seq) {
          try {
            const r = await call("POST", "/v1/places:searchNearby", "places.id,places.displayName,places.primaryType",
              { locationRestriction: { circle: { center: p.location, radius: 1000 } }, maxResultCount: 10, rankPreference: "DISTANCE" });
            if (seq !== routeSeq) return;
            const others = (r.places || []).filter((q) => q.id !== p.id);
            if (!others.length) return;
            body.append(make("h3", { textContent: "Nearby" }), make("ul", { className: "list" }, others.map((q) => make("li", {}, [
              make("span", { className: "num", textContent: meters(q.distanceMeters) + " " }),
              make("a", { href: stateURL({ place: q.id }) }, [bdi(clip(placeName(q), 120))]),
              q.primaryType ? make("span", { className: "muted", textContent: " · " + q.primaryType }) : null]))));
          } catch (e) { body.append(errorLine("Nearby", e)); }
        }

        // ---- Current place at a point.
        async function showCurrent(lat, lng, accuracy, params) {
          showOnly("current");
          $("fix").value = lat.toFixed(6) + "," + lng.toFixed(6);
          $("accuracy").value = accuracy;
          const body = $("current-body");
          $("current-where").textContent = lat.toFixed(5) + "," + lng.toFixed(5) + " ± " + accuracy + " m";
          body.replaceChildren(make("p", { className: "muted", textContent: "asking…" }));
          markLayer.clearLayers();
          markLayer.addLayer(L.circle([lat, lng], { radius: accuracy, color: "#b45309", weight: 2, fillOpacity: 0.12, interactive: false }));
          markLayer.addLayer(L.circleMarker([lat, lng], { radius: 4, color: "#b45309", fillColor: "#b45309", fillOpacity: 1, interactive: false }));
          if (!viewFrom(params) && !map.getBounds().contains([lat, lng])) map.setView([lat, lng], Math.max(map.getZoom(), 16));
          const req = { location: { latitude: lat, longitude: lng }, accuracyMeters: accuracy, maxResultCount: 5 };
          const seq = routeSeq;
          try {
            const [r, svg] = await Promise.all([
              call("POST", "/placedb/v1/currentPlace", "placeLikelihoods.place.id,placeLikelihoods.place.displayName,placeLikelihoods.place.primaryType", req),
              call("POST", "/placedb/v1/currentPlace:svg", null, req).catch(() => null)]);
            if (seq !== routeSeq) return;
            body.replaceChildren();
            if (r.approximate) body.append(make("p", { className: "muted", textContent: "The fix is too coarse to name a place" + (r.locality && r.locality.displayName ? "; in " : "."), }, r.locality && r.locality.displayName ? [bdi(r.locality.displayName.text)] : []));
            const items = (r.placeLikelihoods || []).map((l) => make("li", {}, [
              make("span", { className: "num", textContent: (100 * l.likelihood).toFixed(1) + "% " }),
              make("a", { href: stateURL({ place: l.place.id }) }, [bdi(clip(placeName(l.place), 120))]),
              l.place.primaryType ? make("span", { className: "muted", textContent: " · " + l.place.primaryType }) : null]));
            items.push(make("li", { className: "muted", textContent: "none of these: " + (100 * (r.noneLikelihood || 0)).toFixed(1) + "%" }));
            body.append(make("ul", { className: "list", id: "current-list" }, items));
            if (svg) {
              try { body.append(make("div", { id: "current-svg" }, [svgPicture(svg)])); } catch (e) { body.append(errorLine("Picture", e)); }
            }
          } catch (e) {
            body.replaceChildren(errorLine("Current place", e));
          }
        }

        // ---- Tools: open an ID, ask about a point.
        $("id-form").addEventListener("submit", (ev) => { ev.preventDefault(); const id = $("place-id").value.trim(); if (id) go({ place: id }); });
        $("fix-form").addEventListener("submit", (ev) => {
          ev.preventDefault();
          const [lat, lng] = $("fix").value.split(",").map(Number);
          if (Number.isFinite(lat) && Number.isFinite(lng)) go({ fix: lat + "," + lng, accuracy: Number($("accuracy").value) || 20 });
          else $("tools-note").textContent = "Give the point as lat,lng (46.52,6.63).";
        });

        async function health() {
          try {
            const h = await fetch("/placedb/v1/health" + (key ? "?key=" + encodeURIComponent(key) : ""), { headers: headers() });
            const j = await h.json().catch(() => ({}));
            if (h.ok) return;
            const b = $("banner");
            b.textContent = j.reason || (j.error && j.error.message) || ("The database cannot be read: HTTP " + h.status);
            b.hidden = false;
          } catch (e) { /* the server is gone: the requests say so */ }
        }

        // Each state shown bumps this; an answer that arrives for an older state is dropped.
        let routeSeq = 0;
        function route() {
          const params = currentParams();
          routeSeq += 1;
          viewInURL = true;
          if (params.place) return showPlace(params.place, params);
          if (params.fix) {
            const [lat, lng] = params.fix.split(",").map(Number);
            if (Number.isFinite(lat) && Number.isFinite(lng)) return showCurrent(lat, lng, Number(params.accuracy) || 20, params);
          }
          if (params.q) return showResults(params.q, params);
          return showLanding(params);
        }
        window.addEventListener("hashchange", route);
        health();
        getSummary().catch(() => {});
        // A first view (the landing or the state's own) before features are asked for.
        if (!viewFrom(currentParams())) map.setView([20, 0], 2);
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
        <link rel="icon" href="data:,">
        <link rel="stylesheet" href="/map/assets/leaflet.css">
        <link rel="stylesheet" href="/map/assets/page.css">
        </head>
        <body>
        <header>
          <a id="home" href="#">placedb</a>
          <form id="search-form" role="search" autocomplete="off">
            <input id="search" type="search" placeholder="Search places (type to see suggestions)" dir="auto" aria-label="Search places"
                   role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="suggestions">
            <ul id="suggestions" role="listbox" hidden></ul>
          </form>
          <span id="status" role="status"></span>
        </header>
        <p id="banner" class="banner" role="alert" hidden></p>
        <main>
          <div id="map" role="application" aria-label="Map of the places (click a point for its current place)"></div>
          <aside id="panel">
            <p id="map-note" class="muted"></p>
            <section id="landing"><h2>This database</h2><div id="landing-body"><p class="muted">loading…</p></div></section>
            <section id="results" hidden><h2>Results for <bdi id="results-q"></bdi></h2><ul id="result-list" class="list"></ul></section>
            <section id="place" hidden><h2 id="place-name" dir="auto"></h2><div id="place-body"></div></section>
            <section id="current" hidden><h2>Current place <span class="muted" id="current-where"></span></h2><div id="current-body"></div></section>
            <section id="tools">
              <h3>Tools</h3>
              <form id="id-form" class="tool"><input id="place-id" placeholder="Place ID" aria-label="Place ID" dir="auto"><button>Open</button></form>
              <form id="fix-form" class="tool"><input id="fix" placeholder="lat,lng" aria-label="Point (lat,lng)"><input id="accuracy" value="20" size="4" aria-label="Accuracy (m)" title="accuracy (m)"><button>Where am I?</button></form>
              <p id="tools-note" class="muted">Click the map to ask what is there; the accuracy is the circle's radius in meters. The database is read-only here.</p>
              <p class="muted"><a href="/map/assets/leaflet-LICENSE.txt">Leaflet's licence</a></p>
            </section>
          </aside>
        </main>
        <script src="/map/assets/leaflet.js"></script>
        <script src="/map/assets/page.js"></script>
        </body>
        </html>
        """

    /// The assets the page loads, by path (each under
    /// `PlacesRouter.mapAssetPrefix`): bytes and content type.
    static let assets: [String: (body: [UInt8], type: String)] = [
        "/map/assets/leaflet.js": (decode(LeafletAssets.scriptBase64), "text/javascript; charset=UTF-8"),
        "/map/assets/leaflet.css": (decode(LeafletAssets.styleBase64), "text/css; charset=UTF-8"),
        "/map/assets/leaflet-LICENSE.txt": (decode(LeafletAssets.licenseBase64), "text/plain; charset=UTF-8"),
        "/map/assets/page.js": (Array(script.utf8), "text/javascript; charset=UTF-8"),
        "/map/assets/page.css": (Array(style.utf8), "text/css; charset=UTF-8"),
    ]

    static func decode(_ base64: String) -> [UInt8] {
        [UInt8](Data(base64Encoded: base64) ?? Data())
    }

    /// The headers of the page and its assets: a policy that lets the page
    /// run only scripts and styles from this server and talk only to it,
    /// so nothing imported can run even if it reached the markup; no MIME
    /// sniffing; no referrer sent to linked sites.
    static func headers(contentType: String) -> [(String, String)] {
        [
            ("Content-Type", contentType),
            ("Content-Security-Policy", contentSecurityPolicy),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
        ]
    }

    static let contentSecurityPolicy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'",
        "img-src 'self' data:", "connect-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
    ].joined(separator: "; ")
}
