// Texts in the words of the chosen game: Rummy 17 plays *games* where the other
// boxes play *rounds*. The server writes each game's words into data-game-words and shows the
// chosen game's; choosing another game (a select or radios named "game") shows its words.
"use strict";
(function () {
  var C = window.Companion;
  var texts = C.$$("[data-game-words]");
  if (!texts.length) return;
  function chosen() {
    var picked = document.querySelector("select[name=game], input[name=game]:checked");
    return picked ? picked.value : null;
  }
  function show() {
    var game = chosen();
    texts.forEach(function (text) {
      var words = JSON.parse(text.getAttribute("data-game-words"));
      if (game && Object.prototype.hasOwnProperty.call(words, game)) text.textContent = words[game];
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target && event.target.name === "game") show();
  });
  show();
})();
