// Guardrails form: checks each regex rule while it is typed, with the server's RE2 and its own
// messages (POST /guardrails/validate-regex), and adds rule rows. The form works without it:
// a save validates every rule again.
const form = document.getElementById("profile-form");
if (form) {
  const csrf = form.dataset.csrf ?? "";
  const endpoint = form.dataset.validateRegex ?? "/guardrails/validate-regex";
  const timers = new WeakMap();

  const check = async (row) => {
    const value = (field) => row.querySelector(`[data-regex-field="${field}"]`)?.value ?? "";
    const live = row.querySelector(".field-error[aria-live]");
    const pattern = row.querySelector('[data-regex-field="pattern"]');
    if (value("pattern") === "" && value("name") === "") {
      live.textContent = "";
      pattern.removeAttribute("aria-invalid");
      return;
    }
    const res = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", "x-csrf-token": csrf },
      body: JSON.stringify({ name: value("name"), pattern: value("pattern"), flags: value("flags") }),
    });
    if (!res.ok) return;
    const answer = await res.json();
    live.textContent = answer.errors
      .map((e) => (e.field === "pattern" ? e.message : `${e.field}: ${e.message}`))
      .join("\n");
    if (answer.valid) pattern.removeAttribute("aria-invalid");
    else pattern.setAttribute("aria-invalid", "true");
    // The last save's message about this rule is stale once the rule is checked again.
    const saved = document.getElementById(`${pattern.id}-error`);
    if (saved) saved.hidden = true;
    const ids = new Set((pattern.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean));
    ids.add(live.id);
    pattern.setAttribute("aria-describedby", [...ids].join(" "));
  };

  form.addEventListener("input", (event) => {
    const row = event.target.closest?.("[data-regex-row]");
    if (!row || !event.target.dataset.regexField) return;
    clearTimeout(timers.get(row));
    timers.set(
      row,
      setTimeout(() => check(row).catch(() => {}), 250),
    );
  });

  // A fresh, empty row copied from the last one, its names and ids renumbered.
  const add = document.getElementById("regex-add");
  if (add) {
    add.hidden = false;
    add.addEventListener("click", () => {
      const rows = form.querySelectorAll("[data-regex-row]");
      const last = rows[rows.length - 1];
      if (!last) return;
      const n = rows.length;
      const copy = last.cloneNode(true);
      copy.dataset.regexRow = String(n);
      copy.querySelector("legend").textContent = `Rule ${n + 1}`;
      for (const el of copy.querySelectorAll("[id], [name], [for], [aria-describedby]")) {
        for (const attr of ["id", "name", "for", "aria-describedby"]) {
          const v = el.getAttribute(attr);
          if (v) el.setAttribute(attr, v.replace(/(patterns[.-])\d+/g, `$1${n}`));
        }
        if (el.matches("input")) el.value = "";
      }
      for (const error of copy.querySelectorAll(".field-error")) error.textContent = "";
      last.after(copy);
      copy.querySelector('[data-regex-field="name"]')?.focus();
    });
  }
}
