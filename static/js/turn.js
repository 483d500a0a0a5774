// Companion turn page: what the card picker (picker.js) needs, a game choice that reloads the
// form, and "after" started as a copy of "before". Whether the turn is legal is for the
// server to say.
"use strict";
(function () {
  var form = document.getElementById("turn-form");
  if (!form) return;
  function $(sel, root) { return (root || document).querySelector(sel); }
  function $$(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  window.Companion = {
    form: form,
    game: JSON.parse(form.getAttribute("data-game")),
    T: JSON.parse(form.getAttribute("data-i18n")),
    $: $, $$: $$,
    fire: function (input) { input.dispatchEvent(new Event("input", { bubbles: true })); }
  };
  $$("[data-js]").forEach(function (e) { e.classList.remove("hidden"); });
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
  form.addEventListener("companion:picked", function () {});
})();
