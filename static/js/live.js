// The read-only scoreboard follows the match: every 1.5 s (while the page is on screen) it
// asks the server for the page again with its ETag; a bare 304 means nothing changed. When
// the match changed, the parts marked data-live-region are swapped for the new ones, so the
// page never reloads or flickers. Scores come from the server only: nothing is computed here.
"use strict";
(function () {
  var C = window.Companion;
  var EVERY = 1500;
  var status = document.getElementById("live-status");
  if (!status || !window.fetch || !window.DOMParser) return;
  var tag = status.getAttribute("data-etag");  // the ETag of what is shown
  // When the server made what is shown (older than now for the service worker's copy).
  var seen = new Date(document.documentElement.getAttribute("data-rendered") || Date.now());
  var busy = false;

  function offline() {
    var time = C.clock(seen, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
    status.textContent = C.fill(status.getAttribute("data-as-of"), { time: time });
    status.classList.add("shown");
  }
  function online() {
    status.textContent = "";
    status.classList.remove("shown");
  }
  function swap(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    document.querySelectorAll("[data-live-region]").forEach(function (region) {
      var next = fresh.getElementById(region.id);
      if (next) region.innerHTML = next.innerHTML;
    });
    document.title = fresh.title;
    document.dispatchEvent(new Event("companion:updated"));
  }
  function ask() {
    if (busy || document.visibilityState !== "visible") return;
    busy = true;
    fetch(location.href, { headers: { "If-None-Match": tag }, cache: "no-store", credentials: "same-origin" })
      .then(function (answer) {
        if (answer.status === 304) return null;
        if (!answer.ok) throw new Error(String(answer.status));
        tag = answer.headers.get("ETag") || tag;
        return answer.text().then(swap);
      })
      .then(function () { seen = new Date(); online(); }, offline)
      .then(function () { busy = false; });
  }
  setInterval(ask, EVERY);
  document.addEventListener("visibilitychange", ask);
  ask();
})();
