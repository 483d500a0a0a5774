// Companion start page: "Pick at random" ticks one of the named seats (MR-1: the first dealer
// is chosen at random). Without JavaScript the server picks.
"use strict";
(function () {
  var C = window.Companion;
  var button = C.$("#pick-random");
  var form = C.$("#new-match");
  if (!button || !form) return;
  button.addEventListener("click", function (event) {
    var seats = C.$$(".seat", form).filter(function (seat) {
      return seat.querySelector("input[type=text]").value.trim();
    });
    if (!seats.length) return; // the server says to type the names first
    event.preventDefault();
    var values = new Uint32Array(1);
    window.crypto.getRandomValues(values);
    var seat = seats[values[0] % seats.length];
    seat.querySelector("input[type=radio]").checked = true;
    seat.classList.add("picked");
    setTimeout(function () { seat.classList.remove("picked"); }, 1200);
  });
})();
