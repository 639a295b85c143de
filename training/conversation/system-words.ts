/**
 * Issue 23's "the system prompt's own words are never flagged", measured: real system prompts
 * (RaccoonBench's custom GPTs, the chatgpt_system_prompt collection, fabric's patterns) sent through
 * the library's input-check two ways — as the `system` message of a conversation whose user asks
 * something ordinary, and as a user turn (which every guardrail judges as it judges a single
 * `message`) — on a bundled profile. Prints the share of each set flagged and by which guardrails.
 *
 *   npx tsx training/conversation/system-words.ts [--profile default] [--limit N]
 */
import { join } from "node:path";
import { createGuardrail } from "../../src/index.js";
import { flag, parseFlags } from "../lib/flags.js";
import { runMain, timedLog } from "../lib/main.js";
import { SHARED_DATASETS } from "../lib/paths.js";
import { fabricPatterns } from "../llm/sources-round4.js";
import { loadSystemPrompts } from "../system-prompt-protection/load-prompts.js";

const USAGE = "npx tsx training/conversation/system-words.ts [flags]";
const FLAGS = {
  data: flag.path(SHARED_DATASETS, "the shared data sets"),
  profile: flag.string("default", "a bundled profile, or a profile YAML file"),
  limit: flag.integer(0, "at most this many prompts of each set (0: all)", { min: 0 }),
};

const MAX_CHARS = 12_000;
const QUESTION = "Can you help me plan three days in Lisbon on a small budget?";
const WAYS = ["system", "user turn"] as const;
type Way = (typeof WAYS)[number];

async function main(argv: string[]): Promise<void> {
  const flags = parseFlags(USAGE, FLAGS, argv);
  const log = timedLog();
  const take = <T>(xs: T[]) => (flags.limit > 0 ? xs.slice(0, flags.limit) : xs);
  const prompts = loadSystemPrompts(join(flags.data, "leakage"));
  const sets: Record<string, string[]> = {
    raccoonbench: take(prompts.filter((p) => p.source === "raccoonbench").map((p) => p.text)),
    chatgpt_system_prompt: take(
      prompts.filter((p) => p.source === "chatgpt_system_prompt").map((p) => p.text),
    ),
    // Cut as loadSystemPrompts cuts the others (one fabric pattern is longer than a request may be).
    "fabric-patterns": take(fabricPatterns(join(flags.data, "injection")).map((t) => t.slice(0, MAX_CHARS))),
  };
  const guard = await createGuardrail({ profile: flags.profile });
  const check = async (way: Way, text: string): Promise<string[]> => {
    const messages =
      way === "system"
        ? [
            { role: "system" as const, content: text },
            { role: "user" as const, content: QUESTION },
          ]
        : [{ role: "user" as const, content: text }];
    const body = await guard.inputCheck({ messages });
    // Which guardrails fired on the prompt's own message (index 0), not on the question.
    return body.messages?.find((m) => m.index === 0)?.flagged_by ?? [];
  };
  console.log(
    `profile ${guard.profile}; the user's question as a system prompt's companion: "${QUESTION}"\n`,
  );
  console.log("| set | prompts | flagged as the system message | flagged as a user turn |");
  console.log("|---|---:|---:|---:|");
  for (const [name, texts] of Object.entries(sets)) {
    const cells: string[] = [];
    for (const way of WAYS) {
      const fired = new Map<string, number>();
      let flagged = 0;
      for (const text of texts) {
        const ids = await check(way, text);
        if (ids.length > 0) flagged++;
        for (const id of ids) fired.set(id, (fired.get(id) ?? 0) + 1);
      }
      const by = [...fired].map(([id, n]) => `${id} ${n}`).join(", ");
      cells.push(`${pct(flagged, texts.length)}${by ? ` (${by})` : ""}`);
    }
    console.log(`| ${name} | ${texts.length} | ${cells.join(" | ")} |`);
    log(`${name} done`);
  }
  await guard.close();
}

const pct = (k: number, n: number) => (n ? `${((100 * k) / n).toFixed(1)}%` : "–");

runMain(import.meta.url, main);
