{#
Companion's service worker (served at /sw.js, so its scope is the whole app), filled in by
companion/web/assets.py from the static files' content-hashed names.

- Versions: VERSION and PRECACHE come from the hashes of the static files, so any changed
  script or style is a new worker. It installs at once, takes over the open pages and drops
  the caches of older versions. Pages name their scripts and styles by content-hashed URLs
  (/static/app.3f9c2a1b07.js), so a page never runs a script older than itself.
- Static files: answered from the cache at once and refreshed in the background
  (stale-while-revalidate), so the app opens without a connection. Offline, a page copy
  kept from before an update gets the current version of a file it names by an older name.
- Pages: network first. The last good copy of a page the server marks
  "X-Companion-Offline: copy" (scoreboards, round breakdowns, the home page) is kept and
  shown when the network fails; the page itself then says "as of …" (static/js/offline.js,
  static/js/live.js). Round forms are never kept: an old copy would carry an old revision and
  a used idempotency key (companion/web/offline.py says why).
- Posts (saves) are never touched here: they go to the network, and a save that cannot be
  sent waits in the page's IndexedDB outbox (static/js/offline.js).

Edit-link pages are answered "Cache-Control: no-store" so that no browser or proxy cache keeps
them. This worker does keep the last copy of the scorekeeper's scoreboard in the Cache API:
that storage belongs to this origin on this device only (no other site and no other phone can
read it, and it is cleared with the site's data), which is what the table needs to see the
scores without a connection. Nothing is kept from another origin.
(This block is a template comment: the phones are not sent it.)
#}
"use strict";

var VERSION = {{ version|tojson }};
var STATIC = "companion-static-" + VERSION;
var PAGES = "companion-pages-v1"; // kept across versions: a scoreboard's copy outlives an update
var KEEP_PAGES = 60; // the newest copies; older ones are dropped
var FALLBACK = {{ fallback|tojson }};
var PRECACHE = [FALLBACK].concat({{ precache|tojson }});
{# Every static file's address now, by its plain name ("app.css": "/static/app.3f9c2a1b07.css"). #}
var CURRENT = {{ current|tojson }};
var HASHED = new RegExp({{ hashed|tojson }}); // a hashed name: its stem, its hash, its suffix

self.addEventListener("install", function (event) {
  {# Saves go straight to the network, without this worker: no worker to start or wait for #}
  {# first, so a save tapped just before switching tabs leaves at once (Chromium's static #}
  {# routing, where the browser has it; elsewhere the fetch handler below lets posts pass). #}
  var routed = event.addRoutes
    ? event.addRoutes([{ condition: { requestMethod: "POST" }, source: "network" }]).catch(function () { })
    : Promise.resolve();
  event.waitUntil(
    routed.then(function () { return caches.open(STATIC); })
      .then(function (cache) { return cache.addAll(PRECACHE); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("companion-") === 0 && name !== STATIC && name !== PAGES;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function keep(request, answer) {
  return caches.open(PAGES).then(function (cache) {
    return cache.delete(request.url).then(function () { return cache.put(request.url, answer); })
      .then(function () { return cache.keys(); })
      .then(function (keys) {
        {# keys come oldest first: a page seen again was deleted and put back at the end #}
        return Promise.all(keys.slice(0, Math.max(0, keys.length - KEEP_PAGES))
          .map(function (old) { return cache.delete(old); }));
      });
  });
}

function page(event) {
  var request = event.request;
  return fetch(request).then(function (answer) {
    if (answer.status === 200 && answer.headers.get("X-Companion-Offline") === "copy") {
      event.waitUntil(keep(request, answer.clone()));
    }
    return answer;
  }).catch(function () {
    return caches.open(PAGES).then(function (cache) { return cache.match(request.url); })
      .then(function (kept) {
        if (!kept) return caches.match(FALLBACK).then(function (page) { return page || Response.error(); });
        {# Mark the copy, so that the page says "as of …" at once (static/js/offline.js). #}
        return kept.text().then(function (html) {
          return new Response(html.replace("<html ", "<html data-copy "), {
            status: 200, headers: kept.headers
          });
        });
      });
  });
}

{# The current address of the file a static address names, by its plain or an older hashed #}
{# name (a page copy kept from before an update). #}
function current(pathname) {
  var name = pathname.slice("/static/".length);
  var parts = HASHED.exec(name);
  return CURRENT[parts ? parts[1] + parts[2] : name];
}

function asset(event) {
  var request = event.request;
  return caches.open(STATIC).then(function (cache) {
    return cache.match(request).then(function (kept) {
      var fresh = fetch(request).then(function (answer) {
        if (answer.status === 200) return cache.put(request, answer.clone()).then(function () { return answer; });
        return answer;
      });
      if (kept) {
        event.waitUntil(fresh.catch(function () { /* offline: the kept copy will do */ }));
        return kept;
      }
      return fresh.catch(function (failed) {
        var now = current(new URL(request.url).pathname);
        return (now ? cache.match(now) : Promise.resolve()).then(function (copy) {
          if (copy) return copy;
          throw failed;
        });
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return; // saves: the network, or the page's outbox
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(page(event));
  else if (url.pathname.indexOf("/static/") === 0) event.respondWith(asset(event));
});
