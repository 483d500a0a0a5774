// Companion: "Photograph the rack" / "Photograph the table" (contract "Photos"). The phone's
// camera gives a photo; it is shrunk on a canvas to at most 1600 px on its long side, sent to
// /api/v1/photos and dropped; the tiles that come back are written into the field, as chips.
// The unsure ones are marked "?" and confirmed with one tap each; a tap on any other chip
// opens the picker to change it. The server reads the tiles; this script only draws them.
// Offline, the photo waits on this page, in memory only (never stored: contract "Photos"), and
// is sent by itself when the phone is back online.
"use strict";
(function () {
  var C = window.Companion;
  var $ = C.$, $$ = C.$$;
  var LONG_SIDE = 1600;  // px: a full-size phone photo shrunk to this is read as well, 10× smaller

  // The photo shrunk on a canvas (its EXIF orientation applied by the browser) as a JPEG blob.
  function shrink(file) {
    return new Promise(function (resolve) {
      var url = URL.createObjectURL(file);
      var img = new Image();
      img.onload = function () {
        var f = Math.min(1, LONG_SIDE / Math.max(img.naturalWidth, img.naturalHeight));
        var canvas = document.createElement("canvas");
        canvas.width = Math.round(img.naturalWidth * f);
        canvas.height = Math.round(img.naturalHeight * f);
        canvas.getContext("2d").drawImage(img, 0, 0, canvas.width, canvas.height);
        URL.revokeObjectURL(url);
        canvas.toBlob(function (blob) { resolve(blob || file); }, "image/jpeg", 0.85);
      };
      img.onerror = function () { URL.revokeObjectURL(url); resolve(file); };  // the server says
      img.src = url;
    });
  }

  function setup(box) {
    var T = C.data(box, "data-i18n");
    var input = $("input[type=file]", box);
    var status = $("[data-photo-status]", box);
    var chipsNode = $("[data-photo-chips]", box);
    var target = document.getElementById(box.getAttribute("data-target"));
    var swap = $("[data-photo-swap]", box);
    var swapButton = $("[data-pick]", box);
    var form = box.closest("form");
    var tiles = [], unsure = [], changing = -1;
    var chip = C.chip || function (t) { return C.el("span", "card", t); };

    function say(text, problem) {
      status.textContent = text;
      status.classList.toggle("error", !!problem);
      status.classList.toggle("hidden", !text);
    }
    function draw() {
      chipsNode.textContent = "";
      tiles.forEach(function (t, i) {
        var b = C.el("button", "photo-chip");
        b.type = "button";
        b.setAttribute("data-i", i);
        b.appendChild(chip(t));
        if (unsure.indexOf(i) >= 0) {
          b.classList.add("unsure");
          b.appendChild(C.el("b", null, "?"));
          b.setAttribute("aria-label", C.fill(T.confirm, { tile: t }));
        } else b.setAttribute("aria-label", C.fill(T.change, { tile: t }));
        chipsNode.appendChild(b);
      });
      box.toggleAttribute("data-unsure", unsure.length > 0);
      if (tiles.length) say(unsure.length ? C.fill(T.unsure, { n: unsure.length }) : T.read);
    }
    // The tiles into the page: a rack into its field, a table's melds into the melds' field.
    function fill(answer) {
      tiles = answer.tiles.slice();
      unsure = answer.unsure.slice();
      if (!tiles.length) {
        chipsNode.textContent = "";
        box.removeAttribute("data-unsure");
        return say(T.none, true);
      }
      write(answer);
      draw();
    }
    function write(answer) {
      if (box.hasAttribute("data-tiles-only")) target.value = tiles.join(" ");
      else if (box.getAttribute("data-as") === "table" && answer && answer.melds) {
        var lines = answer.melds.map(function (m) { return m.join(" "); });
        var loose = (answer.loose || []).map(function (i) { return tiles[i]; });
        if (loose.length) lines.push(loose.join(" "));
        target.value = lines.join("\n");
      } else if (box.getAttribute("data-as") === "table") {
        target.value = target.value.split("\n").length > 1 ? target.value : tiles.join(" ");
      } else target.value = tiles.join(" ");
      C.fire(target);
    }
    var last = null;  // the last answer, so a changed chip keeps the table's melds
    function send(blob) {
      say(T.reading);
      var started = performance.now();
      return fetch(box.getAttribute("data-url"), {
        method: "POST", body: blob, headers: { "Content-Type": blob.type || "image/jpeg" },
        credentials: "omit", cache: "no-store"
      }).then(function (r) {
        return r.json().then(function (body) {
          if (!r.ok) { say((body.error && body.error.message) || T.failed, true); return; }
          last = body;
          fill(body);
          box.setAttribute("data-read-ms", String(Math.round(performance.now() - started)));
          box.dispatchEvent(new CustomEvent("companion:photo-read", { bubbles: true }));
        });
      });
    }
    // No connection: the photo waits here (the latest one only) until the phone is online.
    var waiting = null;
    function queue(blob) {
      waiting = blob;
      say(T.waiting);
    }
    window.addEventListener("online", function () {
      if (!waiting) return;
      var blob = waiting;
      waiting = null;
      send(blob).catch(function () { queue(blob); });
    });
    input.addEventListener("change", function () {
      var file = input.files && input.files[0];
      if (!file) return;
      input.value = "";  // the same photo may be taken again; nothing of it is kept here
      shrink(file).then(function (blob) {
        if (!navigator.onLine) return queue(blob);
        return send(blob).catch(function () { queue(blob); });
      });
    });
    chipsNode.addEventListener("click", function (event) {
      var b = event.target.closest && event.target.closest("[data-i]");
      if (!b) return;
      var i = +b.getAttribute("data-i");
      var k = unsure.indexOf(i);
      if (k >= 0) { unsure.splice(k, 1); draw(); return; }  // confirmed with one tap
      changing = i;
      if (swapButton) swapButton.click();  // the picker, one tile (picker.js "one")
    });
    if (swap) swap.addEventListener("input", function () {
      if (changing < 0 || !swap.value) return;
      var old = tiles[changing];
      tiles[changing] = swap.value;
      if (last && last.melds) {  // the same tile in its meld
        var seen = 0;
        last.melds.forEach(function (m) {
          m.forEach(function (t, j) { if (t === old && !seen) { m[j] = swap.value; seen = 1; } });
        });
      }
      swap.value = "";
      changing = -1;
      write(last);
      draw();
    });
    // A rack with tiles still to confirm is not sent: the first unsure chip is shown instead.
    if (form) form.addEventListener("submit", function (event) {
      if (!unsure.length) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      say(C.fill(T.unsure, { n: unsure.length }), true);
      var first = $(".photo-chip.unsure", chipsNode);
      if (first) { first.scrollIntoView({ block: "center" }); first.focus(); }
    }, true);
    // Typing in the field by hand takes over from the photo.
    target.addEventListener("input", function (event) {
      if (!event.isTrusted) return;
      tiles = []; unsure = []; chipsNode.textContent = ""; box.removeAttribute("data-unsure");
      say("");
    });
  }
  $$("[data-photo]").forEach(setup);
  // A page where the game is chosen on the page itself (the rescue): the camera is there for the
  // games whose tiles can be read (the server lists them), and reads the chosen game's.
  document.addEventListener("change", function (event) {
    if (!event.target || event.target.name !== "game") return;
    $$("[data-photo-games]").forEach(function (box) {
      var readable = C.data(box, "data-photo-games").indexOf(event.target.value) >= 0;
      box.classList.toggle("hidden", !readable);
      var url = new URL(box.getAttribute("data-url"), location.href);
      if (readable) url.searchParams.set("game", event.target.value);
      box.setAttribute("data-url", url.pathname + url.search);
    });
  });
})();
