// Companion: what the pages drawn from a game's descriptor share (the round form, the turn
// page): the form's game and words, and how the game writes its cards. Loaded after util.js.
"use strict";
(function () {
  var C = window.Companion;

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

  // Cards drawn as chips, as the card macro draws them (templates/_macros.html):
  // the colour's class, its letter before the value or the suit's mark after it, ★ for a
  // joker, and the name a screen reader says, in the page's language: each card's name comes
  // from the server (data-card-names on the picker; names.as for a joker standing for one).
  // A text that is no card gets a plain chip.
  C.chipper = function (deck, names) {
    var colours = {};
    deck.colours.forEach(function (c) { colours[c.code] = c; });
    function i(text) { return C.el("i", null, text); }
    return function (text) {
      var joker = text.indexOf(deck.joker) === 0;
      var rest = joker ? text.slice(deck.joker.length) : text;
      var code = rest ? (deck.suit_last ? rest.slice(-1) : rest.charAt(0)) : "";
      var value = rest ? (deck.suit_last ? rest.slice(0, -1) : rest.slice(1)) : "";
      var name = joker && value ? names.cards[rest] && C.fill(names.as, { card: names.cards[rest] })
        : names.cards[text];
      var chip = C.el("span", "card");
      chip.setAttribute("data-card", text);
      if (!name || (code && !colours[code])) {
        chip.textContent = text;
        return chip;
      }
      if (code) chip.classList.add("c-" + code);
      if (joker) chip.classList.add("joker");
      chip.setAttribute("role", "img");
      chip.setAttribute("aria-label", name);
      if (code && !deck.suit_last) chip.appendChild(i(code));
      chip.appendChild(document.createTextNode(value || "★"));
      if (code && deck.suit_last && colours[code].symbol) chip.appendChild(i(colours[code].symbol));
      if (joker && value) chip.appendChild(i("★"));
      return chip;
    };
  };
  // Cards as chips into a node, a space between two (so that a long line wraps).
  C.drawCards = function (node, texts, chip) {
    node.textContent = "";
    texts.forEach(function (text, n) {
      if (n) node.appendChild(document.createTextNode(" "));
      node.appendChild(chip(text));
    });
  };

  // A form whose scripts draw from its game (data-game, the descriptor) and its words
  // (data-i18n); what needs JavaScript to work (data-js) is shown.
  C.page = function (form) {
    C.form = form;
    C.game = C.data(form, "data-game");
    C.cards = notation(C.game.cards);
    C.T = form.hasAttribute("data-i18n") ? C.data(form, "data-i18n") : {};
    C.$$("[data-js]").forEach(function (e) { e.classList.remove("hidden"); });
  };
})();
