// Companion: small enhancements for every page. The pages work without it.
"use strict";
(function () {
  var C = window.Companion, $ = C.$, $$ = C.$$, el = C.el;
  var body = document.body;

  // Keep the screen on while a match is open: the Screen Wake Lock API where the browser has
  // it; where it is missing (plain http on the local network: it needs a secure context) the
  // vendored NoSleep.js (static/vendor, MIT) plays a tiny silent video loop, started by a tap.
  var hint = $("#insecure");
  var lock = null;
  var sleepless = null;
  function wake() {
    if (document.visibilityState !== "visible") return;
    if (!("wakeLock" in navigator)) {
      if (sleepless && !sleepless.isEnabled) sleepless.enable().catch(function () { });
      return;
    }
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      l.addEventListener("release", function () { lock = null; });
    }).catch(function () { /* refused (battery saver, no user gesture): not needed to play */ });
  }
  if (body.hasAttribute("data-wake")) {
    if (!("wakeLock" in navigator) && hint) {
      var script = el("script");
      script.src = hint.getAttribute("data-nosleep");
      script.onload = function () { if (window.NoSleep) sleepless = new window.NoSleep(); };
      document.head.appendChild(script);
    }
    wake();
    // The browser drops the lock when the page is hidden; take it again on return.
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible" && !lock) wake();
    });
    // Some browsers grant the lock only after a tap (NoSleep.js always): ask on a tap without it.
    document.addEventListener("click", function () { if (!lock) wake(); });
  }

  // Plain http (not localhost): no service worker, no Wake Lock API, no Clipboard API. Say so.
  if (hint && !window.isSecureContext) {
    var seen = false;
    try { seen = sessionStorage.getItem("companion-insecure") === "1"; } catch (e) { }
    if (!seen) {
      hint.classList.remove("hidden");
      var ok = el("button", null, hint.getAttribute("data-ok"));
      ok.type = "button";
      ok.id = "insecure-ok";
      ok.addEventListener("click", function () {
        hint.classList.add("hidden");
        try { sessionStorage.setItem("companion-insecure", "1"); } catch (e) { }
      });
      hint.appendChild(document.createTextNode(" "));
      hint.appendChild(ok);
    }
  }

  // The round was saved (or the other phone's version kept): its drafts on this device can go.
  var saved = body.getAttribute("data-clear-draft");
  if (saved) {
    saved.split(" ").forEach(function (key) {
      try { localStorage.removeItem(key); } catch (e) { /* storage off */ }
    });
  }

  // Copy buttons next to the share links: a text field, or a link shown as text. The link is
  // selected on the page either way, so where no copy works it is one long-press from copied.
  function selectAll(node) {
    if (node.select) {
      node.focus();
      node.select();
      if (node.setSelectionRange) node.setSelectionRange(0, node.value.length);  // iOS
      return node.value;
    }
    var range = document.createRange();
    range.selectNodeContents(node);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    return node.textContent.trim();
  }
  $$("[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var node = document.getElementById(button.getAttribute("data-copy"));
      var label = button.textContent;
      function done() {
        button.textContent = button.getAttribute("data-done");
        setTimeout(function () { button.textContent = label; }, 1500);
      }
      // Plain http on the local network (the README's Wi-Fi address) has no Clipboard API;
      // the selection and the older copy command work there.
      function command() {
        selectAll(node);
        try { if (document.execCommand("copy")) done(); } catch (e) { /* left selected */ }
      }
      var text = selectAll(node);
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, command);
      } else {
        command();
      }
    });
  });

  // Tap anywhere on a game's row to open its breakdown.
  $$("tr[data-href]").forEach(function (row) {
    row.addEventListener("click", function (event) {
      if (event.target.closest("a")) return;
      location.href = row.getAttribute("data-href");
    });
  });

  // Times are sent in UTC; show them in the phone's own time zone.
  $$("time[data-local]").forEach(function (t) {
    var d = new Date(t.getAttribute("datetime"));
    if (!isNaN(d)) {
      t.textContent = d.toLocaleString(undefined, {
        dateStyle: "medium", timeStyle: "short"
      });
    }
  });
})();
