// Online table, a seat's page (no inline script: CSP). htmx swaps #seat on every poll or move;
// this file keeps what lives across swaps: the turn alert in the tab's title, the optional beep
// (on by default, switched off with the page's switch and kept so in localStorage), the countdown to the next deal, the selected count.
(function () {
  "use strict";

  var SOUND_KEY = "shengji.online.sound";
  var baseTitle = document.title;
  var alerted = null; // the state token of the last turn announced
  var audio = null;
  var ticker = null;

  // A refused move (409: the game moved on; 422: not allowed) comes back with the seat's fresh
  // partial and the reason: show it instead of ignoring the answer.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    if ((status === 409 || status === 422) && event.detail.target && event.detail.target.id === "seat") {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  function tokenIn(html) {
    var m = /<section id="seat"[^>]*\sdata-token="([^"]*)"/.exec(html || "");
    return m ? m[1] : null;
  }
  function shownToken() {
    var seat = document.getElementById("seat");
    return seat ? seat.dataset.token : null;
  }
  // A pushed seat that is not newer than the one shown is not swapped in. A move's answer and
  // the stream both bring the state after the move, in either order; swapping the same state
  // in a second time would clear the cards being picked for the next play, and a button
  // pressed on the replaced copy would lose its answer (htmx drops an answer whose form is
  // gone). An older push would put the table back in time.
  document.addEventListener("htmx:sseBeforeMessage", function (event) {
    var data = event.detail && event.detail.data;
    var incoming = tokenIn(data);
    if (!incoming || !document.getElementById("seat")) return;
    var shown = shownToken();
    if (incoming === shown || window.liveStateOrder(incoming, shown) < 0) event.preventDefault();
  });

  function soundOn() {
    try {
      return window.localStorage.getItem(SOUND_KEY) !== "0"; // on unless switched off
    } catch (e) {
      return true;
    }
  }

  // A browser plays sound only after a gesture on the page: the first tap (choosing a card,
  // any button) wakes the audio, silently, so the next turn can be heard.
  function unlock() {
    document.removeEventListener("pointerdown", unlock, true);
    document.removeEventListener("keydown", unlock, true);
    if (!soundOn()) return;
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    if (!audio) audio = new Ctx();
    if (audio.state === "suspended") audio.resume();
  }
  document.addEventListener("pointerdown", unlock, true);
  document.addEventListener("keydown", unlock, true);

  function beep() {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    if (!audio) audio = new Ctx();
    if (audio.state === "suspended") audio.resume();
    var now = audio.currentTime;
    [0, 0.18].forEach(function (delay, i) {
      var osc = audio.createOscillator();
      var gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = i ? 1175 : 880;
      gain.gain.setValueAtTime(0.0001, now + delay);
      gain.gain.exponentialRampToValueAtTime(0.25, now + delay + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + delay + 0.16);
      osc.connect(gain);
      gain.connect(audio.destination);
      osc.start(now + delay);
      osc.stop(now + delay + 0.18);
    });
  }

  function turnAlert() {
    var seat = document.getElementById("seat");
    if (!seat) return;
    var mine = seat.dataset.myTurn === "1";
    document.title = mine ? (seat.dataset.turnTitle || "●") + " · " + baseTitle : baseTitle;
    // every state in which this seat must act is a new turn (only its own move changes the
    // state then; a refused move comes back with the same token and does not beep again)
    if (mine && seat.dataset.token !== alerted) {
      alerted = seat.dataset.token;
      if (soundOn()) beep();
    }
  }

  function countdown() {
    if (ticker) {
      window.clearInterval(ticker);
      ticker = null;
    }
    var shown = document.querySelector("#seat [data-countdown]");
    var form = document.getElementById("next-form");
    if (!shown || !form) return;
    var left = parseInt(shown.dataset.countdown, 10) || 0;
    var sent = false;
    function tick() {
      if (!shown.isConnected) {
        window.clearInterval(ticker);
        ticker = null;
        return;
      }
      shown.textContent = String(Math.max(left, 0));
      if (left <= 0 && !sent) {
        sent = true; // the server checks that the pause has really passed
        form.requestSubmit();
      }
      left -= 1;
    }
    tick();
    ticker = window.setInterval(tick, 1000);
  }

  // the move clock: the waited seat's seconds, counted down here; at 0 the page asks the server,
  // whose clock decides (a bot makes the move if the time has really run out)
  var clockTicker = null;
  function moveClock() {
    if (clockTicker) {
      window.clearInterval(clockTicker);
      clockTicker = null;
    }
    var shown = document.querySelector("#seat [data-move-clock]");
    var form = document.getElementById("clock-form");
    if (!shown || !form) return;
    var left = parseInt(shown.dataset.moveClock, 10) || 0;
    var sent = false;
    function tick() {
      if (!shown.isConnected) {
        window.clearInterval(clockTicker);
        clockTicker = null;
        return;
      }
      shown.textContent = String(Math.max(left, 0));
      if (left <= 0 && !sent) {
        sent = true;
        form.requestSubmit();
      }
      left -= 1;
    }
    tick();
    clockTicker = window.setInterval(tick, 1000);
  }

  function selectedCount() {
    var form = document.querySelector("#seat .hand-form");
    if (!form) return;
    var out = form.querySelector("[data-selected-count]");
    var need = form.querySelector("[data-need]"); // the kitty's size, or the lead's
    var n = form.querySelectorAll('input[name="cards"]:checked').length;
    if (!out) return;
    if (need) out.textContent = n + "/" + need.getAttribute("data-need");
    else out.textContent = n ? String(n) : "";
  }

  document.addEventListener("change", function (event) {
    var t = event.target;
    if (t && t.id === "sound-toggle") {
      try {
        window.localStorage.setItem(SOUND_KEY, t.checked ? "1" : "0");
      } catch (e) {
        /* private mode: the toggle works for this page only */
      }
      if (t.checked) beep(); // a tap is the gesture a browser needs before it plays sound
      return;
    }
    if (t && t.name === "cards") selectedCount();
  });

  // a refusal just swapped in is brought into view (it stands by the button that was pressed)
  function showRefusal() {
    var alert = document.querySelector("#errors [role=alert]");
    if (alert && alert.scrollIntoView) alert.scrollIntoView({ block: "nearest" });
  }

  // a failed throw is brought into view once, when it first appears: the thrower is looking at
  // the hand below it and must learn which card the throw was cut to
  var throwSeen = null;
  function showFailedThrow() {
    var note = document.getElementById("failed-throw");
    var text = note ? note.textContent : null;
    if (note && text !== throwSeen && note.scrollIntoView) note.scrollIntoView({ block: "nearest" });
    throwSeen = text;
  }

  function refresh() {
    showRefusal();
    showFailedThrow();
    turnAlert();
    countdown();
    moveClock();
    selectedCount();
  }

  document.addEventListener("htmx:afterSettle", refresh);
  document.addEventListener("DOMContentLoaded", function () {
    var toggle = document.getElementById("sound-toggle");
    if (toggle) toggle.checked = soundOn();
    refresh();
  });
})();
