// Companion: small enhancements for every page. The pages work without it.
"use strict";
(function () {
  var body = document.body;

  // Keep the screen on while a match is open (Screen Wake Lock API, where the browser has it).
  var lock = null;
  function wake() {
    if (!("wakeLock" in navigator) || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      l.addEventListener("release", function () { lock = null; });
    }).catch(function () { /* refused (battery saver, no user gesture): not needed to play */ });
  }
  if (body.hasAttribute("data-wake")) {
    wake();
    // The browser drops the lock when the page is hidden; take it again on return.
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible" && !lock) wake();
    });
    // Some browsers grant the lock only after a tap: ask again on the first one without it.
    document.addEventListener("click", function () { if (!lock) wake(); });
  }

  // The round was saved (or the other phone's version kept): its drafts on this device can go.
  var saved = body.getAttribute("data-clear-draft");
  if (saved) {
    saved.split(" ").forEach(function (key) {
      try { localStorage.removeItem(key); } catch (e) { /* storage off */ }
    });
  }

  // Copy buttons next to the share links.
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var input = document.getElementById(button.getAttribute("data-copy"));
      var label = button.textContent;
      function done() {
        button.textContent = button.getAttribute("data-done");
        setTimeout(function () { button.textContent = label; }, 1500);
      }
      input.select();
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(input.value).then(done, function () {});
      } else if (document.execCommand && document.execCommand("copy")) {
        done(); // plain http on the local network: no Clipboard API there
      }
    });
  });

  // Tap anywhere on a game's row to open its breakdown.
  document.querySelectorAll("tr[data-href]").forEach(function (row) {
    row.addEventListener("click", function (event) {
      if (event.target.closest("a")) return;
      location.href = row.getAttribute("data-href");
    });
  });

  // Times are sent in UTC; show them in the phone's own time zone.
  document.querySelectorAll("time[data-local]").forEach(function (t) {
    var d = new Date(t.getAttribute("datetime"));
    if (!isNaN(d)) {
      t.textContent = d.toLocaleString(undefined, {
        dateStyle: "medium", timeStyle: "short"
      });
    }
  });
})();
