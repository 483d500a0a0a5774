// Companion round form: drafts on this device, so nothing typed is lost on a reload or a
// locked phone. The revision is never kept: a restored draft is checked against the match
// as the page shows it now.
"use strict";
(function () {
  var C = window.Companion;
  if (!C.form) return;
  var form = C.form, $ = C.$, $$ = C.$$, el = C.el, T = C.T;
  var key = form.getAttribute("data-draft");
  var SKIP = { csrf_token: true, revision: true };

  function snapshot() {
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (!SKIP[name]) fields.push([name, value]);
    });
    return fields;
  }
  function save() {
    try { localStorage.setItem(key, JSON.stringify({ t: Date.now(), f: snapshot() })); } catch (e) { }
  }
  form.addEventListener("input", save);
  form.addEventListener("change", save);
  // Saved by offline.js: the drafts the save made stale go now, not on the next page, whose
  // clearing comes in the session cookie that a request of this page in flight can overwrite.
  form.addEventListener("companion:saved", function () {
    (form.getAttribute("data-forget") || "").split(" ").forEach(function (old) {
      try { if (old) localStorage.removeItem(old); } catch (e) { }
    });
  });

  function restore() {
    var raw;
    try { raw = localStorage.getItem(key); } catch (e) { return; }
    if (!raw) return;
    var draft = JSON.parse(raw);
    if (JSON.stringify(draft.f) === JSON.stringify(snapshot())) return;
    var values = {};
    draft.f.forEach(function (pair) { (values[pair[0]] = values[pair[0]] || []).push(pair[1]); });
    $$("input, textarea", form).forEach(function (input) {
      if (!input.name || SKIP[input.name]) return;
      var v = values[input.name] || [];
      if (input.type === "checkbox" || input.type === "radio") input.checked = v.indexOf(input.value) >= 0;
      else input.value = v.length ? v[0] : "";
    });
    form.dispatchEvent(new Event("companion:restored"));
    var note = $("#restored");
    note.textContent = T.restored + " ";
    var discard = el("button", null, T.discard);
    discard.type = "button";
    discard.addEventListener("click", function () {
      try { localStorage.removeItem(key); } catch (e) { }
      location.reload();
    });
    note.appendChild(discard);
    note.classList.remove("hidden");
  }
  if (form.getAttribute("data-restore") === "1") restore();
})();
