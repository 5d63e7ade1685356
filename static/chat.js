// The table chat (templates/online/_chat.html): a refused message (422: the chat is off, too
// long, names a card) comes back with the chat's partial and the reason: show it.
(function () {
  "use strict";
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (event.detail.xhr.status === 422 && target && target.id === "chat") {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
})();
