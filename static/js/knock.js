// Companion knock page: tapping the seats writes the knocks, in the order tapped, into the
// plain "Knocks, in order" field. Who gets the card is for the server to say (R17-8).
"use strict";
(function () {
  var C = window.Companion, $ = C.$, $$ = C.$$;
  var field = $("#knocks");
  var seats = $("#knock-seats");
  var clear = $("#knock-clear");
  if (!field || !seats) return;
  function order() {
    return field.value.split(",").map(function (s) { return s.trim(); }).filter(Boolean);
  }
  function draw() {
    var now = order();
    $$("[data-knock]", seats).forEach(function (b) {
      var i = now.indexOf(b.getAttribute("data-knock"));
      b.setAttribute("aria-pressed", String(i >= 0));
      $(".order", b).textContent = i >= 0 ? String(i + 1) : "";
    });
  }
  $$("[data-knock]", seats).forEach(function (b) {
    b.addEventListener("click", function () {
      var name = b.getAttribute("data-knock"), now = order(), i = now.indexOf(name);
      if (i >= 0) now.splice(i, 1); else now.push(name);
      field.value = now.join(", ");
      draw();
    });
  });
  clear.addEventListener("click", function () { field.value = ""; draw(); });
  field.addEventListener("input", draw);
  seats.hidden = false;
  clear.hidden = false;
  draw();
})();
