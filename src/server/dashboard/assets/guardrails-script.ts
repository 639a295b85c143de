/**
 * The Guardrails form's script, served at /assets/guardrails.js (assets.ts; the CSP
 * allows no inline script; a TypeScript module, so tsc ships it in dist/ with the code).
 * Progressive enhancement only: the form works without it, and a save checks every rule again.
 * - A regex rule is checked while it is typed, with the server's RE2 and the loader's messages
 *   (POST /guardrails/validate-regex, X-CSRF-Token from the form's data-csrf), shown in the row's
 *   `role="alert"` element and tied to the pattern input by aria-describedby.
 * - "Add a rule" copies the last, empty row, its names and ids renumbered.
 * Plain ES2020, sent as is, never compiled. String.raw keeps its backslashes; it has no backticks.
 */
export const GUARDRAILS_JS = String.raw`"use strict";
(function () {
  var form = document.getElementById("profile-form");
  if (!form) return;
  var csrf = form.getAttribute("data-csrf") || "";
  var endpoint = form.getAttribute("data-validate-regex") || "/guardrails/validate-regex";
  var timers = new WeakMap();
  var field = function (row, name) {
    return row.querySelector('[data-regex-field="' + name + '"]');
  };

  var check = function (row) {
    var value = function (name) { var input = field(row, name); return input ? input.value : ""; };
    var live = row.querySelector("[data-regex-live]");
    var pattern = field(row, "pattern");
    if (!live || !pattern) return Promise.resolve();
    if (value("pattern") === "" && value("name") === "") {
      live.textContent = "";
      pattern.removeAttribute("aria-invalid");
      return Promise.resolve();
    }
    return fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", "x-csrf-token": csrf },
      body: JSON.stringify({ name: value("name"), pattern: value("pattern"), flags: value("flags") }),
    }).then(function (res) {
      if (!res.ok) return;
      return res.json().then(function (answer) {
        live.textContent = answer.errors.map(function (e) {
          return e.field === "pattern" ? e.message : e.field + ": " + e.message;
        }).join("\n");
        if (answer.valid) pattern.removeAttribute("aria-invalid");
        else pattern.setAttribute("aria-invalid", "true");
        // The last save's message about this rule is stale once the rule is checked again.
        var saved = document.getElementById(pattern.id + "-error");
        if (saved) saved.hidden = true;
        var ids = (pattern.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
        if (ids.indexOf(live.id) < 0) ids.push(live.id);
        pattern.setAttribute("aria-describedby", ids.join(" "));
      });
    });
  };

  form.addEventListener("input", function (event) {
    var target = event.target instanceof Element ? event.target : null;
    var row = target && target.closest("[data-regex-row]");
    if (!row || !target.hasAttribute("data-regex-field")) return;
    clearTimeout(timers.get(row));
    timers.set(row, setTimeout(function () { check(row).catch(function () {}); }, 250));
  });

  var add = document.getElementById("regex-add");
  if (!add) return;
  add.hidden = false;
  add.addEventListener("click", function () {
    var rows = form.querySelectorAll("[data-regex-row]");
    var last = rows[rows.length - 1];
    if (!last) return;
    var n = rows.length;
    var copy = last.cloneNode(true);
    copy.setAttribute("data-regex-row", String(n));
    copy.querySelector("legend").textContent = "Rule " + (n + 1);
    copy.querySelectorAll("[id], [name], [for], [aria-describedby]").forEach(function (el) {
      ["id", "name", "for", "aria-describedby"].forEach(function (attr) {
        var v = el.getAttribute(attr);
        if (v) el.setAttribute(attr, v.replace(/(patterns[.-])\d+/g, "$1" + n));
      });
      if (el.matches("input")) { el.value = ""; el.removeAttribute("aria-invalid"); }
    });
    copy.querySelectorAll("[data-regex-live], .field-error").forEach(function (el) { el.textContent = ""; });
    last.after(copy);
    var name = field(copy, "name");
    if (name) name.focus();
  });
})();
`;
