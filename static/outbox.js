// The outbox: a score-sheet entry typed while the venue's Wi-Fi drops is kept in this browser
// (localStorage) and sent when the connection returns. No framework; works with htmx forms.
//
// A form opts in with data-outbox and the words to show, translated by the server:
//   <form hx-post="…" hx-target="#sheet" data-outbox data-outbox-pending="Not sent yet…">
// When htmx cannot send it (htmx:sendError: no network) the form's fields are saved under the
// form's URL and a "not sent yet" notice is shown; the entry is sent again on the browser's
// "online" event, every few seconds, and when the page is opened again. The server's answer
// (the fresh sheet, or the sheet with an error) replaces the target like an htmx swap. A
// request that did reach the server before the connection dropped is refused the second time
// by the sheet's "seen" version, so an entry is never recorded twice, and never lost.
(function () {
  "use strict";
  var PREFIX = "shengji-outbox:";
  var RETRY_MS = 4000;
  var timer = null;

  function storage() {
    try { return window.localStorage; } catch (e) { return null; }
  }

  function keyOf(url) { return PREFIX + url; }

  function formFor(url) {
    var forms = document.querySelectorAll("form[data-outbox]");
    for (var i = 0; i < forms.length; i++) {
      if ((forms[i].getAttribute("hx-post") || forms[i].getAttribute("action")) === url) return forms[i];
    }
    return null;
  }

  function showPending(form, on) {
    if (!form) return;
    var note = form.querySelector(".outbox-pending");
    if (on && !note) {
      note = document.createElement("p");
      note.className = "notice outbox-pending";
      note.setAttribute("role", "status");
      note.textContent = form.getAttribute("data-outbox-pending") || "Not sent yet";
      form.insertBefore(note, form.firstChild);
    } else if (!on && note) {
      note.remove();
    }
  }

  function save(form) {
    var store = storage();
    if (!store) return;
    var url = form.getAttribute("hx-post") || form.getAttribute("action");
    var body = new URLSearchParams(new FormData(form)).toString();
    store.setItem(keyOf(url), JSON.stringify({
      url: url,
      body: body,
      target: form.getAttribute("hx-target") || "",
      saved: Date.now()
    }));
    showPending(form, true);
    schedule();
  }

  function pendingItems() {
    var store = storage();
    var items = [];
    if (!store) return items;
    for (var i = 0; i < store.length; i++) {
      var k = store.key(i);
      if (k && k.indexOf(PREFIX) === 0) {
        try { items.push(JSON.parse(store.getItem(k))); } catch (e) { store.removeItem(k); }
      }
    }
    return items;
  }

  function csrfToken() {
    var raw = document.body && document.body.getAttribute("hx-headers");
    try { return raw ? JSON.parse(raw)["X-CSRFToken"] : ""; } catch (e) { return ""; }
  }

  function swapInto(selector, html) {
    var old = selector ? document.querySelector(selector) : null;
    if (!old) { window.location.reload(); return; }
    var box = document.createElement("div");
    box.innerHTML = html;
    var fresh = box.firstElementChild;
    if (!fresh) return;
    old.replaceWith(fresh);
    if (window.htmx) window.htmx.process(fresh);
  }

  function send(item) {
    return fetch(item.url, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "HX-Request": "true",
        "X-CSRFToken": csrfToken()
      },
      body: item.body
    }).then(function (response) {
      if (response.status >= 500) return false; // the server is not ready yet: keep it
      return response.text().then(function (html) {
        var store = storage();
        if (store) store.removeItem(keyOf(item.url));
        showPending(formFor(item.url), false);
        if (formFor(item.url) || (item.target && document.querySelector(item.target))) {
          swapInto(item.target, html);
        }
        return true;
      });
    }, function () { return false; }); // still offline
  }

  function flush() {
    timer = null;
    var items = pendingItems();
    if (!items.length) return;
    var chain = Promise.resolve();
    items.forEach(function (item) {
      showPending(formFor(item.url), true);
      chain = chain.then(function () { return send(item); });
    });
    chain.then(function () { if (pendingItems().length) schedule(); });
  }

  function schedule() {
    if (timer === null) timer = window.setTimeout(flush, RETRY_MS);
  }

  document.addEventListener("htmx:sendError", function (event) {
    var form = event.detail && event.detail.elt;
    if (form && form.closest) form = form.closest("form[data-outbox]");
    if (form) save(form);
  });
  // A form submitted while the browser already knows it is offline never reaches htmx's send.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.matches && form.matches("form[data-outbox]") && navigator.onLine === false) {
      event.preventDefault();
      event.stopImmediatePropagation();
      save(form);
    }
  }, true);
  window.addEventListener("online", flush);
  document.addEventListener("DOMContentLoaded", function () {
    if (pendingItems().length) flush();
  });
})();
