// Companion turn timer (RK-10, RO-10): counts down and passes the turn clockwise. The server
// gives the seconds, the seats, who plays first and every word (data attributes); this script
// only draws and counts. Its state lives on the device (localStorage, one key per match) so a
// reload or a locked phone loses nothing: a running turn is kept as its deadline.
"use strict";
(function () {
  var C = window.Companion, $ = C.$;
  var root = $("#timer");
  if (!root) return;
  var FULL = parseInt(root.getAttribute("data-seconds"), 10) * 1000;
  var KEY = root.getAttribute("data-key");
  var SEATS = C.data(root, "data-seats");
  var FIRST = parseInt(root.getAttribute("data-first"), 10);
  var T = C.data(root, "data-i18n");
  var tap = $("#timer-tap"), clock = $("#timer-clock"), action = $("#timer-action");
  var now = $("#timer-now"), next = $("#timer-next"), end = $("#timer-end");
  var pause = $("#timer-pause"), reset = $("#timer-reset");
  var seatButtons = C.$$("[data-seat]", root);

  function fresh() {
    return { seats: SEATS, first: FIRST, current: FIRST, status: "idle", left: FULL,
             deadline: null, alerted: false };
  }
  function load() {
    try {
      var s = JSON.parse(localStorage.getItem(KEY) || "null");
      // Another seat order or another starter (a new round of the match): start afresh.
      if (s && JSON.stringify(s.seats) === JSON.stringify(SEATS) && s.first === FIRST &&
          s.current >= 0 && s.current < SEATS.length) return s;
    } catch (e) { /* storage off or damaged: a fresh timer */ }
    return fresh();
  }
  function save() {
    try { localStorage.setItem(KEY, JSON.stringify(state)); } catch (e) { /* storage off */ }
  }
  var state = load();

  function remaining() {
    if (state.status === "running") return Math.max(0, state.deadline - Date.now());
    return state.left;
  }
  function clockText(ms) {
    var s = Math.ceil(ms / 1000);
    var sec = s % 60;
    return Math.floor(s / 60) + ":" + (sec < 10 ? "0" : "") + sec;
  }

  // --- The end: a beep (Web Audio) and a buzz, where the phone allows --------------------
  var audio = null;
  function unlockAudio() {
    // Phones only let a page make a sound after a tap: open the audio on the first one.
    try {
      var A = window.AudioContext || window.webkitAudioContext;
      if (A && !audio) audio = new A();
      if (audio && audio.state === "suspended") audio.resume();
    } catch (e) { audio = null; }
  }
  function beep() {
    if (!audio) return;
    try {
      var t = audio.currentTime;
      [0, 0.3, 0.6].forEach(function (d) {
        var osc = audio.createOscillator(), gain = audio.createGain();
        osc.frequency.value = 880;
        gain.gain.setValueAtTime(0.35, t + d);
        gain.gain.exponentialRampToValueAtTime(0.001, t + d + 0.2);
        osc.connect(gain);
        gain.connect(audio.destination);
        osc.start(t + d);
        osc.stop(t + d + 0.22);
      });
    } catch (e) { /* no sound on this phone */ }
  }
  function buzz() {
    try { if (navigator.vibrate) navigator.vibrate([300, 120, 300, 120, 300]); } catch (e) { }
  }

  // --- Drawing ----------------------------------------------------------------------------
  function draw() {
    var left = remaining();
    var over = state.status === "running" && left === 0;
    var mode = over ? "over" : state.status;
    clock.textContent = clockText(left);
    tap.setAttribute("data-state", mode);
    root.setAttribute("data-state", mode);
    root.classList.toggle("warn", state.status === "running" && !over && left <= 10000);
    now.textContent = C.fill(T.plays, { name: SEATS[state.current] });
    next.textContent = C.fill(T.next, { name: SEATS[(state.current + 1) % SEATS.length] });
    action.textContent = over ? T.pass : state.status === "idle" ? T.start
      : state.status === "paused" ? T.resume : T.pass;
    end.hidden = !over;
    pause.disabled = !(state.status === "paused" || (state.status === "running" && !over));
    pause.textContent = state.status === "paused" ? T.go_on : T.pause;
    seatButtons.forEach(function (b, i) {
      if (i === state.current) b.setAttribute("aria-current", "true");
      else b.removeAttribute("aria-current");
    });
    if (over && !state.alerted) {
      state.alerted = true;
      save();
      beep();
      buzz();
    }
  }

  // --- What a tap does ----------------------------------------------------------------------
  function run(ms) {
    state.status = "running";
    state.deadline = Date.now() + ms;
    state.left = ms;
  }
  function passTurn() {
    state.current = (state.current + 1) % SEATS.length; // clockwise: the next seat (RK-2)
    state.alerted = false;
    run(FULL);
  }
  tap.addEventListener("click", function () {
    unlockAudio();
    if (state.status === "idle") { state.alerted = false; run(state.left); }
    else if (state.status === "paused") run(state.left);
    else passTurn();
    save();
    draw();
  });
  pause.addEventListener("click", function () {
    unlockAudio();
    if (state.status === "running" && remaining() > 0) {
      state.left = remaining();
      state.status = "paused";
      state.deadline = null;
    } else if (state.status === "paused") {
      run(state.left);
    }
    save();
    draw();
  });
  function idle(seat) {
    state.current = seat;
    state.status = "idle";
    state.left = FULL;
    state.deadline = null;
    state.alerted = false;
    save();
    draw();
  }
  reset.addEventListener("click", function () { idle(FIRST); });
  seatButtons.forEach(function (b) {
    b.addEventListener("click", function () { idle(parseInt(b.getAttribute("data-seat"), 10)); });
  });

  draw();
  setInterval(draw, 200);
  // A phone wakes a hidden page's timers late: draw at once when it is shown again.
  document.addEventListener("visibilitychange", draw);
})();
