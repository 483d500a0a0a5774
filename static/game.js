// Companion game form: card picker, drafts on this device, joker readings, live preview.
// The form works without this file; everything here only writes into its plain text fields.
"use strict";
(function () {
  var form = document.getElementById("game-form");
  if (!form) return;
  var T = JSON.parse(form.getAttribute("data-i18n"));
  var COLOURS = "RBGYK";
  var DRAW_PILE = "-";
  function $(sel, root) { return (root || document).querySelector(sel); }
  function $$(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function fill(text, n) { return text.replace("{n}", n); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function cards(text) { return text.trim().split(/[\s,;]+/).filter(Boolean); }
  function fire(input) { input.dispatchEvent(new Event("input", { bubbles: true })); }
  $$("[data-js]").forEach(function (e) { e.classList.remove("hidden"); });

  // --- Bonus cards: exactly five (R17-3) -------------------------------------------------
  var boxes = $$("#bonus input[type=checkbox]");
  function countBonus() {
    var n = boxes.filter(function (b) { return b.checked; }).length;
    var out = $("#bonus-count");
    out.textContent = fill(T.count, n);
    out.classList.toggle("ok", n === 5);
    return n;
  }
  boxes.forEach(function (box) {
    box.addEventListener("change", function () {
      if (box.checked && countBonus() > 5) box.checked = false;
      countBonus();
    });
  });
  $("#draw").addEventListener("click", function (event) {
    event.preventDefault();
    var order = boxes.map(function (b) { return [Math.random(), b]; });
    order.sort(function (a, b) { return a[0] - b[0]; });
    order.forEach(function (pair, i) { pair[1].checked = i < 5; });
    countBonus();
    form.dispatchEvent(new Event("change"));
  });
  countBonus();

  // --- How the game ended: hide the last card for R17-15b, show RUMMY 17 for a 17 -----------
  var last = $("#last_discard");
  function ending() {
    var chosen = $("input[name=went_out]:checked");
    var pile = chosen && chosen.value === DRAW_PILE;
    $("#last-field").classList.toggle("hidden", pile);
    $("#r17").classList.toggle("hidden", pile || !/^\s*[RBGYK]17\s*$/i.test(last.value));
  }
  form.addEventListener("change", ending);
  last.addEventListener("input", ending);
  ending();

  // --- Errors shown next to the field they are about -------------------------------------
  function live(id) { return $("ul[data-live='" + id + "']"); }
  function clearLive() { $$("ul[data-live]").forEach(function (ul) { ul.textContent = ""; }); }
  function say(id, message) {
    var ul = live(id) || live("form");
    ul.appendChild(el("li", null, message));
    var field = ul.closest(".field");
    if (field) field.classList.add("invalid");
  }
  // A field typed into again loses its old (server) error mark.
  form.addEventListener("input", function (event) {
    var field = event.target.closest(".field");
    if (!field) return;
    field.classList.remove("invalid");
    $$("ul.errors:not([data-live])", field).forEach(function (ul) { ul.remove(); });
  });
  function place(err) {
    var msg = err.message.replace(/^game \d+: /, "");
    msg = msg.charAt(0).toUpperCase() + msg.slice(1);
    if (err.field === "bonus_cards") return say("bonus_cards", msg);
    if (err.field === "last_discard") return say(last.id, msg);
    var sets = $$("fieldset.player");
    for (var i = 0; i < sets.length; i++) {
      var name = sets[i].getAttribute("data-name");
      if (err.player !== name) continue;
      if (err.meld) {
        var short = msg.replace(name + ", ", "");
        return say($("textarea", sets[i]).id, short.charAt(0).toUpperCase() + short.slice(1));
      }
      return say($("input[name$='-hand']", sets[i]).id, msg);
    }
    say("form", msg);
  }
  var top = el("ul", "errors error-box hidden");
  top.setAttribute("data-live", "form");
  form.insertBefore(top, $("#bonus"));
  var bonusLive = el("ul", "errors");
  bonusLive.setAttribute("data-live", "bonus_cards");
  $("#bonus").appendChild(bonusLive);
  new MutationObserver(function () { top.classList.toggle("hidden", !top.firstChild); })
    .observe(top, { childList: true });

  // --- The round document, built exactly as the server builds it from the same fields -----
  function roundDocument() {
    var chosen = $("input[name=went_out]:checked");
    var wentOut = chosen && chosen.value !== DRAW_PILE ? chosen.value : null;
    var doc = {
      game: "rummy17",
      bonus_cards: boxes.filter(function (b) { return b.checked; }).map(function (b) { return b.value; }),
      went_out: wentOut,
      players: $$("fieldset.player").map(function (fs) {
        var hand = cards($("input[name$='-hand']", fs).value);
        var low = $("input[name$='-low']", fs).value, high = $("input[name$='-high']", fs).value;
        if (!hand.length && (low !== "" || high !== "")) {
          hand = { low: parseInt(low || "0", 10), high: parseInt(high || "0", 10) };
        }
        var melds = $("textarea", fs).value.split("\n").filter(function (l) { return l.trim(); });
        return { name: fs.getAttribute("data-name"), melds: melds.map(cards), hand: hand };
      })
    };
    if (wentOut !== null) doc.last_discard = last.value.trim() || null;
    return doc;
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      credentials: "omit"
    }).then(function (r) {
      return r.json().then(function (data) { return { status: r.status, data: data }; });
    });
  }

  // --- Is each meld legal, and is a joker's stand-in clear? (D17-6, /api/v1/check) ---------
  function checkMelds(area) {
    var box = $("[data-readings='" + area.id + "']");
    var lines = area.value.split("\n");
    box.textContent = "";
    box.classList.add("hidden");
    live(area.id).textContent = "";
    lines.forEach(function (line, i) {
      if (!line.trim()) return;
      var n = lines.slice(0, i + 1).filter(function (l) { return l.trim(); }).length;
      post(form.getAttribute("data-check-url"), { game: "rummy17", cards: cards(line) })
        .then(function (answer) {
          var v = answer.data;
          if (answer.status !== 200) return say(area.id, fill(T.meld, n) + ": " + v.error.message);
          if (!v.valid) return say(area.id, fill(T.meld, n) + ": " + v.reason + " (" + v.rule + ")");
          if (!v.readings) return;
          box.appendChild(el("p", null, fill(T.which, n)));
          v.readings.forEach(function (reading) {
            var b = el("button", null, reading.cards.join(" "));
            b.type = "button";
            b.addEventListener("click", function () {
              var now = area.value.split("\n");
              now[i] = reading.cards.join(" ");
              area.value = now.join("\n");
              fire(area);
              checkMelds(area);
            });
            box.appendChild(b);
          });
          box.classList.remove("hidden");
        }).catch(function () {});
    });
  }
  $$("textarea[data-melds]").forEach(function (area) {
    area.addEventListener("change", function () { checkMelds(area); });
  });

  // --- Preview: the engine's score before saving (/api/v1/score) ------------------------
  function renderPreview(result) {
    var out = $("#preview");
    out.textContent = "";
    out.appendChild(el("h2", null, T.preview));
    if (result.rummy17) out.appendChild(el("p", "notice", T.doubled));
    var table = el("table", "figs");
    var head = el("tr");
    [T.player, T.penalty, T.bonus, T.score].forEach(function (h, i) {
      head.appendChild(el("th", i ? "n" : null, h));
    });
    table.appendChild(el("thead")).appendChild(head);
    var body = table.appendChild(el("tbody"));
    result.players.forEach(function (p) {
      var tr = body.appendChild(el("tr"));
      tr.appendChild(el("td", null, p.name));
      tr.appendChild(el("td", "n", p.penalty ? "\u2212" + p.penalty : "0"));
      tr.appendChild(el("td", "n", p.bonus ? "+" + p.bonus : "0"));
      tr.appendChild(el("td", "n")).appendChild(el("strong", null, String(p.score)));
    });
    out.appendChild(table);
    result.awards.forEach(function (a) {
      var box = boxes.filter(function (b) { return b.value === a.card; })[0];
      var div = out.appendChild(el("div", "award"));
      div.appendChild(el("strong", null, box ? box.getAttribute("data-name") : a.card));
      div.appendChild(document.createTextNode(": " + (a.winners.length ? a.winners.join(", ") +
        " (+" + a.points + ")" : T.nobody)));
      div.appendChild(el("br"));
      div.appendChild(el("span", "muted small", a.reason + " \u00b7 " + a.rule));
    });
    out.classList.remove("hidden");
    out.scrollIntoView({ behavior: "smooth", block: "start" });
  }
  $("#preview-button").addEventListener("click", function (event) {
    event.preventDefault();
    clearLive();
    $("#preview").classList.add("hidden");
    var both = $$("fieldset.player").filter(function (fs) {
      return $("input[name$='-hand']", fs).value.trim() &&
        (+$("input[name$='-low']", fs).value > 0 || +$("input[name$='-high']", fs).value > 0);
    });
    if (both.length) return both.forEach(function (fs) { say($("input[name$='-hand']", fs).id, T.both); });
    post(form.getAttribute("data-score-url"), roundDocument()).then(function (answer) {
      if (answer.status === 200) return renderPreview(answer.data);
      if (answer.data && answer.data.error) place(answer.data.error);
      var first = $(".invalid");
      if (first) first.scrollIntoView({ behavior: "smooth", block: "center" });
    }).catch(function () { say("form", T.offline); });
  });

  // --- Drafts: nothing typed is lost on a reload or a locked phone ----------------------
  var key = form.getAttribute("data-draft");
  function snapshot() {
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrf_token") fields.push([name, value]);
    });
    return fields;
  }
  function saveDraft() {
    try { localStorage.setItem(key, JSON.stringify({ t: Date.now(), f: snapshot() })); } catch (e) { }
  }
  form.addEventListener("input", saveDraft);
  form.addEventListener("change", saveDraft);
  function restore() {
    var raw;
    try { raw = localStorage.getItem(key); } catch (e) { return; }
    if (!raw) return;
    var draft = JSON.parse(raw);
    if (JSON.stringify(draft.f) === JSON.stringify(snapshot())) return;
    var values = {};
    draft.f.forEach(function (pair) { (values[pair[0]] = values[pair[0]] || []).push(pair[1]); });
    $$("input, textarea", form).forEach(function (input) {
      if (!input.name || input.name === "csrf_token") return;
      var v = values[input.name] || [];
      if (input.type === "checkbox" || input.type === "radio") input.checked = v.indexOf(input.value) >= 0;
      else input.value = v.length ? v[0] : "";
    });
    countBonus();
    ending();
    var note = $("#restored");
    note.textContent = T.restored + " ";
    var discard = el("button", null, T.discard);
    discard.type = "button";
    discard.addEventListener("click", function () {
      try { localStorage.removeItem(key); } catch (e) { }
      location.reload();
    });
    note.appendChild(discard);
    note.classList.remove("hidden");
  }
  if (form.getAttribute("data-restore") === "1") restore();

  // --- The card picker: colour x value taps that write notation into a field ------------
  var dialog = $("#picker");
  var state, target, kind;
  function reset(mode) {
    state = { mode: mode, colour: null, first: null, last: null, value: null,
      colours: [], joker: null, arm: false, cards: [] };
  }
  function built() {
    var s = state, out = [];
    if (s.mode === "run" && s.colour && s.first) {
      var lo = Math.min(s.first, s.last || s.first), hi = Math.max(s.first, s.last || s.first);
      for (var v = lo; v <= hi; v++) out.push((s.joker === v ? "*" : "") + s.colour + v);
    } else if (s.mode === "set" && s.value) {
      COLOURS.split("").forEach(function (c) {
        if (s.colours.indexOf(c) >= 0) out.push(c + s.value);
        if (s.joker === c) out.push("*" + c);
      });
    } else if (s.mode === "cards") out = s.cards.slice();
    return out;
  }
  function render() {
    var s = state;
    $$("#picker-tabs button").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.getAttribute("data-mode") === s.mode));
    });
    $("#picker-tabs").classList.toggle("hidden", kind !== "melds");
    $("#picker-help").textContent = T[kind === "melds" ? s.mode : kind];
    $$("#picker [data-c]").forEach(function (b) {
      var c = b.getAttribute("data-c");
      var on = s.mode === "set" ? s.colours.indexOf(c) >= 0 || s.joker === c : s.colour === c;
      b.setAttribute("aria-pressed", String(on));
      b.classList.toggle("jk", s.mode === "set" && s.joker === c);
    });
    var lo = Math.min(s.first, s.last || s.first), hi = Math.max(s.first, s.last || s.first);
    $$("#picker [data-v]").forEach(function (b) {
      var v = +b.getAttribute("data-v");
      var on = s.mode === "run" ? v === s.first || v === s.last : s.mode === "set" && v === s.value;
      b.setAttribute("aria-pressed", String(on));
      b.classList.toggle("in", s.mode === "run" && s.first !== null && v > lo && v < hi);
      b.classList.toggle("jk", s.mode === "run" && v === s.joker);
    });
    var joker = $("#picker [data-joker]");
    joker.disabled = kind !== "melds";
    joker.setAttribute("aria-pressed", String(s.arm));
    $("#picked").textContent = built().join(" ");
  }
  function open(button) {
    target = document.getElementById(button.getAttribute("data-target"));
    var pick = button.getAttribute("data-pick");
    kind = pick === "hand" || pick === "last" ? pick : "melds";
    reset(kind === "melds" ? pick : "cards");
    render();
    dialog.showModal();
  }
  $$("[data-pick]").forEach(function (b) { b.addEventListener("click", function () { open(b); }); });
  $$("#picker-tabs button").forEach(function (b) {
    b.addEventListener("click", function () { reset(b.getAttribute("data-mode")); render(); });
  });
  $$("#picker [data-c]").forEach(function (b) {
    b.addEventListener("click", function () {
      var c = b.getAttribute("data-c"), s = state;
      if (s.mode === "set") {
        if (s.arm) { s.joker = s.joker === c ? null : c; s.arm = false; s.colours = s.colours.filter(function (x) { return x !== c; }); }
        else if (s.colours.indexOf(c) >= 0) s.colours = s.colours.filter(function (x) { return x !== c; });
        else { s.colours.push(c); if (s.joker === c) s.joker = null; }
      } else s.colour = c;
      render();
    });
  });
  $$("#picker [data-v]").forEach(function (b) {
    b.addEventListener("click", function () {
      var v = +b.getAttribute("data-v"), s = state;
      if (s.mode === "run") {
        var lo = Math.min(s.first, s.last || s.first), hi = Math.max(s.first, s.last || s.first);
        if (s.arm && s.first && v >= lo && v <= hi) { s.joker = v; s.arm = false; }
        else if (!s.first || s.last) { s.first = v; s.last = null; s.joker = null; }
        else s.last = v;
      } else if (s.mode === "set") s.value = v;
      else if (s.colour) {
        if (kind === "last") s.cards = [s.colour + v];
        else s.cards.push(s.colour + v);
      }
      render();
    });
  });
  $("#picker [data-joker]").addEventListener("click", function () {
    var s = state;
    if (s.mode === "cards") { if (s.colour) s.cards.push("*" + s.colour); }
    else s.arm = !s.arm;
    render();
  });
  dialog.addEventListener("click", function (event) {
    var act = event.target.getAttribute && event.target.getAttribute("data-act");
    if (!act) return;
    var s = state;
    if (act === "undo") {
      if (s.mode === "cards") s.cards.pop();
      else if (s.joker !== null) s.joker = null;
      else reset(s.mode);
      return render();
    }
    if (act === "done") {
      var picked = built();
      if (!picked.length) return;
      if (kind === "melds") {
        var text = target.value.replace(/\s+$/, "");
        target.value = (text ? text + "\n" : "") + picked.join(" ");
      } else if (kind === "hand") {
        target.value = (target.value.trim() + " " + picked.join(" ")).trim();
      } else target.value = picked[0];
      fire(target);
      if (kind === "melds") checkMelds(target);
      ending();
    }
    dialog.close();
  });
})();
