import { EXIT_CODES, type Execute, type OptionsOf, type Parent } from "../declare.js";
import { integer, streamModeFlag } from "../flag-parsers.js";

const declare = (parent: Parent) =>
  parent
    .command("check")
    .description("check one text (a prompt, or with --output a model response) and print the verdict")
    .argument("[text]", "the text; read from stdin when absent or -")
    .option("--output", "run output-check on a model response instead of input-check")
    .option("--prompt <text>", "with --output: the prompt that produced the response")
    .option(
      "--messages <file>",
      "a JSON array of chat messages (OpenAI shape), from FILE or - for stdin: checked instead of a text, or with --output the conversation the response answers",
    )
    .option(
      "--stream",
      "with --output: check stdin chunk by chunk as it arrives and write what passed to stdout; stop at the first flag",
    )
    .option(
      "--stream-mode <mode>",
      "with --stream: chunk (check every chunk before writing it), sentence (whole sentences as checks pass them; the default) or final (write at once, check once at the end)",
      streamModeFlag,
    )
    .option("--profile <name>", "use this security profile instead of the default one")
    .option("--app <app-id>", "use the profile bound to this app")
    .option(
      "--max-message-chars <n>",
      "refuse a longer text or prompt, as the server does (default 100000)",
      integer("--max-message-chars", 1),
    )
    .addHelpText(
      "after",
      `
Examples:
  npx guardrail check "$PROMPT" || exit 1
  npx guardrail check --messages conversation.json
${EXIT_CODES}`,
    );

/** `check`'s flags as parsed, and the text to check (absent or `-`: read stdin). */
export type CheckOptions = OptionsOf<typeof declare> & { readonly text?: string | undefined };

export function declareCheck(parent: Parent, execute: Execute): void {
  declare(parent).action((text, options) =>
    execute(async (ctx) => (await import("../actions/check.js")).runCheck({ ...options, text }, ctx)),
  );
}
