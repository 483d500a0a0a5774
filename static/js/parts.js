// Own hands: every player enters their own part on their own phone (issue 28).
//
// - The scorekeeper's round form, with the parts open, asks the server every 1.5 s which parts
//   came (/m/<edit>/parts.json) and fills each into that player's own fields, as the server
//   wrote them. A player's fields the scorekeeper changed meanwhile are not overwritten: a
//   button offers the part that came instead. Nothing is computed here.
// - "Share the link": the phone's share sheet, where it has one (the link and Copy are always
//   on the page as text).
// - A player's own page asks every few seconds whether its round is still open: once it was
//   saved (or the scorekeeper took the round over) the page is loaded again, and the server
//   says so in words. Its walker opens when the player asks for it (walk.js), never by itself.
"use strict";
(function () {
  var C = window.Companion;
  var $ = C.$, $$ = C.$$, el = C.el;

  // --- Share a player's link -----------------------------------------------------------------
  // The link is on the page as text with its Copy button (app.js), which works on plain http
  // too; the phone's share sheet is offered only where there is one (https or this computer).
  $$("[data-share]").forEach(function (button) {
    if (!navigator.share) return;
    button.classList.remove("hidden");
    button.addEventListener("click", function () {
      navigator.share({ title: button.getAttribute("data-title"), url: button.getAttribute("data-share") })
        .catch(function () { });
    });
  });

  function poll(url, every, handle) {
    var busy = false;
    function ask() {
      if (busy || document.visibilityState !== "visible") return;
      busy = true;
      fetch(url, { cache: "no-store", credentials: "same-origin" })
        .then(handle, function () { })
        .then(function () { busy = false; }, function () { busy = false; });
    }
    setInterval(ask, every);
    document.addEventListener("visibilitychange", ask);
    ask();
  }

  // --- The scorekeeper: parts fill in as they come ---------------------------------------------
  var panel = document.getElementById("parts");
  var form = document.getElementById("round-form");
  if (panel && panel.hasAttribute("data-news") && form) {
    var seen = {}, filled = {};
    var fieldsets = $$("fieldset.player", form);
    var inputs = function (seat) {
      return $$("textarea, input[type=text], input[type=number]", fieldsets[seat]);
    };
    var values = function (seat) {
      var out = {};
      inputs(seat).forEach(function (i) { out[i.id] = i.value; });
      return out;
    };
    var same = function (a, b) {
      return Object.keys(b).every(function (id) { return (a[id] || "") === (b[id] || ""); });
    };
    var empty = function (seat) { return inputs(seat).every(function (i) { return !i.value.trim(); }); };
    var write = function (seat, fields) {
      Object.keys(fields).forEach(function (id) {
        var input = document.getElementById(id);
        if (!input || input.value === fields[id]) return;
        input.value = fields[id];
        C.fire(input);
        if (input.hasAttribute("data-melds") && C.checkMelds) C.checkMelds(input);
      });
      filled[seat] = values(seat);
      var offer = $("[data-offer]", fieldsets[seat]);
      if (offer) offer.remove();
    };
    var offer = function (seat, fields, status) {
      var old = $("[data-offer]", fieldsets[seat]);
      if (old) old.remove();
      var b = el("button", "offer", panel.getAttribute("data-use") || status);
      b.type = "button";
      b.setAttribute("data-offer", "");
      b.addEventListener("click", function () { write(seat, fields); });
      var where = $("[data-part-status]", fieldsets[seat]);
      where.parentNode.insertBefore(b, where.nextSibling);
    };
    // A form loaded with parts already in (the server filled them, data-filled): those are
    // what came; anything else in a field was typed here.
    fieldsets.forEach(function (f, seat) { if (f.hasAttribute("data-filled")) filled[seat] = values(seat); });
    poll(panel.getAttribute("data-news"), +panel.getAttribute("data-every") || 1500, function (answer) {
      if (!answer.ok) return;
      return answer.json().then(function (news) {
        if (!news.open) return;
        news.seats.forEach(function (s) {
          $$("[data-part-status='" + s.seat + "']").forEach(function (p) {
            p.textContent = s.status;
            p.classList.toggle("sent", !!s.sent);
          });
          var li = $("[data-part-seat='" + s.seat + "']", panel);
          if (li) li.classList.toggle("sent", !!s.sent);
          if (!s.sent || seen[s.seat] === s.sent) return;
          seen[s.seat] = s.sent;
          var now = values(s.seat);
          if (same(now, s.fields)) { filled[s.seat] = now; return; }
          var untouched = filled[s.seat] ? same(now, filled[s.seat]) : empty(s.seat);
          if (untouched) write(s.seat, s.fields);
          else offer(s.seat, s.fields, s.status);
        });
      });
    });
  }

  // --- A player's own page ---------------------------------------------------------------------
  if (form && form.hasAttribute("data-part")) {
    poll(form.getAttribute("data-news"), 3 * (+form.getAttribute("data-every") || 1500), function (answer) {
      if (answer.status === 410 && !document.documentElement.hasAttribute("data-sending")) location.reload();
    });
  }
})();
