// Companion round form: the walking picker. It stays open and walks the table player by
// player: their melds, then what they hold (one tap per count), then the next player. Its keys
// are the cards themselves (card_grid), so one tap names a card, and the kind of meld follows
// from the second card: the same colour makes a run (its first and last card; it adds itself
// once it is long enough, R17-9), the same value a set (its cards; the next other card, "Meld
// done", a count or the next player adds it, or every colour being in). "All colours" then a
// card (or a card then "All colours") is a set of every colour of its value still in the box,
// open for the colours it lacks to be tapped off: a set of five in two taps. ★ then a card, or
// the card held down, is the joker standing for it (D17-3, D17-6). It only writes the form's
// own fields (one meld per line, the counts); the server checks each meld (preview.js) and
// scores the round.
"use strict";
(function () {
  var C = window.Companion;
  var dialog = document.getElementById("walker");
  if (!C.form || !dialog || !C.game.melds) return;
  var $ = C.$, $$ = C.$$, el = C.el, form = C.form, notation = C.cards;
  var T = C.data(dialog, "data-i18n");
  var deck = C.game.cards;
  var players = $$("fieldset.player", form);
  var holding = C.game.holding;

  // The walk goes round the table in seat order, from the first seat, the same every round;
  // whoever went out has only melds (nothing to count). Its last step saves the round.
  var at = 0, pend = null, chosen = [], order = [];
  function walkOrder() {
    order = players.map(function (p, i) { return i; });
  }
  function fields(pos) {
    var p = players[order[pos]];
    return {
      name: p.getAttribute("data-name"),
      melds: $("textarea[data-melds]", p),
      held: $("input[name$='-" + holding + "']", p),
      counts: $$("input[type=number]", p)
    };
  }
  function given(seat) {  // this player's hand is entered, or they went out
    var p = players[seat];
    if (wentOut(p.getAttribute("data-name"))) return true;
    var held = $("input[name$='-" + holding + "']", p);
    var counts = $$("input[type=number]", p);
    return (!!held && !!held.value.trim()) || (counts.length > 0 && counts.every(function (c) { return c.value !== ""; }));
  }
  function wentOut(name) {
    var chosenOut = $("input[name=went_out]:checked", form);
    return !!chosenOut && chosenOut.value === name;
  }
  // The meld being tapped: one card ("one"), a run (colour, the values tapped, the jokers'
  // values) or a set (value, the colours tapped, the jokers' colours); "armed": ★ was tapped,
  // so the next card is the one a joker stands for.
  var least = (C.game.numbers && C.game.numbers.meld_least) || 1;
  var armed = false, allArmed = false;  // allArmed: "All colours" waits for its card
  var every = $("#walker [data-all]");  // absent from a page drawn before it
  function span() {
    var vs = pend.values.concat(pend.jokers);
    return [Math.min.apply(null, vs), Math.max.apply(null, vs)];
  }
  function built() {
    var out = [];
    if (!pend) return out;
    if (pend.kind === "one") {
      out.push(pend.joker ? notation.standing(pend.c, pend.v) : notation.card(pend.c, pend.v));
    } else if (pend.kind === "run") {
      var r = span();
      for (var v = r[0]; v <= r[1]; v++) {
        out.push(pend.jokers.indexOf(v) >= 0 ? notation.standing(pend.colour, v) : notation.card(pend.colour, v));
      }
    } else {
      notation.colours.forEach(function (c) {
        if (pend.colours.indexOf(c) >= 0) out.push(notation.card(c, pend.value));
        if (pend.jokers.indexOf(c) >= 0) out.push(notation.joker(c));
      });
      if (pend.jokers.indexOf("*") >= 0) out.push(notation.joker(null));
    }
    return out;
  }
  function toggle(list, x) {
    var i = list.indexOf(x);
    if (i >= 0) list.splice(i, 1); else list.push(x);
  }
  function without(list, x) { return list.filter(function (y) { return y !== x; }); }
  // One card tapped (a joker's when armed): it joins the meld being tapped when it fits,
  // else it starts the next one (a lone card is replaced: it was no meld).
  function tapCard(c, v, joker) {
    if (pend && pend.kind === "one") {
      if (pend.c === c && pend.v === v) { pend = null; return; }  // tapped again: off
      var first = pend;
      if (c === first.c) pend = { kind: "run", colour: c, values: [], jokers: [] };
      else if (v === first.v) pend = { kind: "set", value: v, colours: [], jokers: [] };
      else { pend = { kind: "one", c: c, v: v, joker: joker }; return; }
      tapCard(first.c, first.v, first.joker);
    }
    if (!pend) { pend = { kind: "one", c: c, v: v, joker: joker }; return; }
    if (pend.kind === "run" && c === pend.colour) {
      if (joker) { pend.values = without(pend.values, v); toggle(pend.jokers, v); }
      else { pend.jokers = without(pend.jokers, v); toggle(pend.values, v); }
      // Two of its own cards and long enough (the jokers' places count): it is done.
      if (pend.values.length >= 2 && span()[1] - span()[0] + 1 >= least) commit();
    } else if (pend.kind === "set" && v === pend.value) {
      if (joker) { pend.colours = without(pend.colours, c); toggle(pend.jokers, c); }
      else { pend.jokers = without(pend.jokers, c); toggle(pend.colours, c); }
      // Every colour is in: nothing more can join this set, so it adds itself (not one that
      // "All colours" filled: its extra colours are still to be tapped off).
      if (!pend.all && pend.colours.length + pend.jokers.length >= notation.colours.length) commit();
    } else {
      commit();
      pend = { kind: "one", c: c, v: v, joker: joker };
    }
  }
  // How often each card already lies in the round: every player's melds and hand, the last
  // card. The box holds each card deck.copies times (descriptor; R17-1: once), so "All
  // colours" leaves out a card that lies elsewhere that often; with no such number, none.
  function lying() {
    var seen = {};
    $$("textarea[data-melds], input[name$='-" + holding + "'], #last_discard", form).forEach(function (f) {
      notation.split(f.value).forEach(function (t) { t = t.toUpperCase(); seen[t] = (seen[t] || 0) + 1; });
    });
    return seen;
  }
  // "All colours" with the card c v (a joker's when joker): a set of every colour of v that
  // is still in the box, with the card tapped just before when it has that value; it stays
  // open for the colours it lacks to be tapped off.
  function allOf(c, v, joker) {
    var keep = { colours: [], jokers: [] };
    if (pend && pend.kind === "one" && pend.v === v) keep[pend.joker ? "jokers" : "colours"].push(pend.c);
    else if (pend && pend.kind === "one") pend = null;  // a lone card of another value: no meld
    else commit();
    var seen = lying();
    var set = { kind: "set", value: v, colours: keep.colours.slice(), jokers: keep.jokers.slice(), all: true };
    notation.colours.forEach(function (x) {
      if (set.colours.indexOf(x) >= 0 || set.jokers.indexOf(x) >= 0) return;
      if (x === c && joker) set.jokers.push(x);
      else if (x === c || !deck.copies || (seen[notation.card(x, v).toUpperCase()] || 0) < deck.copies) set.colours.push(x);
    });
    pend = set;
  }
  function lines() {
    return fields(at).melds.value.split("\n").filter(function (l) { return l.trim(); });
  }
  function write(list) {
    var area = fields(at).melds;
    area.value = list.join("\n");
    C.fire(area);
    if (C.checkMelds) C.checkMelds(area);
  }
  // The meld being tapped goes into the player's field as one more line.
  function commit() {
    var cards = built();
    pend = null;
    armed = false;
    allArmed = false;
    if (cards.length) write(lines().concat([cards.join(" ")]));
  }
  // Whose melds the walker wants, in large type: "Melds of <big>Anna</big>" in the words and
  // the order of the page's language.
  function who(name) {
    var head = $("#walk-who"), parts = T.melds.split("{n}");
    head.textContent = "";
    head.appendChild(document.createTextNode(parts[0]));
    head.appendChild(el("strong", "walk-name", name));
    head.appendChild(document.createTextNode(parts.slice(1).join("")));
  }
  function render() {
    var f = fields(at), out = wentOut(f.name);
    who(f.name);
    $("#walk-help").textContent = T.hint;
    var shown = $("#walk-melds");
    shown.textContent = "";
    lines().forEach(function (l) { shown.appendChild(el("code", null, l)); });
    var errors = $("#walk-errors");
    errors.textContent = "";
    $$("ul[data-live='" + f.melds.id + "'] li", form).forEach(function (li) {
      errors.appendChild(el("li", null, li.textContent));
    });
    var r = pend && pend.kind === "run" && (pend.values.length || pend.jokers.length) ? span() : null;
    $$("#walker [data-card]").forEach(function (b) {
      var c = b.getAttribute("data-c"), v = +b.getAttribute("data-v");
      var on = false, jk = false, inside = false;
      if (pend && pend.kind === "one") { on = pend.c === c && pend.v === v; jk = on && pend.joker; }
      else if (pend && pend.kind === "run" && c === pend.colour) {
        on = pend.values.indexOf(v) >= 0;
        jk = pend.jokers.indexOf(v) >= 0;
        inside = !!r && !on && !jk && v > r[0] && v < r[1];
      } else if (pend && pend.kind === "set" && v === pend.value) {
        on = pend.colours.indexOf(c) >= 0;
        jk = pend.jokers.indexOf(c) >= 0;
      }
      b.setAttribute("aria-pressed", String(on || jk));
      b.classList.toggle("jk", jk);
      b.classList.toggle("in", inside);
    });
    var star = $("#walker [data-joker]");
    star.setAttribute("aria-pressed", String(armed || !!pend && pend.kind === "set" && pend.jokers.indexOf("*") >= 0));
    if (every) every.setAttribute("aria-pressed", String(allArmed || !!pend && !!pend.all));
    $("#walk-now").textContent = built().join(" ");
    $("#walk-counts").classList.toggle("hidden", out);
    var note = $("#walk-out");
    note.textContent = C.fill(T.out, { n: f.name });
    note.classList.toggle("hidden", !out);
    $$("#walk-counts [data-count]").forEach(function (row) {
      var input = f.counts[+row.getAttribute("data-count")];
      $$("[data-n]", row).forEach(function (b) {
        b.setAttribute("aria-pressed", String(!!input && input.value !== "" && +input.value === +b.getAttribute("data-n")));
      });
    });
    // its words in a span of their own, cut at two lines for a long name (picker.css)
    $("#walk-next span").textContent = at + 1 < players.length ? C.fill(T.next, { n: fields(at + 1).name }) : T.save;
    $("#walker [data-act=back]").disabled = at === 0;
  }
  // The count chips show 0–12; the last one turns them into 13–25 and back.
  var chips = $$("[data-n]", $("#walk-counts [data-count]")).length;
  function shift(row, base) {
    var label = row.getAttribute("aria-label");
    $$("[data-n]", row).forEach(function (b, i) {
      b.setAttribute("data-n", String(base + i));
      b.textContent = String(base + i);
      b.setAttribute("aria-label", label + ": " + (base + i));
    });
    var more = $("[data-more]", row), other = base ? "0–" + (chips - 1) : chips + "–" + (2 * chips - 1);
    more.textContent = base ? other : chips + "+";
    more.setAttribute("aria-label", label + ": " + other);
    row.setAttribute("data-base", String(base));
  }
  function showCounts() {  // each count's chips in the range that holds what is entered
    var f = fields(at);
    $$("#walk-counts [data-count]").forEach(function (row) {
      var input = f.counts[+row.getAttribute("data-count")];
      var v = input && input.value !== "" ? +input.value : 0;
      shift(row, v >= chips && v < 2 * chips ? chips : 0);
    });
  }
  // Past the last player the walk is done: the round is saved, whichever step ended it (the
  // last player's counts, or "Save round" after whoever went out).
  function go(i) {
    commit();
    if (i >= players.length) {
      dialog.close();
      var missing = players.filter(function (p, k) { return !given(k); })[0];
      if (!missing) { $("#save-button").click(); return; }
      // A hand still to type (more cards than the chips show): there, then Save.
      var field = $("input[type=number], input[name$='-" + holding + "']", missing);
      field.scrollIntoView({ block: "center" });
      field.focus({ preventScroll: true });
      return;
    }
    at = Math.max(0, i);
    chosen = [];
    showCounts();
    render();
  }
  function open(i) {  // i: the player's seat
    pend = null;
    walkOrder();
    at = order.indexOf(i);
    chosen = [];
    showCounts();
    render();
    dialog.showModal();
  }
  $$("[data-walk]", form).forEach(function (b) {
    b.addEventListener("click", function () {
      var seat = b.getAttribute("data-walk");
      walkOrder();
      open(seat === "first" ? order[0] : +seat);
    });
  });
  // The walk opens only when asked ("Tap in …"): never by itself, so whoever types the melds
  // has nothing to close first.
  // A card key held down (HOLD ms) is the joker standing for that card: one touch for what
  // ★ and the card say in two. The click that ends the touch then does nothing more.
  var HOLD = 450;
  $$("#walker [data-card]").forEach(function (b) {
    var timer = null, held = false;
    function press(joker) {
      var c = b.getAttribute("data-c"), v = +b.getAttribute("data-v");
      armed = false;
      if (allArmed) { allArmed = false; allOf(c, v, joker); }
      else tapCard(c, v, joker);
      render();
    }
    function stop() { clearTimeout(timer); timer = null; }
    b.addEventListener("pointerdown", function () {
      held = false;
      stop();
      timer = setTimeout(function () {
        timer = null;
        held = true;
        if (navigator.vibrate) navigator.vibrate(15);
        press(true);
      }, HOLD);
    });
    ["pointerup", "pointerleave", "pointercancel"].forEach(function (type) { b.addEventListener(type, stop); });
    b.addEventListener("contextmenu", function (event) { event.preventDefault(); });
    b.addEventListener("click", function () {
      if (held) { held = false; return; }
      press(armed);
    });
  });
  $("#walker [data-joker]").addEventListener("click", function () {
    allArmed = false;
    if (pend && pend.kind === "set" && !deck.coloured_jokers) {  // a set's joker, no stand-in
      toggle(pend.jokers, "*");
    } else armed = !armed;
    render();
  });
  // "All colours" right after one card fills that card's value at once; otherwise the meld
  // being tapped is done and the key waits for the card that names the value.
  if (every) every.addEventListener("click", function () {
    armed = false;
    if (pend && pend.kind === "one") allOf(pend.c, pend.v, pend.joker);
    else if (allArmed) allArmed = false;
    else { commit(); allArmed = true; }
    render();
  });
  $$("#walk-counts [data-count]").forEach(function (row) {
    var k = +row.getAttribute("data-count");
    $("[data-more]", row).addEventListener("click", function () {
      shift(row, +row.getAttribute("data-base") ? 0 : chips);
      render();
    });
    $$("[data-n]", row).forEach(function (b) {
      b.addEventListener("click", function () {
        commit();
        var f = fields(at);
        if (f.held && f.held.value) { f.held.value = ""; C.fire(f.held); }  // counts instead
        f.counts[k].value = b.getAttribute("data-n");
        C.fire(f.counts[k]);
        if (chosen.indexOf(k) < 0) chosen.push(k);
        // Every count of this player tapped: on to the next player, or the round is saved.
        if (chosen.length >= f.counts.length) go(at + 1);
        else render();
      });
    });
  });
  // A player's own page (part.html): "No cards left" ends the hand in one tap (every count 0).
  var none = $("#walker [data-none]");
  if (none) none.addEventListener("click", function () {
    commit();
    var f = fields(at);
    if (f.held && f.held.value) { f.held.value = ""; C.fire(f.held); }
    f.counts.forEach(function (c) { c.value = "0"; C.fire(c); });
    go(at + 1);
  });
  dialog.addEventListener("click", function (event) {
    var act = event.target.closest && event.target.closest("[data-act]");
    if (!act) return;
    var what = act.getAttribute("data-act");
    if (what === "undo") {
      if (pend || armed || allArmed) { pend = null; armed = false; allArmed = false; }
      else {
        var list = lines();
        if (list.length) { list.pop(); write(list); }
      }
      render();
    } else if (what === "commit") { commit(); render(); }
    else if (what === "next") {
      go(at + 1);  // past the last player: the round is saved
    }
    else if (what === "back") go(at - 1);
    else if (what === "close") { commit(); dialog.close(); }
  });
  dialog.addEventListener("cancel", function () { commit(); });  // Escape keeps a tapped meld
  // The server's answer about a meld arrives later: show it for the player on screen.
  new MutationObserver(function () { if (dialog.open) render(); })
    .observe(form, { childList: true, subtree: true });

  // --- The last card: one tap on a card that doubles the round (descriptor, R17-15a) -------
  // "Not a 17" is the contract's short form {"seventeen": false}: one tap, no card typed.
  var last = $("#last_discard"), short = $("#last_short");
  function lastPressed() {
    $$("[data-last]", form).forEach(function (b) {
      b.setAttribute("aria-pressed", String(!!last && last.value.trim().toUpperCase() === b.getAttribute("data-last")));
    });
    $$("[data-last-short]", form).forEach(function (b) {
      b.setAttribute("aria-pressed", String(!!short && !!last && !last.value.trim() && short.value === b.getAttribute("data-last-short")));
    });
  }
  $$("[data-last]", form).forEach(function (b) {
    b.addEventListener("click", function () {
      last.value = b.getAttribute("data-last");
      if (short) short.value = "";
      C.fire(last);
      lastPressed();
    });
  });
  $$("[data-last-short]", form).forEach(function (b) {
    b.addEventListener("click", function () {
      last.value = "";
      short.value = b.getAttribute("data-last-short");
      C.fire(last);
      lastPressed();
    });
  });
  if (last) {
    last.addEventListener("input", function () { if (short && last.value.trim()) short.value = ""; });
    last.addEventListener("input", lastPressed);
    form.addEventListener("companion:restored", lastPressed);
    form.addEventListener("companion:picked", lastPressed);
    lastPressed();
  }
})();
