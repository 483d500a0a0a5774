// A player's own page (own hands): it asks every 1.5 s (/p/<token>/news.json) how its part
// stands: the scorekeeper's version of it (written into the fields unless the player is
// changing them, then offered), a card also in an earlier part, the round saved (the page is
// loaded again and says so) or the scorekeeper entering it (what was typed stays). Once the
// part is closed without its round, the page shows what this phone kept as typed (its draft).
// The walker opens when the player asks for it (walk.js), never by itself.
"use strict";
(function () {
  var C = window.Companion;
  var $ = C.$, el = C.el, P = C.parts;
  var form = document.getElementById("round-form");

  // --- A player's own page ---------------------------------------------------------------------
  if (form && form.hasAttribute("data-part")) {
    var box = $("fieldset.player", form);
    var base = P.values(box);  // as drawn: what was sent, or the scorekeeper's version of it
    var keptNote = $("#part-kept"), sentNote = $("#part-sent"), use = $("#use-kept");
    var take = function (fields) {
      P.writeFields(fields);
      base = P.values(box);
      use.classList.add("hidden");
    };
    var dropped = function () {
      // The scorekeeper enters this part now: nothing is sent from here any more, and what is
      // typed stays on the page (and in its draft) to be shown or read out.
      $("#part-dropped").classList.remove("hidden");
      [keptNote, sentNote, $("#part-flags"), $(".actions.sticky", form), $(".walk-start", form)]
        .forEach(function (n) { if (n) n.classList.add("hidden"); });
      $("#part-dropped").scrollIntoView({ block: "center" });
    };
    P.poll(form.getAttribute("data-news"), +form.getAttribute("data-every") || 1500, function (answer, stop) {
      if (document.documentElement.hasAttribute("data-sending")) return;  // its answer decides
      return answer.json().then(function (news) {
        if (news.state === "saved") { stop(); location.reload(); return; }
        if (news.state === "dropped") { stop(); dropped(); return; }
        if (news.state !== "open") return;
        P.list($("ul", $("#part-flags")), news.flags || []);
        $("#part-flags").classList.toggle("hidden", !(news.flags || []).length);
        keptNote.classList.toggle("hidden", !news.kept);
        if (sentNote) sentNote.classList.toggle("hidden", !!news.kept);
        if (news.kept) $("[data-kept-shown]", keptNote).innerHTML = news.shown;
        var fields = news.fields || {};
        if (!Object.keys(fields).length || P.same(base, fields)) return;
        // The scorekeeper's version (or the player's own, when they undid their change):
        // written in, unless the player is changing the fields; then offered.
        if (P.same(P.values(box), base)) take(fields);
        else {
          use.classList.remove("hidden");
          use.onclick = function () { take(fields); };
        }
      }, function () { });
    });
  }

  // --- A part closed without its round: what this phone kept as typed ------------------------
  var draft = document.getElementById("part-draft");
  if (draft) {
    var raw = null;
    try { raw = localStorage.getItem(draft.getAttribute("data-draft")); } catch (e) { }
    var labels = JSON.parse(draft.getAttribute("data-labels") || "{}");
    var dl = $("dl", draft);
    (raw ? JSON.parse(raw).f : []).forEach(function (pair) {
      if (!labels[pair[0]] || !String(pair[1]).trim()) return;
      dl.appendChild(el("dt", null, labels[pair[0]]));
      dl.appendChild(el("dd", "mono typed", String(pair[1])));
    });
    draft.classList.toggle("hidden", !dl.children.length);
  }
})();
