// Blank sheets: offer only the seat counts of the chosen game (the server's descriptor says
// which, in data-seats); the server checks them again.
"use strict";
(function () {
  var C = window.Companion;
  var game = C.$("#game");
  var players = C.$("#players");
  if (!game || !players) return;
  function seats() {
    var range = game.options[game.selectedIndex].getAttribute("data-seats").split(" ");
    var low = +range[0], high = +range[1];
    Array.prototype.forEach.call(players.options, function (option) {
      var n = +option.value;
      option.disabled = n < low || n > high;
      option.hidden = option.disabled;
    });
    var now = +players.value;
    if (now < low || now > high) players.value = String(Math.min(Math.max(now, low), high));
  }
  game.addEventListener("change", seats);
  seats();
})();
