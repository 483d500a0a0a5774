// Companion round form: what every other script of the form shares, the bonus cards, the
// ending, and problems shown next to their fields. The form works without JavaScript; these
// scripts only write into its plain fields. No rule of any game lives here: the game's
// descriptor (data-game) says what to draw, and the server says what is wrong.
"use strict";
(function () {
  var C = window.Companion;
  var form = document.getElementById("round-form");
  if (!form) return;
  var $ = C.$, $$ = C.$$, el = C.el;
  C.page(form);
  C.nobody = form.getAttribute("data-nobody");

  // --- Bonus cards: as many as the game's descriptor says are drawn (R17-3) ---------------
  var boxes = $$("#bonus input[type=checkbox]");
  var draw = C.game.bonus_cards ? C.game.bonus_cards.draw : 0;
  C.countBonus = function () {
    var n = boxes.filter(function (b) { return b.checked; }).length;
    var out = $("#bonus-count");
    if (out) {
      out.textContent = C.fill(C.T.count, { n: n });
      out.classList.toggle("ok", n === draw);
    }
    return n;
  };
  boxes.forEach(function (box) {
    box.addEventListener("change", function () {
      var over = box.checked && C.countBonus() > draw;
      if (over) box.checked = false;
      C.countBonus();
      if (over) {  // say why the tap did nothing, until the next tap
        var out = $("#bonus-count");
        out.textContent = C.T.too_many;
        out.classList.add("warn");
        if (navigator.vibrate) navigator.vibrate(60);
      } else $("#bonus-count").classList.remove("warn");
    });
  });
  var drawButton = $("#draw");
  if (drawButton) {
    drawButton.addEventListener("click", function (event) {
      event.preventDefault();
      var order = boxes.map(function (b) { return [Math.random(), b]; });
      order.sort(function (a, b) { return a[0] - b[0]; });
      order.forEach(function (pair, i) { pair[1].checked = i < draw; });
      C.countBonus();
      form.dispatchEvent(new Event("change"));
    });
  }
  C.countBonus();

  // --- The ending: a field marked data-unless="went_out" hides when nobody went out --------
  C.ending = function () {
    $$("[data-unless]", form).forEach(function (field) {
      var chosen = $("input[name='" + field.getAttribute("data-unless") + "']:checked", form);
      field.classList.toggle("hidden", !!chosen && chosen.value === C.nobody);
    });
  };
  form.addEventListener("change", C.ending);
  C.ending();
  form.addEventListener("companion:restored", function () { C.countBonus(); C.ending(); });

  // --- Problems next to their fields, placed by the server (web.common.place) ---------------
  function live(id) { return $("ul[data-live='" + id + "']", form) || $("ul[data-live=form]", form); }
  C.clearErrors = function () {
    $$("ul[data-live]", form).forEach(function (ul) { ul.textContent = ""; });
    $$("ul.errors:not([data-live])", form).forEach(function (ul) { ul.remove(); });
    $$(".invalid", form).forEach(function (f) { f.classList.remove("invalid"); });
    $("#form-errors").classList.add("hidden");
    var summary = $("#summary");
    if (summary) summary.remove();
  };
  C.say = function (id, message) {
    var ul = live(id);
    ul.appendChild(el("li", null, message));
    var field = ul.closest(".field, fieldset");
    if (field) field.classList.add("invalid");
    if (ul.getAttribute("data-live") === "form") $("#form-errors").classList.remove("hidden");
  };
  C.showErrors = function (placed) {
    Object.keys(placed).forEach(function (id) {
      placed[id].forEach(function (message) { C.say(id, message); });
    });
    C.toFirstProblem();
  };
  // The first problem in view, its field focused (a refused save reloads at the top).
  C.toFirstProblem = function () {
    var first = $("#conflict, #form-errors:not(.hidden), .invalid", form);
    if (!first) return;
    first.scrollIntoView({ block: "center" });
    var input = first.matches(".invalid") && $("input:not([type=hidden]), textarea", first);
    if (input) input.focus({ preventScroll: true });
  };
  // A problem in the summary at the top: tap it to go to its field.
  form.addEventListener("click", function (event) {
    var link = event.target.closest("[data-goto]");
    if (!link) return;
    var input = document.getElementById(link.getAttribute("data-goto"));
    if (!input) return;
    event.preventDefault();
    (input.closest(".field, fieldset") || input).scrollIntoView({ block: "center" });
    if (input.focus) input.focus({ preventScroll: true });
  });
  if ($("#summary, #conflict", form)) C.toFirstProblem();
  // A field typed into again loses its old error mark.
  form.addEventListener("input", function (event) {
    var field = event.target.closest(".field");
    if (!field) return;
    field.classList.remove("invalid");
    $$("ul.errors:not([data-live])", field).forEach(function (ul) { ul.remove(); });
  });

  // --- Asking the server: JSON back, with the answer's status --------------------------------
  C.send = function (url, init) {
    return fetch(url, init).then(function (r) {
      return r.json().then(function (data) { return { status: r.status, data: data }; });
    });
  };
  // The same form posted to a button's own address (its formaction), answered as JSON.
  C.ask = function (url) {
    return C.send(url, {
      method: "POST",
      headers: { Accept: "application/json" },
      body: new FormData(form),
      credentials: "same-origin"
    });
  };
})();
