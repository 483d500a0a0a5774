// An event's live standings (EV-5): ask the server for the fragment every few seconds and
// swap it in when a table has saved (304 while nothing changed). No rule lives here.
(function () {
  "use strict";
  var box = document.getElementById("live");
  if (!box || !window.fetch) return;
  var url = box.getAttribute("data-live-url");
  var every = parseInt(box.getAttribute("data-poll"), 10) || 3000;
  var tag = null;
  function ask() {
    var headers = tag ? { "If-None-Match": tag } : {};
    fetch(url, { headers: headers, credentials: "same-origin", cache: "no-store" })
      .then(function (r) {
        if (r.status === 200) {
          tag = r.headers.get("ETag");
          return r.text().then(function (html) { box.innerHTML = html; });
        }
        if (r.status === 304) tag = r.headers.get("ETag") || tag;
      })
      .catch(function () {})
      .then(function () { setTimeout(ask, every); });
  }
  setTimeout(ask, every);
})();
