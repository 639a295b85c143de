/**
 * The dashboard's only script, served from /assets/ (the CSP allows no inline script). Plain
 * progressive enhancement, delegated from the document so it needs no ids wired at load:
 * - `button[data-copy=ID]` copies the text of #ID (a key shown once) to the clipboard;
 * - `button[data-reveal=ID]` swaps #ID between its `data-masked` and `data-full` text (App IDs).
 * Buttons are real <button>s, so Enter and Space work as a click does. Written as plain ES2020:
 * it is sent as is, never compiled.
 */
export const DASHBOARD_JS = `"use strict";
document.addEventListener("click", function (event) {
  var target = event.target instanceof Element ? event.target : null;
  var copy = target && target.closest("button[data-copy]");
  if (copy) {
    var source = document.getElementById(copy.getAttribute("data-copy"));
    var status = document.getElementById(copy.getAttribute("data-status"));
    var say = function (text) { if (status) status.textContent = text; };
    if (!source) return;
    navigator.clipboard.writeText(source.textContent || "").then(
      function () { say("Copied to the clipboard."); },
      function () {
        var range = document.createRange();
        range.selectNodeContents(source);
        var selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        say("Copying was not allowed: the key is selected, press Ctrl+C (or Cmd+C).");
      }
    );
    return;
  }
  var reveal = target && target.closest("button[data-reveal]");
  if (reveal) {
    var code = document.getElementById(reveal.getAttribute("data-reveal"));
    if (!code) return;
    var shown = reveal.getAttribute("data-shown") === "true";
    code.textContent = shown ? code.getAttribute("data-masked") : code.getAttribute("data-full");
    reveal.setAttribute("data-shown", String(!shown));
    reveal.textContent = shown ? "Reveal" : "Hide";
    reveal.setAttribute("aria-label", (shown ? "Reveal" : "Hide") + " " + reveal.getAttribute("data-what"));
  }
});
`;
