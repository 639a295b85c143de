import type { Profile } from "../../../config/profile.js";
import type { MessageResult } from "../../../engine/conversation/message-results.js";
import { describeEntry, entryFlagged } from "../../../engine/describe-check.js";
import type { CheckOutcome } from "../../../engine/engine.js";
import type { CheckMode, GuardrailId } from "../../../guardrails/types.js";
import { csrfField, fragment, type Html } from "../html.js";
import { highlight, type LabelledSpan } from "./highlight.js";

/** What Try it checks: a prompt, a response, or a conversation (a JSON messages array, input-check). */
export type TryMode = CheckMode | "messages";

export interface TryForm {
  readonly mode: TryMode;
  readonly profile?: string;
  readonly message: string;
  readonly prompt: string;
}

export interface TryResult {
  readonly outcome: CheckOutcome;
  readonly profile: Profile;
  /** The message as the guardrails read it (normalised): the spans index into it. */
  readonly clean: string;
}

const checked = (on: boolean) => (on ? fragment` checked` : "");

function form(csrf: string, profiles: readonly Profile[], input: TryForm): Html {
  const options = profiles.map(
    (p) =>
      fragment`<option value="${p.name}"${p.name === input.profile ? fragment` selected` : ""}>${p.name}${p.isDefault ? " (default)" : ""}</option>`,
  );
  return fragment`<form method="post" action="/try">${csrfField(csrf)}
<fieldset class="field"><legend>Check</legend>
<label><input type="radio" name="mode" value="input"${checked(input.mode === "input")}> a prompt (input-check)</label>
<label><input type="radio" name="mode" value="output"${checked(input.mode === "output")}> a response (output-check)</label>
<label><input type="radio" name="mode" value="messages"${checked(input.mode === "messages")}> a conversation: a JSON array of chat messages (input-check)</label>
</fieldset>
<div class="field"><label for="try-profile">Security profile</label>
<select id="try-profile" name="profile">${options}</select></div>
<div class="field"><label for="try-message">Text to check <span class="hint">(the prompt, the model's response, or the conversation's JSON)</span></label>
<textarea id="try-message" name="message" required>${input.message}</textarea></div>
<div class="field"><label for="try-prompt">Prompt the response answers <span class="hint">(output-check only; optional)</span></label>
<textarea id="try-prompt" name="prompt">${input.prompt}</textarea></div>
<button type="submit" class="primary">Check</button></form>`;
}

function rows(result: TryResult): Html[] {
  const { outcome, profile } = result;
  return Object.entries(outcome.body.checks)
    .filter(([, entry]) => entry.enabled === true)
    .map(([id, entry]) => {
      const failure = outcome.failures.find((f) => f.guardrail === id);
      if (failure) {
        const effect = profile.onError === "block" ? "counted as flagged" : "ignored";
        return fragment`<tr><th scope="row">${id}</th><td class="flagged">error</td><td>${failure.error.message} (on_error: ${profile.onError}, ${effect})</td></tr>`;
      }
      const flagged = entryFlagged(entry) ?? outcome.flaggedBy.includes(id as GuardrailId);
      const why = describeEntry(entry) || (flagged ? "" : "nothing found");
      return fragment`<tr><th scope="row">${id}</th><td class="${flagged ? "flagged" : "clean"}">${flagged ? "flagged" : "clean"}</td><td>${why}</td></tr>`;
    });
}

/** A conversation's verdict per message (input-check's `messages`). */
function messageRows(result: TryResult): Html {
  const { body } = result.outcome;
  if (!("messages" in body) || !Array.isArray(body.messages)) return fragment``;
  const rows = (body.messages as MessageResult[]).map((m) => {
    const what = !m.scanned
      ? "not scanned"
      : m.flagged_by.length
        ? `flagged by ${m.flagged_by.join(", ")}`
        : "clean";
    const css = m.flagged_by.length ? "flagged" : "clean";
    return fragment`<tr><th scope="row">${String(m.index)}</th><td>${m.role}</td><td class="${css}">${what}</td></tr>`;
  });
  return fragment`<h3>Messages</h3>
<table><thead><tr><th scope="col">Message</th><th scope="col">Role</th><th scope="col">Result</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function resultOf(result: TryResult, tried: TryMode): Html {
  const mode: CheckMode = tried === "output" ? "output" : "input";
  const { outcome, profile, clean } = result;
  const flagged = outcome.body.injection_detected;
  const spans: LabelledSpan[] = Object.entries(outcome.spans ?? {}).flatMap(([guardrail, list]) =>
    (list ?? []).map((span) => ({ ...span, guardrail })),
  );
  const by = outcome.flaggedBy.length ? ` by ${outcome.flaggedBy.join(", ")}` : "";
  const table = rows(result);
  return fragment`<section aria-labelledby="result-title" id="result">
<h2 id="result-title">Result</h2>
<p class="verdict ${flagged ? "flagged" : "allowed"}" role="status">${flagged ? "FLAGGED" : "ALLOWED"}${by}</p>
<p class="hint">${mode}-check with profile ${profile.name}; on_error: ${profile.onError}.</p>
${table.length ? fragment`<table><thead><tr><th scope="col">Guardrail</th><th scope="col">Result</th><th scope="col">Why</th></tr></thead><tbody>${table}</tbody></table>` : fragment`<p>No guardrail of this profile applies to ${mode}-check.</p>`}
${messageRows(result)}
<h3>The text as the guardrails read it${spans.length ? ", matches marked" : ""}</h3>
<pre class="checked-text">${highlight(clean, spans)}</pre>
<h3>Response body</h3>
<p class="hint">Exactly what <code>POST /apikey/api/guardrail/v1/${mode}-check</code> answers (HTTP 200) for this text and profile.</p>
<pre><code id="response-body">${JSON.stringify(outcome.body, null, 2)}</code></pre>
</section>`;
}

export interface TryView {
  readonly csrf: string;
  readonly profiles: readonly Profile[];
  readonly input: TryForm;
  readonly result?: TryResult;
  readonly problems?: Html;
}

export function tryBody(view: TryView): string {
  return String(fragment`${view.problems ?? ""}<p class="hint">Runs the same engine as <code>guardrail serve</code>
on the config directory's current files. Nothing is stored or logged.</p>
${form(view.csrf, view.profiles, view.input)}
${view.result ? resultOf(view.result, view.input.mode) : ""}`);
}
