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
// field that needs fixing, so a director on a phone sees the message and can retype at once;
// a refusal of the whole form (the sheet changed since it was opened) is brought into view.
function focusFirstError() {
  var bad = document.querySelector('main [aria-invalid="true"]');
  if (bad && document.activeElement !== bad) {
    bad.focus();
    if (bad.scrollIntoView) bad.scrollIntoView({ block: "center" });
    return;
  }
  var refusal = bad ? null : document.querySelector("main .form-error[role=alert]");
  if (refusal && refusal.scrollIntoView) {
    var box = refusal.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) refusal.scrollIntoView({ block: "center" });
  }
}
document.addEventListener("DOMContentLoaded", focusFirstError);
document.addEventListener("htmx:afterSettle", focusFirstError);
// Copy buttons (hidden without JavaScript: the field beside them can be selected and copied by
// hand): data-copy names the field, data-copied is the word shown for a moment after copying.
function showCopyButtons() {
  document.querySelectorAll("button[data-copy]").forEach(function (b) { b.hidden = false; });
}
document.addEventListener("DOMContentLoaded", showCopyButtons);
document.addEventListener("htmx:afterSettle", showCopyButtons);
document.addEventListener("click", function (event) {
  var button = event.target.closest ? event.target.closest("button[data-copy]") : null;
  if (!button) return;
  var field = document.getElementById(button.dataset.copy);
  if (!field) return;
  var label = button.textContent;
  function done() {
    if (!button.dataset.copied) return;
    button.textContent = button.dataset.copied;
    window.setTimeout(function () { button.textContent = label; }, 1500);
  }
  function fallback() {
    field.focus();
    field.select();
    try { if (document.execCommand("copy")) done(); } catch (e) { /* the text stays selected */ }
  }
  if (navigator.clipboard && navigator.clipboard.writeText) {
    navigator.clipboard.writeText(field.value).then(done, fallback);
  } else {
    fallback();
  }
});
