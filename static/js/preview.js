// Companion round form: the preview, the RUMMY 17 notice and the meld check, all asked of the
// server. The preview posts the form itself and gets back the page's own preview, or the
// problems placed by field; the notice is the rules core's answer for the last card (R17-15a).
"use strict";
(function () {
  var C = window.Companion;
  if (!C.form) return;
  var form = C.form, $ = C.$, $$ = C.$$, el = C.el, T = C.T;

  // --- Preview: the rules core's score before saving ---------------------------------------
  var previewButton = $("#preview-button");  // none on a player's own page (part.html)
  if (previewButton) previewButton.addEventListener("click", function (event) {
    event.preventDefault();
    C.clearErrors();
    var out = $("#preview");
    out.classList.add("hidden");
    C.ask(previewButton.getAttribute("formaction")).then(function (answer) {
      if (answer.status === 200) {
        out.innerHTML = answer.data.preview; // rendered and escaped by the server's template
        out.classList.remove("hidden");
        notice(answer.data.doubles);
        out.scrollIntoView({ behavior: "smooth", block: "start" });
      } else if (answer.data && answer.data.errors) {
        C.showErrors(answer.data.errors);
        ask(answer.data.asked || {});
      } else {
        C.say("form", T.offline);
      }
    }).catch(function () { C.say("form", T.offline); });
  });

  // --- The RUMMY 17 notice, for a game with a last card: asked while it is typed -----------
  var last = $("#last_discard");
  function notice(on) {
    var box = $("#r17");
    if (box) box.classList.toggle("hidden", !on);
  }
  var noticeUrl = form.getAttribute("data-notice-url");
  if (last && noticeUrl) {
    var timer = null;
    var askNotice = function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        C.ask(noticeUrl).then(function (answer) {
          if (answer.status === 200) notice(answer.data.doubles);
        }).catch(function () {});
      }, 150);
    };
    last.addEventListener("input", askNotice);
    $$("input[name=went_out]").forEach(function (r) { r.addEventListener("change", askNotice); });
    form.addEventListener("companion:restored", askNotice);
    form.addEventListener("companion:picked", askNotice);
  }

  // --- Is each meld legal, and which card does a joker stand for? (/api/v1/check, D17-6) -----
  // A joker at either open end is asked about only where the round depends on it: the
  // server names those melds (data-ask, or "asked" in a refused preview), and only their
  // readings are offered as buttons.
  function ask(asked) {
    $$("textarea[data-melds]").forEach(function (area) {
      area.setAttribute("data-ask", (asked[area.id] || []).join(","));
      if (asked[area.id]) C.checkMelds(area);
    });
  }
  function check(line) {
    return C.send(form.getAttribute("data-check-url"), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game: C.game.id, cards: C.cards.split(line) }),
      credentials: "omit"
    });
  }
  var asked = {};  // the latest check of each field: an older answer arriving late is dropped
  C.checkMelds = function (area) {
    var turn = asked[area.id] = (asked[area.id] || 0) + 1;
    var box = $("[data-readings='" + area.id + "']");
    var list = $("ul[data-live='" + area.id + "']");
    var lines = area.value.split("\n");
    box.textContent = "";
    box.classList.add("hidden");
    list.textContent = "";
    lines.forEach(function (line, i) {
      if (!line.trim()) return;
      var n = lines.slice(0, i + 1).filter(function (l) { return l.trim(); }).length;
      var label = C.fill(T.meld, { n: n }) + ": ";
      check(line)
        .then(function (answer) {
          if (asked[area.id] !== turn) return;
          var v = answer.data;
          if (answer.status !== 200) return C.say(area.id, label + v.error.message);
          if (!v.valid) {  // the reason may already cite its clause: never print it twice
            var cited = !v.rule || v.reason.indexOf("(" + v.rule + ")") >= 0;
            return C.say(area.id, label + v.reason + (cited ? "" : " (" + v.rule + ")"));
          }
          var wanted = (area.getAttribute("data-ask") || "").split(",");
          if (!v.readings || wanted.indexOf(String(n)) < 0) return;
          box.appendChild(el("p", null, C.fill(T.which, { n: n })));
          v.readings.forEach(function (reading) {
            var b = el("button");
            if (C.chip) C.drawCards(b, reading.cards, C.chip);  // drawn as cards
            else b.textContent = reading.cards.join(" ");
            b.type = "button";
            b.addEventListener("click", function () {
              var now = area.value.split("\n");
              now[i] = reading.cards.join(" ");
              area.value = now.join("\n");
              C.fire(area);
              C.checkMelds(area);
            });
            box.appendChild(b);
          });
          box.classList.remove("hidden");
        }).catch(function () {});
    });
  };
  $$("textarea[data-melds]").forEach(function (area) {
    area.addEventListener("change", function () { C.checkMelds(area); });
    if (area.getAttribute("data-ask")) C.checkMelds(area);
  });
})();
