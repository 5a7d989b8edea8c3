/* The service worker: pages open on a weak signal (served as /sw.js, with CONFIG above).
   - Static files named by their content (?v=hash): from the cache first, kept from the
     install on; they never change under one name.
   - Pages: from the network first; after PAGE_WAIT_MS without an answer, or with no
     connection, the copy kept when the page was last opened, marked as a saved copy;
     a page never opened here: the offline page. How to play (CONFIG.keep, with the
     offline page) is kept from the install on, and never dropped to make room.
   - A page's part (app.js asks for it with X-Fragment: a player's charts and rivals): from
     the network, and kept; with no connection, the copy kept.
   - Everything else (a game's version, the preview, notices, every POST): the network
     only. Live data is never answered from a cache, and nothing sent is ever held here:
     a hand saved with no connection waits in the page's own queue (offline.js); one
     whose post does not get through is handed back to it (handPost).
   A new version of the app is a new worker with a new cache; the old cache is dropped. */
"use strict";
var CACHE = "kings-corners-" + CONFIG.version;
var PAGE_WAIT_MS = 4000;
var MAX_PAGES = 80;
var SAVED_AT = "X-Saved-At";

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE)
    .then(function (cache) { return cache.addAll(CONFIG.keep); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("kings-corners-") === 0 && name !== CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

var keptAhead = {};
CONFIG.keep.forEach(function (url) { keptAhead[new URL(url, self.location).href] = true; });

/* Keep no more than MAX_PAGES pages, dropping the longest unopened first. */
var trim = function (cache) {
  return cache.keys().then(function (requests) {
    var pages = requests.filter(function (r) { return !keptAhead[r.url]; });
    return Promise.all(pages.slice(0, Math.max(0, pages.length - MAX_PAGES))
      .map(function (r) { return cache.delete(r); }));
  });
};

var keepPage = function (request, response) {
  var type = response.headers.get("Content-Type") || "";
  var control = response.headers.get("Cache-Control") || "";
  if (!response.ok || response.type !== "basic" || type.indexOf("text/html") !== 0 ||
      /no-store/.test(control)) return Promise.resolve();
  var headers = new Headers(response.headers);
  headers.set(SAVED_AT, String(Date.now()));
  return response.clone().blob().then(function (body) {
    return caches.open(CACHE).then(function (cache) {
      return cache.put(request, new Response(body, { status: 200, headers: headers }))
        .then(function () { return trim(cache); });
    });
  });
};

/* A kept page as a saved copy: marked with when it was kept, without the messages it
   flashed then (they were said once already). */
var savedCopy = function (response) {
  var at = response.headers.get(SAVED_AT) || "";
  return response.text().then(function (html) {
    html = html.replace(/<html([^>]*)>/, '<html$1 data-saved-copy="' + at + '">')
      .replace(/<p class="flash"[^>]*>[\s\S]*?<\/p>/g, "");
    var headers = new Headers(response.headers);
    headers.delete("Content-Length");
    headers.delete("Content-Encoding");
    return new Response(html, { status: 200, headers: headers });
  });
};

/* Neither the page nor the offline page is kept (the phone cleared its storage): a line
   of plain text in each language the app speaks, the phone's own first. (Its choice with
   the switch is a cookie the worker cannot read, so the other language follows.) */
var noConnection = function () {
  var order = [];
  var tags = self.navigator.languages || [self.navigator.language || ""];
  tags.concat(["en"], Object.keys(CONFIG.words)).forEach(function (tag) {
    var code = String(tag).toLowerCase().split("-")[0];
    if (CONFIG.words[code] && order.indexOf(code) < 0) order.push(code);
  });
  return new Response(order.map(function (code) { return CONFIG.words[code]; }).join("\n"), {
    status: 503, headers: { "Content-Type": "text/plain; charset=utf-8",
                            "Content-Language": order.join(", ") } });
};

var page = function (event) {
  var request = event.request;
  var network = fetch(request);
  network.then(function (response) {
    event.waitUntil(keepPage(request, response));
  }, function () { /* answered below */ });
  var kept = function () {
    return caches.match(request, { ignoreVary: true, ignoreSearch: false })
      .then(function (found) { return found ? savedCopy(found) : null; });
  };
  return new Promise(function (resolve) {
    var done = false;
    var give = function (response) {
      if (!done && response) { done = true; resolve(response); }
      return !!response;
    };
    var slow = setTimeout(function () { kept().then(give); }, PAGE_WAIT_MS);
    network.then(function (response) {
      clearTimeout(slow);
      give(response);
    }, function () {
      clearTimeout(slow);
      kept().then(function (found) {
        if (give(found)) return;
        return caches.match(CONFIG.offline).then(function (offline) {
          return offline || noConnection();
        }).then(give);
      });
    });
  });
};

/* A page's part (app.js asks with X-Fragment): from the network, and kept, so that a page
   opened offline from its saved copy gets its part too. Kept under an address of its own:
   the same address opened as a page is the part as a page of its own. */
var PART = "X-Fragment";
var part = function (event) {
  var request = event.request;
  var key = new URL(request.url);
  key.searchParams.set("kc-part", "1");
  var network = fetch(request);
  network.then(function (response) {
    event.waitUntil(keepPage(key.href, response));
  }, function () { /* answered below */ });
  return network.catch(function () {
    return caches.match(key.href).then(function (found) { return found || Response.error(); });
  });
};

var kept = function (request) {
  return caches.match(request).then(function (found) {
    return found || fetch(request).then(function (response) {
      if (response.ok && response.type === "basic") {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
      }
      return response;
    });
  });
};

/* A hand posted from the record form that cannot get through (no answer at all: nothing
   reached the server, or its answer was lost): back to the form, with what was posted
   after the # for offline.js to queue. It keeps its once-only token, so if the server
   did save it, sending it again records nothing twice. */
var POST_WAIT_MS = 20000;
var handPost = function (event) {
  var request = event.request;
  return request.clone().text().then(function (body) {
    var answered = fetch(request);
    var late = new Promise(function (resolve, reject) { setTimeout(reject, POST_WAIT_MS); });
    return Promise.race([answered, late]).catch(function () {
      return Response.redirect(request.url.split("#")[0] + "#kc-hand=" + encodeURIComponent(body), 303);
    });
  });
};

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && request.mode === "navigate" && CONFIG.hand.test(url.pathname)) {
    event.respondWith(handPost(event));
    return;
  }
  if (request.method !== "GET" || request.headers.has("Range")) return;
  if (request.mode === "navigate") {
    event.respondWith(page(event));
  } else if (request.headers.get(PART) === "1") {
    event.respondWith(part(event));
  } else if (url.pathname.indexOf(CONFIG.static) === 0 && url.searchParams.has("v")) {
    event.respondWith(kept(request));
  }
});
