// Companion round form and turn page: the card picker. Taps of a colour (or suit) and values
// write cards in the game's notation into a plain field: a run is a colour, the first and the
// last value; a set is a value and its colours; cards are a colour and values, as many as
// needed. The colours, values and how a card is written come from the game's descriptor
// (C.cards, game.js); whether a meld or a card is allowed is for the server to say.
"use strict";
(function () {
  var C = window.Companion;
  var dialog = document.getElementById("picker");
  if (!C.form || !dialog) return;
  var $ = C.$, $$ = C.$$, notation = C.cards;
  var deck = C.game.cards;
  var T = C.data(dialog, "data-i18n");
  var chip = C.chipper(deck, C.data(dialog, "data-card-names"));  // cards as cards
  C.chip = chip;

  var state, target, kind;
  function reset(mode) {
    state = { mode: mode, colour: null, first: null, last: null, value: null,
      colours: [], joker: null, arm: false, cards: [] };
  }
  function range() {
    var s = state;
    return [Math.min(s.first, s.last || s.first), Math.max(s.first, s.last || s.first)];
  }
  function built() {
    var s = state, out = [];
    if (s.mode === "run" && s.colour && s.first) {
      var r = range();
      for (var v = r[0]; v <= r[1]; v++) {
        out.push(s.joker === v ? notation.standing(s.colour, v) : notation.card(s.colour, v));
      }
    } else if (s.mode === "set" && s.value) {
      notation.colours.forEach(function (c) {
        if (s.colours.indexOf(c) >= 0) out.push(notation.card(c, s.value));
        if (s.joker === c) out.push(notation.joker(c));
      });
      if (s.joker === "*") out.push(notation.joker(null));
    } else if (s.mode === "cards") out = s.cards.slice();
    return out;
  }
  function render() {
    var s = state;
    $$("#picker-tabs button").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.getAttribute("data-mode") === s.mode));
    });
    var tabs = $("#picker-tabs");
    if (tabs) tabs.classList.toggle("hidden", kind !== "melds");
    $("#picker-help").textContent = T[kind === "melds" ? s.mode : kind === "last" || kind === "one" ? kind : "cards"];
    $$("#picker [data-c]").forEach(function (b) {
      var c = b.getAttribute("data-c");
      var on = s.mode === "set" ? s.colours.indexOf(c) >= 0 || s.joker === c : s.colour === c;
      b.setAttribute("aria-pressed", String(on));
      b.classList.toggle("jk", s.mode === "set" && s.joker === c);
    });
    var r = range();
    $$("#picker [data-v]").forEach(function (b) {
      var v = +b.getAttribute("data-v");
      var on = s.mode === "run" ? v === s.first || v === s.last : s.mode === "set" && v === s.value;
      b.setAttribute("aria-pressed", String(on));
      b.classList.toggle("in", s.mode === "run" && s.first !== null && v > r[0] && v < r[1]);
      b.classList.toggle("jk", s.mode === "run" && v === s.joker);
    });
    var jokerButton = $("#picker [data-joker]");
    jokerButton.setAttribute("aria-pressed", String(s.arm || s.joker === "*"));
    // No joker is left in a hand where the game says so (the descriptor's jokers_held);
    // with coloured jokers, the colour comes first.
    jokerButton.disabled = (kind === "hand" && !deck.jokers_held) ||
      (s.mode === "cards" && deck.coloured_jokers && !s.colour);
    C.drawCards($("#picked"), built(), chip);
  }
  function open(button) {
    target = document.getElementById(button.getAttribute("data-target"));
    var pick = button.getAttribute("data-pick");
    // "one": a single tile, changing one read off a photo (photo.js)
    kind = pick === "hand" || pick === "last" || pick === "one" ? pick : "melds";
    reset(kind === "melds" ? pick : "cards");
    render();
    dialog.showModal();
  }
  $$("[data-pick]").forEach(function (b) { b.addEventListener("click", function () { open(b); }); });
  $$("#picker-tabs button").forEach(function (b) {
    b.addEventListener("click", function () { reset(b.getAttribute("data-mode")); render(); });
  });
  $$("#picker [data-c]").forEach(function (b) {
    b.addEventListener("click", function () {
      var c = b.getAttribute("data-c"), s = state;
      if (s.mode === "set") {
        if (s.arm) {
          s.joker = s.joker === c ? null : c;
          s.arm = false;
          s.colours = s.colours.filter(function (x) { return x !== c; });
        } else if (s.colours.indexOf(c) >= 0) s.colours = s.colours.filter(function (x) { return x !== c; });
        else { s.colours.push(c); if (s.joker === c) s.joker = null; }
      } else s.colour = c;
      render();
    });
  });
  $$("#picker [data-v]").forEach(function (b) {
    b.addEventListener("click", function () {
      var v = +b.getAttribute("data-v"), s = state;
      if (s.mode === "run") {
        var r = range();
        if (s.arm && s.first && v >= r[0] && v <= r[1]) { s.joker = v; s.arm = false; }
        else if (!s.first || s.last) { s.first = v; s.last = null; s.joker = null; }
        else s.last = v;
      } else if (s.mode === "set") s.value = v;
      else if (s.colour) {
        if (kind === "last" || kind === "one") {  // one card only: colour and value, and it is in
          s.cards = [notation.card(s.colour, v)];
          return finish();
        }
        s.cards.push(notation.card(s.colour, v));
      }
      render();
    });
  });
  $("#picker [data-joker]").addEventListener("click", function () {
    var s = state;
    if (s.mode === "cards") {
      // A joker of its own colour where the game has coloured jokers, else the one joker.
      if (deck.coloured_jokers && !s.colour) return;
      if (kind === "last" || kind === "one") s.cards = [notation.joker(s.colour)];
      else s.cards.push(notation.joker(s.colour));
    } else if (s.mode === "set" && !deck.coloured_jokers) s.joker = s.joker === "*" ? null : "*";
    else s.arm = !s.arm;
    render();
  });
  dialog.addEventListener("click", function (event) {
    var act = event.target.getAttribute && event.target.getAttribute("data-act");
    if (!act) return;
    var s = state;
    if (act === "undo") {
      if (s.mode === "cards") s.cards.pop();
      else if (s.joker !== null) s.joker = null;
      else reset(s.mode);
      return render();
    }
    if (act === "done") return finish();
    dialog.close();
  });
  // What was picked goes into the field, and the picker closes.
  function finish() {
    var picked = built();
    if (!picked.length) return;
    if (kind === "melds") {
      var text = target.value.replace(/\s+$/, "");
      target.value = (text ? text + "\n" : "") + picked.join(" ");
    } else if (kind === "hand") {
      target.value = (target.value.trim() + " " + picked.join(" ")).trim();
    } else target.value = picked[0];
    C.fire(target);
    if (kind === "melds" && C.checkMelds) C.checkMelds(target);
    C.form.dispatchEvent(new Event("companion:picked"));
    dialog.close();
  }
})();
