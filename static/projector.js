// The projector view of a season with divisions: one division at a time, each shown for
// data-every seconds, so every division is seen whole at 1920×1080 (without this script all
// the divisions are listed one after the other).
(function () {
  "use strict";
  function start() {
    var box = document.querySelector(".division-pages");
    if (!box) return;
    var pages = box.querySelectorAll(".division-page");
    if (pages.length < 2) return;
    var every = (parseInt(box.getAttribute("data-every"), 10) || 15) * 1000;
    var shown = 0;
    box.classList.add("paged");
    function show(k) {
      for (var i = 0; i < pages.length; i++) pages[i].hidden = i !== k;
    }
    show(shown);
    setInterval(function () {
      shown = (shown + 1) % pages.length;
      show(shown);
    }, every);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
