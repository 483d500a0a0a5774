// Companion rescue page ("Put the table back"): what the card picker (picker.js) needs to tap
// the table's tiles into the cards field. Where each tile goes is for the server to say.
"use strict";
(function () {
  var C = window.Companion;
  var form = document.getElementById("rescue");
  if (!form) return;
  C.page(form);
})();
