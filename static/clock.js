// The round clock of a match by time (定时): the server renders the seconds left and whether the
// clock runs; this counts them down between two looks at the server (the page's polling or a
// reload brings the server's own figure back, so a drift never lasts). No inline scripts (CSP).
(function () {
  function show(el, left) {
    var s = Math.max(0, Math.round(left));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    var pad = function (n) { return (n < 10 ? "0" : "") + n; };
    var face = el.querySelector(".clock-face");
    if (face) face.textContent = h ? h + ":" + pad(m) + ":" + pad(r) : m + ":" + pad(r);
    if (s === 0) el.classList.add("clock-over");
  }
  function start(el) {
    if (el.dataset.clockStarted) return;
    el.dataset.clockStarted = "1";
    var left = parseInt(el.dataset.remaining || "0", 10);
    if (el.dataset.running !== "1") return;
    var end = Date.now() + left * 1000;
    var timer = window.setInterval(function () {
      if (!document.body.contains(el)) { window.clearInterval(timer); return; }
      var now = (end - Date.now()) / 1000;
      show(el, now);
      if (now <= 0) window.clearInterval(timer);
    }, 250);
  }
  function all() { document.querySelectorAll(".round-clock[data-remaining]").forEach(start); }
  document.addEventListener("DOMContentLoaded", all);
  document.addEventListener("htmx:afterSettle", all);
})();
