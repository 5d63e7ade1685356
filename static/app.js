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
// After a form comes back with errors (full page or htmx swap), put the cursor on the first
// field that needs fixing, so a director on a phone sees the message and can retype at once.
function focusFirstError() {
  var bad = document.querySelector('main [aria-invalid="true"]');
  if (bad && document.activeElement !== bad) {
    bad.focus();
    if (bad.scrollIntoView) bad.scrollIntoView({ block: "center" });
  }
}
document.addEventListener("DOMContentLoaded", focusFirstError);
document.addEventListener("htmx:afterSettle", focusFirstError);
