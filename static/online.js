// Online table: a refused move (409: the game moved on; 422: not allowed) comes back with the
// seat's fresh partial and the reason; show it instead of ignoring the answer. No inline script.
document.addEventListener("htmx:beforeSwap", function (event) {
  var status = event.detail.xhr.status;
  if ((status === 409 || status === 422) && event.detail.target && event.detail.target.id === "seat") {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});
