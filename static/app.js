// Small progressive enhancements; every page works without them. No inline scripts (CSP).
document.addEventListener("submit", function (event) {
  var form = event.target;
  if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
    event.preventDefault();
  }
}, true);
document.addEventListener("focusin", function (event) {
  if (event.target.matches && event.target.matches("input.copy")) event.target.select();
});
