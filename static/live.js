// Live pages pushed by server-sent events (htmx's SSE extension, static/htmx-ext-sse.js; no
// inline script: CSP). A wrapper with sse-connect swaps each event in place of its live part;
// while its stream is open, the part's own poll (hx-trigger="every …") is not sent; when the
// stream breaks, the poll goes on, and a page with #connection says "Reconnecting…" after 3 s
// without either.
(function () {
  "use strict";

  function wrapper(elt) {
    return elt && elt.closest ? elt.closest("[sse-connect]") : null;
  }

  function connection(up) {
    var note = document.getElementById("connection");
    if (!note) return;
    note.textContent = note.dataset.offline || "";
    note.hidden = up;
  }

  document.addEventListener("htmx:sseOpen", function (event) {
    var w = wrapper(event.target);
    if (w) w.dataset.streaming = "1";
    connection(true);
  });
  function down(event) {
    var w = wrapper(event.target);
    if (w) delete w.dataset.streaming;
    // a stream the server ended (it does every few minutes) reopens at once: say nothing
    // unless it stays down
    window.setTimeout(function () {
      if (!w || !w.dataset.streaming) connection(false);
    }, 3000);
  }
  document.addEventListener("htmx:sseError", down);
  document.addEventListener("htmx:sseClose", function (event) {
    var w = wrapper(event.target);
    if (w) delete w.dataset.streaming;
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    var w = wrapper(elt);
    var trigger = elt && elt.getAttribute ? elt.getAttribute("hx-trigger") || "" : "";
    if (w && w.dataset.streaming && trigger.indexOf("every ") === 0) {
      event.preventDefault(); // the stream brings the change the poll would ask for
    }
  });

  // requests that fail (no network) say so; the first answer that arrives hides it again
  document.addEventListener("htmx:sendError", function () { connection(false); });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail && event.detail.xhr && event.detail.xhr.status) connection(true);
  });
  window.addEventListener("offline", function () { connection(false); });
  window.addEventListener("online", function () { connection(true); });
})();
