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

  // A state token of an online table (app/services/online/tokens.py):
  // "<deal>.<version>[.s<seats>][p]"; the three numbers only grow, so they order two states.
  function parts(token) {
    var m = /^(\d+)\.(\d+)(?:\.s(\d+))?p?$/.exec(token || "");
    return m ? [+m[1], +m[2], +(m[3] || 0)] : null;
  }
  // < 0: ``a`` is older than ``b``; 0: the same numbers (or either unknown); > 0: newer
  function order(a, b) {
    var x = parts(a), y = parts(b);
    if (!x || !y) return 0;
    for (var i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
    return 0;
  }
  window.liveStateOrder = order; // static/online.js orders the seat's pushed states with it

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

  // A request made from inside a part whose stream is open says so: the server may then answer
  // it empty (204) and let the stream bring the change, which it pushes to this page anyway.
  document.addEventListener("htmx:configRequest", function (event) {
    var w = wrapper(event.detail && event.detail.elt);
    if (w && w.dataset.streaming && event.detail.verb !== "get") {
      event.detail.headers["X-Live-Stream"] = "open";
    }
  });
  // …and if the stream does not bring it within 2 s (a connection that died unnoticed), the
  // part is asked for once, as its poll would.
  document.addEventListener("htmx:afterRequest", function (event) {
    var d = event.detail;
    if (!d || !d.xhr || d.xhr.status !== 204 || !d.requestConfig) return;
    if (d.requestConfig.verb === "get") return;
    var w = wrapper(d.elt) || wrapper(d.target);
    var part = w && w.querySelector("[hx-trigger^='every ']");
    if (!part) return;
    var made = d.xhr.getResponseHeader("X-Live-State"); // the state the request made
    if (!made) return;
    window.setTimeout(function () {
      var now = w.querySelector("[hx-trigger^='every ']");
      // the stream has brought that state, or a later one (tokens only grow)
      if (!now || !now.isConnected || !window.htmx) return;
      var at = now.getAttribute("data-token") || "";
      if (at !== made && order(at, made) <= 0) {
        window.htmx.ajax("GET", now.getAttribute("hx-get"), { target: now, swap: "outerHTML" });
      }
    }, 2000);
  });

  // requests that fail (no network) say so; the first answer that arrives hides it again
  document.addEventListener("htmx:sendError", function () { connection(false); });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail && event.detail.xhr && event.detail.xhr.status) connection(true);
  });
  window.addEventListener("offline", function () { connection(false); });
  window.addEventListener("online", function () { connection(true); });
})();
