/**
 * The Guardrails and Reports forms' layout, appended to the dashboard's stylesheet (assets.ts).
 * Colours keep a 4.5:1 contrast on white.
 */
export const SECTIONS_CSS = `fieldset.guardrail { margin: 0 0 1.5rem; padding: 0.75rem 1rem; border: 1px solid #767676; }
fieldset.guardrail > legend { font-weight: 700; font-family: ui-monospace, monospace; }
fieldset.regex-row { margin: 0.5rem 0; border: 1px dashed #767676; }
.field { margin: 0.5rem 0; }
.field > label:not(.check) { display: block; font-weight: 600; }
.field input[type="text"], .field textarea, .field select { width: min(40rem, 100%); }
label.check { display: inline-block; margin-right: 1rem; }
label.check.described { display: block; margin: 0.2rem 0; }
label.check small { color: #4a4a4a; }
.help { margin: 0.25rem 0; color: #4a4a4a; font-size: 0.9rem; }
.field-error { color: #a4001d; white-space: pre-line; }
.field-error:empty { display: none; }
[aria-invalid="true"] { outline: 2px solid #a4001d; }
[aria-invalid="true"]:focus-visible { outline: 3px solid #0a58ca; box-shadow: 0 0 0 5px #a4001d; }
.badge { padding: 0 0.4rem; border: 1px solid #0b5394; border-radius: 0.6rem; color: #0b5394; }
table.figures td { text-align: right; padding: 0 0.75rem; }
`;
