// Own hands: every player enters their own part on their own phone. This is the
// scorekeeper's side; a player's own page is part.js.
//
// - The round form, with the parts open, asks the server every 1.5 s which parts came
//   (/m/<edit>/parts.json) and fills each into that player's fields, as the server wrote them.
//   Fields the scorekeeper changed meanwhile are not overwritten: a button offers the part.
//   What the server flags of the parts that came (a card in two parts) shows on the seat. A
//   change the scorekeeper makes to a part that came is sent back (data-keep), so the player's
//   phone shows it. After "Stop", a part that differs from the form is offered beside it.
// - "Share the link": the phone's share sheet, where it has one (the link and Copy are always
//   on the page as text).
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

  // Asks every `every` ms while the page is in sight; the handler may stop it.
  function poll(url, every, handle) {
    var busy = false, timer = null;
    function stop() { clearInterval(timer); document.removeEventListener("visibilitychange", ask); }
    function ask() {
      if (busy || document.visibilityState !== "visible") return;
      busy = true;
      fetch(url, { cache: "no-store", credentials: "same-origin" })
        .then(function (answer) { return handle(answer, stop); }, function () { })
        .then(function () { busy = false; }, function () { busy = false; });
    }
    timer = setInterval(ask, every);
    document.addEventListener("visibilitychange", ask);
    ask();
  }

  // A field's value as compared: its lines, each with single spaces, in capitals.
  function norm(v) {
    return (v || "").split("\n").map(function (l) { return l.trim().split(/\s+/).join(" ").toUpperCase(); })
      .filter(Boolean).join("\n");
  }
  function same(a, b) {
    return Object.keys(b).every(function (id) { return norm(a[id]) === norm(b[id]); });
  }
  function inputs(within) {
    return $$("textarea, input[type=text], input[type=number]", within);
  }
  function values(within) {
    var out = {};
    inputs(within).forEach(function (i) { out[i.id] = i.value; });
    return out;
  }
  var writing = false;  // fields written here, not typed: nothing to send back
  function writeFields(fields) {
    writing = true;
    try {
      Object.keys(fields).forEach(function (id) {
        var input = document.getElementById(id);
        if (!input || input.value === fields[id]) return;
        input.value = fields[id];
        C.fire(input);
        if (input.hasAttribute("data-melds") && C.checkMelds) C.checkMelds(input);
      });
    } finally { writing = false; }
  }
  function list(node, texts) {
    if (!node) return;
    node.textContent = "";
    texts.forEach(function (t) { node.appendChild(el("li", null, t)); });
    node.classList.toggle("hidden", !texts.length);
  }

  var form = document.getElementById("round-form");

  // --- The scorekeeper: parts fill in as they come ---------------------------------------------
  var panel = document.getElementById("parts");
  if (panel && panel.hasAttribute("data-news") && form) {
    var seen = {}, filled = {};
    var fieldsets = $$("fieldset.player", form);
    var empty = function (seat) { return inputs(fieldsets[seat]).every(function (i) { return !i.value.trim(); }); };
    var write = function (seat, fields) {
      writeFields(fields);
      filled[seat] = values(fieldsets[seat]);
      var offer = $("[data-offer]", fieldsets[seat]);
      if (offer) offer.remove();
      keep(seat);  // the form has the player's part again: no change of the scorekeeper's
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
    // The scorekeeper changes a part that came: that seat's fields go to the server, named as
    // on the player's own page (players-0-…), a moment after the last key, so the player's
    // phone shows the change. A part that is no part yet is refused there, and waits.
    var timers = {};
    var keep = function (seat) {
      var li = $("[data-part-seat='" + seat + "']", panel);
      if (!li || !li.hasAttribute("data-keep") || !seen[seat]) return;
      var body = new FormData();
      var token = $("input[name=csrf_token]", form);
      if (token) body.append("csrf_token", token.value);
      inputs(fieldsets[seat]).forEach(function (i) {
        body.append(i.name.replace(/^players-\d+-/, "players-0-"), i.value);
      });
      fetch(li.getAttribute("data-keep"), { method: "POST", body: body, credentials: "same-origin" })
        .catch(function () { });
    };
    fieldsets.forEach(function (f, seat) {
      function changed() {
        if (writing) return;
        clearTimeout(timers[seat]);
        timers[seat] = setTimeout(function () { keep(seat); }, 300);
      }
      f.addEventListener("input", changed);
      f.addEventListener("change", changed);
    });
    // A form loaded with parts already in (the server filled them, data-filled): those are
    // what came; anything else in a field was typed here.
    fieldsets.forEach(function (f, seat) { if (f.hasAttribute("data-filled")) filled[seat] = values(f); });
    poll(panel.getAttribute("data-news"), +panel.getAttribute("data-every") || 1500, function (answer) {
      if (!answer.ok) return;
      return answer.json().then(function (news) {
        if (!news.open) return;
        news.seats.forEach(function (s) {
          $$("[data-part-status='" + s.seat + "']").forEach(function (p) {
            p.textContent = s.status;
            p.classList.toggle("sent", !!s.sent);
          });
          $$("[data-part-flags='" + s.seat + "']").forEach(function (ul) { list(ul, s.flags || []); });
          var li = $("[data-part-seat='" + s.seat + "']", panel);
          if (li) li.classList.toggle("sent", !!s.sent);
          if (!s.sent || seen[s.seat] === s.sent) return;
          seen[s.seat] = s.sent;
          var now = values(fieldsets[s.seat]);
          if (same(now, s.fields)) { filled[s.seat] = now; return; }
          var untouched = filled[s.seat] ? same(now, filled[s.seat]) : empty(s.seat);
          if (untouched) write(s.seat, s.fields);
          else offer(s.seat, s.fields, s.status);
        });
      });
    });
  }

  // After "Stop: enter every part here": a part that came, beside what the form has instead.
  $$("[data-offer-fields]").forEach(function (button) {
    button.addEventListener("click", function () {
      writeFields(JSON.parse(button.getAttribute("data-offer-fields")));
      button.remove();
    });
  });

  // What a player's own page (part.js) shares with the scorekeeper's form.
  C.parts = { poll: poll, same: same, values: values, writeFields: writeFields, list: list };
})();
