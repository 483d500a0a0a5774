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
