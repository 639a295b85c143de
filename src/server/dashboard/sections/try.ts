import type { Context } from "hono";
import type { Config } from "../../../config/load.js";
import { checkInputFields } from "../../../engine/check-message-fields.js";
import type { ChatMessage } from "../../../engine/conversation/messages.js";
import { InputError, UsageError } from "../../../errors.js";
import type { Encoder } from "../../../models/encoder.js";
import { DEFAULT_MESSAGE_CHARS, overLimit } from "../../../text/length.js";
import { normalizeText } from "../../../text/normalize.js";
import { notice } from "../html.js";
import type { DashboardEnv, RenderPage, Section } from "../section.js";
import { configProblems, refusalLines } from "./shared.js";
import { createTryConfig, type TryConfig } from "./try-config.js";
import { type TryForm, type TryResult, tryBody } from "./try-view.js";

const EMPTY: TryForm = { mode: "input", message: "", prompt: "" };

async function page(
  c: Context<DashboardEnv>,
  render: RenderPage,
  tryConfig: TryConfig,
  input: TryForm,
  extra: { result?: TryResult; refused?: string[] } = {},
) {
  let config: Config | undefined;
  let problems: string[] | undefined = extra.refused;
  try {
    config = await tryConfig.config();
  } catch (error) {
    problems = refusalLines(error);
  }
  const profiles = config ? [...config.profiles.values()] : [];
  const body = tryBody({
    csrf: c.get("csrfToken"),
    profiles,
    input: { ...input, profile: input.profile ?? config?.defaultProfile?.name ?? profiles[0]?.name },
    ...(extra.result ? { result: extra.result } : {}),
    ...(problems ? { problems: extra.refused ? notice("error", problems) : configProblems(problems) } : {}),
  });
  return render(c, { title: "Try it", section: "try", body, ...(extra.refused ? { status: 422 } : {}) });
}

/** Why a text is refused before it is checked: the server's limit (it answers 413), said in words. */
function tooLong(form: TryForm): string | undefined {
  for (const [field, text] of [
    ["text", form.message],
    ["prompt", form.prompt],
  ] as const) {
    const over = overLimit(text, DEFAULT_MESSAGE_CHARS);
    if (over)
      return `The ${field} is longer than ${DEFAULT_MESSAGE_CHARS} characters${over === "normalized" ? " after Unicode normalization" : ""}: the server refuses it with 413.`;
  }
  return undefined;
}

/** The conversation a Try it form holds as JSON, checked as the server checks `messages`. */
function conversationOf(json: string): readonly ChatMessage[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (error) {
    throw new UsageError(`The conversation is not JSON: ${(error as Error).message}`);
  }
  try {
    const fields = checkInputFields({ messages: raw }, DEFAULT_MESSAGE_CHARS);
    return "messages" in fields ? fields.messages : [];
  } catch (error) {
    // The server's 400 and 413 words, shown as the form's refusal.
    if (error instanceof InputError) throw new UsageError(`The conversation is refused: ${error.message}`);
    throw error;
  }
}

/**
 * Try it: one text through a profile, as the server would check it, with the spec's body, the
 * guardrails that fired and why, and the matched spans marked. The encoder, when given, is the
 * CLI's shared one: loaded on the first check whose profile needs it.
 */
export function createTrySection(options: { readonly encoder?: () => Promise<Encoder> } = {}): Section {
  return {
    id: "try",
    label: "Try it",
    path: "/try",
    register(app, deps, render) {
      const tryConfig = createTryConfig(deps, options.encoder);
      app.get("/try", (c) => page(c, render, tryConfig, EMPTY));
      app.post("/try", async (c) => {
        const body = await c.req.parseBody();
        const text = (name: string) => (typeof body[name] === "string" ? (body[name] as string) : "");
        const chosen = text("mode");
        const mode = chosen === "output" || chosen === "messages" ? chosen : "input";
        const input: TryForm = {
          mode,
          profile: text("profile"),
          message: text("message"),
          prompt: text("prompt"),
        };
        const refused = tooLong(input);
        if (refused) return page(c, render, tryConfig, input, { refused: [refused] });
        try {
          const messages = mode === "messages" ? conversationOf(input.message) : undefined;
          const { compiled, engine } = await tryConfig.profile(input.profile ?? "");
          const prompt = mode === "output" && input.prompt !== "" ? input.prompt : undefined;
          const outcome = messages
            ? await engine.checkMessages(messages, compiled)
            : await engine.check(mode === "output" ? "output" : "input", input.message, compiled, prompt);
          const result = { outcome, profile: compiled.profile, clean: normalizeText(input.message).clean };
          return page(c, render, tryConfig, input, { result });
        } catch (error) {
          return page(c, render, tryConfig, input, { refused: refusalLines(error) });
        }
      });
    },
  };
}
