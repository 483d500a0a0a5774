// Companion turn page: what the card picker (picker.js) needs, a game choice that reloads the
// form, and "after" started as a copy of "before". Whether the turn is legal is for the
// server to say.
"use strict";
(function () {
  var C = window.Companion;
  var form = document.getElementById("turn-form");
  if (!form) return;
  var $ = C.$, $$ = C.$$;
  C.page(form);
  // Another game draws another form: reload it without asking the referee yet.
  var game = $("#game");
  game.addEventListener("change", function () {
    location.href = form.getAttribute("action") + "?game=" + encodeURIComponent(game.value);
  });
  // "After" starts as a copy of "before": fill every empty "after" from its "before".
  function copy(force) {
    $$("[data-before]").forEach(function (before) {
      var after = document.getElementById(before.getAttribute("data-before"));
      if (after && (force || !after.value.trim())) after.value = before.value;
    });
  }
  $("#copy-before").addEventListener("click", function () { copy(true); });
  $$("[data-after]").forEach(function (after) {
    after.addEventListener("focus", function () { copy(false); });
  });
})();
