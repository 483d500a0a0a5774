// Companion without a connection: nothing typed is lost, and old pages say how old they are.
// - The outbox: a round save that cannot reach the server is kept on this phone in IndexedDB as
//   the form would have sent it (CSRF token, revision, idempotency key) and sent again on each
//   load, on coming back online and every few seconds; the key stores nothing twice, and a
//   refused save is shown with the server's own page. This file knows no rule.
// - A page from the service worker's copy says "Not connected: the scores as of …".
// - The service worker is registered here (it needs a secure context: HTTPS or localhost).
"use strict";
(function () {
  var C = window.Companion, el = C.el;
  var root = document.documentElement;
  var box = document.getElementById("outbox");
  if (!box) return;
  var T = C.data(box, "data-i18n");
  var RETRY = 8000;
  var DB = "companion", STORE = "outbox";

  if ("serviceWorker" in navigator && window.isSecureContext && root.getAttribute("data-sw")) {
    navigator.serviceWorker.register(root.getAttribute("data-sw")).catch(function () { });
  }

  // When something was typed or shown: the day too when it was not today.
  function clock(date) {
    var parts = { hour: "2-digit", minute: "2-digit" };
    if (date.toDateString() !== new Date().toDateString()) { parts.day = "numeric"; parts.month = "short"; }
    return C.clock(date, parts);
  }

  // --- IndexedDB: one store of saves, keyed by the form's idempotency key
  var opened = null;
  function db() {
    if (!opened) {
      opened = new Promise(function (resolve, reject) {
        if (!window.indexedDB) { reject(new Error("no IndexedDB")); return; }
        var req = indexedDB.open(DB, 1);
        req.onupgradeneeded = function () { req.result.createObjectStore(STORE, { keyPath: "key" }); };
        req.onsuccess = function () { resolve(req.result); };
        req.onerror = function () { reject(req.error); };
      });
    }
    return opened;
  }
  function tx(mode, work) {
    return db().then(function (d) {
      return new Promise(function (resolve, reject) {
        var t = d.transaction(STORE, mode);
        var out = work(t.objectStore(STORE));
        t.oncomplete = function () { resolve(out && out.result); };
        t.onerror = function () { reject(t.error); };
      });
    });
  }
  var outbox = {
    all: function () { return tx("readonly", function (s) { return s.getAll(); }).catch(function () { return []; }); },
    put: function (item) { return tx("readwrite", function (s) { s.put(item); }); },
    drop: function (key) { return tx("readwrite", function (s) { s.delete(key); }).catch(function () { }); }
  };

  // --- Sending: the form's own fields, posted as the form would post them
  // "saved": the server answered with its redirect to the scoreboard (stored now, or already
  // stored with this key). "refused": the server said no (4xx) and will say it again; nothing
  // was stored. "waiting": no answer, or a 5xx from a proxy whose app is down: try later.
  function send(item, renewed) {
    var body = new URLSearchParams();
    item.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    return fetch(item.url, {
      method: "POST", body: body, credentials: "same-origin", redirect: "manual", cache: "no-store"
    }).then(function (answer) {
      if (answer.type === "opaqueredirect" || (answer.status >= 300 && answer.status < 400)) return "saved";
      if (answer.status === 400 && !renewed) {
        // Most likely the CSRF token: the browser lost its session cookie while the save
        // waited (closed, restarted). Take a fresh token from the form's page and try once more.
        return renew(item).then(function (ok) { return ok ? send(item, true) : "refused"; });
      }
      if (answer.status >= 400 && answer.status < 500) return "refused";
      return "waiting";
    }, function () { return "waiting"; });
  }
  function renew(item) {
    return fetch(item.url, { credentials: "same-origin", cache: "no-store" }).then(function (answer) {
      if (!answer.ok) return false;
      return answer.text().then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("input[name=csrf_token]");
        if (!fresh) return false;
        item.fields = item.fields.map(function (pair) {
          return pair[0] === "csrf_token" ? [pair[0], fresh.value] : pair;
        });
        return true;
      });
    }, function () { return false; });
  }

  // Show the server's own answer to a refused save: post the same fields the plain way, so the
  // page comes back with everything typed, its problems or the conflict screen.
  function showAnswer(item) {
    var f = el("form");
    f.method = "post";
    f.action = item.url;
    f.hidden = true;
    item.fields.forEach(function (pair) {
      var input = el("input");
      input.type = "hidden";
      input.name = pair[0];
      input.value = pair[1];
      f.appendChild(input);
    });
    document.body.appendChild(f);
    f.submit();
  }

  // --- What waits, on every page; on the scoreboard also as rows of the table
  function here(item) { return item.board === location.pathname; }
  function draw(items) {
    box.textContent = "";
    document.querySelectorAll("tr.unsaved").forEach(function (row) { row.remove(); });
    var waiting = items.filter(function (i) { return i.state !== "refused"; });
    var refused = items.filter(function (i) { return i.state === "refused"; });
    box.classList.toggle("hidden", !items.length);
    root.classList.toggle("unsent", waiting.length > 0);
    if (waiting.length) {
      box.appendChild(el("p", "outbox-head", C.fill(T.waiting, { n: waiting.length })));
      var list = el("ul");
      waiting.forEach(function (item) {
        list.appendChild(el("li", null, C.fill(T.item, { what: item.label, time: clock(new Date(item.at)) })));
      });
      box.appendChild(list);
      var now = el("button", null, T.send);
      now.type = "button";
      now.id = "outbox-send";
      now.addEventListener("click", function () { replay(); });
      box.appendChild(now);
    }
    refused.forEach(function (item) {
      var p = el("p", "outbox-refused", C.fill(T.refused, { what: item.label }) + " ");
      var why = el("button", "primary", T.why);
      why.type = "button";
      why.addEventListener("click", function () { showAnswer(item); });
      var drop = el("button", null, T.discard);
      drop.type = "button";
      drop.addEventListener("click", function () {
        if (window.confirm(T.discard_ask)) outbox.drop(item.key).then(refresh);
      });
      p.appendChild(why);
      p.appendChild(drop);
      box.appendChild(p);
    });
    // The scoreboard: a row per round of this match still waiting, where it will appear.
    // A new round takes the place of the first empty row of the match; a correction goes last.
    var body = document.querySelector("#board tbody");
    if (body) {
      var columns = document.querySelectorAll("#board thead th").length;
      body.querySelectorAll("tr.muted.hidden").forEach(function (row) { row.classList.remove("hidden"); });
      waiting.filter(here).forEach(function (item) {
        var row = el("tr", "unsaved");
        row.appendChild(el("td", null, "…"));
        var cell = el("td", null, item.label + " — " + T.row);
        cell.colSpan = Math.max(1, columns - 1);
        row.appendChild(cell);
        var empty = item.fresh && body.querySelector("tr.muted:not(.hidden)");
        if (empty) {
          body.insertBefore(row, empty);
          empty.classList.add("hidden");
        } else body.appendChild(row);
      });
    }
    if (form) formState(items);
  }
  function refresh() { return outbox.all().then(function (items) { draw(items); return items; }); }

  // --- The round form: a save is posted by hand, so a dropped connection keeps it here
  var form = document.getElementById("round-form");
  var note = document.getElementById("unsaved");
  function formKey() { var k = form.elements.namedItem("key"); return k ? k.value : ""; }
  function formState(items) {
    var mine = items.filter(function (i) { return i.key === formKey() && i.state !== "refused"; });
    if (note) note.classList.toggle("hidden", !mine.length);
  }
  function fields(submitter) {
    var pairs = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string") pairs.push([name, value]);
    });
    if (submitter && submitter.name) pairs.push([submitter.name, submitter.value]);
    return pairs;
  }
  if (form && window.fetch && window.URLSearchParams) {
    var board = form.getAttribute("data-board");
    form.addEventListener("submit", function (event) {
      var submitter = event.submitter;
      if (event.defaultPrevented || !submitter || submitter.name !== "save" || !formKey()) return;
      event.preventDefault();
      var item = {
        key: formKey(),
        url: new URL(form.getAttribute("action") || location.href, location.href).href,
        board: board,
        fresh: form.hasAttribute("data-new-round"),
        label: form.getAttribute("data-label") || (document.querySelector("main h1") || document.querySelector("title")).textContent.trim(),
        fields: fields(submitter),
        at: Date.now(),
        state: "waiting"
      };
      // The save leaves first, before any bookkeeping: nothing on its way waits for a timer
      // or an animation frame, which a page in the background gets late or never.
      var sent = send(item);
      submitter.disabled = true;
      root.setAttribute("data-sending", ""); // until the next page, or kept in the outbox
      sent.then(function (result) {
        submitter.disabled = false;
        if (result === "saved") {
          form.dispatchEvent(new Event("companion:saved"));  // drafts.js forgets the drafts
          outbox.drop(item.key).then(function () { location.href = board; });
        } else if (result === "refused") {
          outbox.drop(item.key).then(function () { showAnswer(item); });
        } else {
          outbox.put(item).then(function () {
            root.removeAttribute("data-sending");
            return refresh();
          }, function () {
            // No IndexedDB here (private mode): nothing can wait, so post the plain way.
            showAnswer(item);
          });
          if (note) {  // say so at once, next to the button that was tapped
            note.classList.remove("hidden");
            note.scrollIntoView({ block: "end" });
          }
        }
      });
    });
  }

  // --- Replay: every waiting save, oldest first, one at a time
  var busy = false;
  function replay() {
    if (busy) return Promise.resolve();
    busy = true;
    return outbox.all().then(function (items) {
      var waiting = items.filter(function (i) { return i.state !== "refused"; })
        .sort(function (a, b) { return a.at - b.at; });
      var savedHere = false, mineSaved = false;
      return waiting.reduce(function (chain, item) {
        return chain.then(function () {
          return send(item).then(function (result) {
            if (result === "saved") {
              savedHere = savedHere || here(item);
              mineSaved = mineSaved || (form && item.key === formKey());
              return outbox.drop(item.key);
            }
            if (result === "refused") { item.state = "refused"; return outbox.put(item); }
          });
        });
      }, Promise.resolve()).then(function () {
        if (mineSaved) { location.href = form.getAttribute("data-board"); return; }
        if (savedHere) { location.reload(); return; } // the scoreboard with the new scores
        return refresh();
      });
    }).then(function () { busy = false; }, function () { busy = false; });
  }
  // A page that is the server's last word on a save (a player's part whose round was saved,
  // data-settles: its address) takes it off the outbox, waiting or refused: it can never go.
  var settles = document.querySelector("[data-settles]");
  var settled = !settles ? Promise.resolve() : outbox.all().then(function (items) {
    var path = settles.getAttribute("data-settles");
    return Promise.all(items.filter(function (i) { return new URL(i.url).pathname === path; })
      .map(function (i) { return outbox.drop(i.key); }));
  });
  settled.then(refresh).then(function (items) { if (items.length) replay(); });
  window.addEventListener("online", replay);
  setInterval(function () {
    if (document.visibilityState === "visible" && root.classList.contains("unsent")) replay();
  }, RETRY);

  // --- A page shown from the service worker's copy, or the connection gone: "as of …"
  // The read-only scoreboard has live.js for that. The edit scoreboard says it here when the
  // connection goes; any other page only when it is the service worker's copy (data-copy).
  var scores = document.getElementById("live-status");
  var copy = root.hasAttribute("data-copy");
  var status = scores && !scores.hasAttribute("data-etag") ? scores
    : (!scores && copy ? document.getElementById("copy-status") : null);
  if (status) {
    var made = new Date(root.getAttribute("data-rendered") || Date.now());
    var away = false;
    var still = function (on) {
      away = !on;
      status.textContent = on ? "" : C.fill(status.getAttribute("data-as-of"), { time: clock(made) });
      status.classList.toggle("shown", !on);
      // An old copy's buttons would post an old revision: off until the connection is back.
      document.querySelectorAll("form[method=post] button").forEach(function (b) { b.disabled = !on; });
    };
    // Asks for the service worker's script, not a page: a page would take the flash messages.
    var probe = function () {
      return fetch(root.getAttribute("data-sw"), { method: "HEAD", cache: "no-store" })
        .then(function (r) { return r.ok; }, function () { return false; });
    };
    var check = function () {
      probe().then(function (on) {
        if (on && away) location.reload(); // back: the page as it is now
        else if (!on) still(false);
      });
    };
    if (copy) still(false); // the service worker marks the copy it answers with
    window.addEventListener("online", check);
    if (status === scores) window.addEventListener("offline", function () { still(false); });
    setInterval(function () { if (away && document.visibilityState === "visible") check(); }, RETRY);
  }
})();
