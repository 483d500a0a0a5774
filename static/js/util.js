// Companion: what every script shares, loaded first on every page (base.html) as
// window.Companion. The pages work without JavaScript; these helpers only find, make and fill.
"use strict";
(function () {
  var root = document.documentElement;

  function $(sel, within) { return (within || document).querySelector(sel); }
  function $$(sel, within) { return Array.prototype.slice.call((within || document).querySelectorAll(sel)); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  // JSON the server wrote into an attribute: a game's descriptor, a page's words.
  function data(node, name) { return JSON.parse(node.getAttribute(name)); }

  // How the game writes its cards, all from its descriptor's "cards": the colour (or suit)
  // letters, the value texts, which of the two comes first, the joker's mark and what may
  // stand between cards. Whether a card or a meld is allowed is for the server to say.
  function notation(deck) {
    var text = {};
    deck.values.forEach(function (v) { text[v.value] = v.text; });
    var between = new RegExp(deck.separators);
    function card(colour, value) {
      return deck.suit_last ? text[value] + colour : colour + text[value];
    }
    return {
      colours: deck.colours.map(function (c) { return c.code; }),
      card: card,
      // A joker alone: with its colour where the game's jokers have one (*R), else the mark.
      joker: function (colour) { return deck.joker + (deck.coloured_jokers && colour ? colour : ""); },
      // A joker standing for a card: *R5, *5H.
      standing: function (colour, value) { return deck.joker + card(colour, value); },
      // The cards typed in one line: "R1 R2,R3" is three.
      split: function (line) { return line.trim().split(between).filter(Boolean); }
    };
  }

  var C = window.Companion = {
    $: $, $$: $$, el: el, data: data, notation: notation,
    // A page's words with their places filled in: fill("{n} of 5 picked", {n: 3}).
    fill: function (text, values) {
      Object.keys(values).forEach(function (key) { text = text.replace("{" + key + "}", values[key]); });
      return text;
    },
    // Tell the page a script changed a field, as typing would.
    fire: function (input) { input.dispatchEvent(new Event("input", { bubbles: true })); },
    // A time in the page's language, with the parts asked for ({hour: "2-digit", …}).
    clock: function (date, parts) { return date.toLocaleString(root.lang || undefined, parts); },
    // A form whose scripts draw from its game (data-game, the descriptor) and its words
    // (data-i18n); what needs JavaScript to work (data-js) is shown.
    page: function (form) {
      C.form = form;
      C.game = data(form, "data-game");
      C.cards = notation(C.game.cards);
      C.T = form.hasAttribute("data-i18n") ? data(form, "data-i18n") : {};
      $$("[data-js]").forEach(function (e) { e.classList.remove("hidden"); });
      return C;
    }
  };
})();
