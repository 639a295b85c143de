// The encoder's own CPU time for a list of request texts (bench/lib/encoder-cpu.ts starts this in
// a child process, one or two at a time). Plain JS over the built dist/ of the checkout whose
// server is measured: the same encoder code and options the server's workers run (USE-lite, one
// intra-op thread, in-thread session), and what an INPUT-ALL check embeds of the same clean text:
// its windows, and its sentence pieces when it has more than one window (engine/embedding.ts).
// Through the server's vector cache, as there: a window without the request's reference (the first
// of a two-window text) is embedded once. Only `embed` is timed, one call for the windows and one for the pieces as the server makes them:
// tokenising for the model, the session runs, the vectors. Windowing, normalising and everything
// else a check does are not.
// With `output`, the texts are responses and what OUTPUT-ALL embeds of each is timed instead: its
// windows (content_moderation, through the cache) and system_prompt_protection's sentences of the raw
// response (detector/sentences.js, straight to the encoder as the guardrail sends them), the
// windows' CPU also on its own.
// Usage: node encoder-cpu-child.mjs ROOT TEXTS.json [fp32|int8] [input|output]; prints one JSON line.
import { readFileSync } from "node:fs";

const [root, textsFile, precision = "fp32", mode = "input"] = process.argv.slice(2);
const dist = (path) => import(new URL(`dist/${path}`, new URL(`file://${root}/`)).href);
const { createUseLiteEncoder } = await dist("models/use-lite/encoder.js");
const { normalizeText } = await dist("text/normalize.js");
const { splitIntoWindows } = await dist("text/windows.js");
const { pieceWindows } = await dist("engine/embedding.js");
const { withVectorCache } = await dist("models/vector-cache.js");
const { sentences } = await dist("guardrails/system-prompt-protection/detector/sentences.js");

const encoder = createUseLiteEncoder({ autoBuild: false, precision });
await encoder.load();
const texts = JSON.parse(readFileSync(textsFile, "utf8"));
const count = (t) => encoder.countTokens(t);
const tokenEnds = { tokenEnds: (t) => encoder.tokenEnds(t) };
// The detector's caps (semantic.ts): at most 64 sentences of a response.
const RESPONSE_SENTENCES = 64;
const units = texts.map((raw) => {
  const text = normalizeText(raw).clean;
  const windows = splitIntoWindows(text, count, tokenEnds);
  const second =
    mode === "output"
      ? sentences(raw, RESPONSE_SENTENCES)
      : pieceWindows(text, windows, count, tokenEnds).map((w) => w.text);
  return [windows.map((w) => w.text), second];
});
// What reached the model past the cache, counted after the warm-up.
let embedded = 0;
const counting = {
  ...encoder,
  embed: (list) => {
    embedded += list.length;
    return encoder.embed(list);
  },
};
const cached = withVectorCache(counting);
// The windows' CPU alone, summed over the timed texts.
let windowsCpu = 0;
const embedAll = async ([windows, second]) => {
  const before = process.cpuUsage();
  await cached.embed(windows);
  const used = process.cpuUsage(before);
  windowsCpu += (used.user + used.system) / 1000;
  if (second.length > 0) await (mode === "output" ? counting : cached).embed(second);
};

// Warm-up on the first 20 texts, timed on the others (timed again, the warm-up's own texts would
// all come from the cache): the first runs of a session allocate its arena and pick kernels, and
// the cache then holds what the server's warm-up requests left in its own.
// The server is measured once warm (bench:full --warmup), so the encoder is too: its tokenizer is
// JavaScript that V8 compiles after many calls. Ten more passes over the warm-up texts go straight
// to the encoder (past the cache), uncounted.
const WARM_UP = 20;
for (const unit of units.slice(0, WARM_UP)) await embedAll(unit);
for (let pass = 0; pass < 10; pass++)
  for (const [windows, second] of units.slice(0, WARM_UP)) await encoder.embed([...windows, ...second]);
embedded = 0;
windowsCpu = 0;
const timed = units.slice(WARM_UP);
const cpu = process.cpuUsage();
const started = performance.now();
for (const unit of timed) await embedAll(unit);
const used = process.cpuUsage(cpu);
const wallMs = performance.now() - started;
const cpuMs = (used.user + used.system) / 1000;
await encoder.close();
process.stdout.write(
  `${JSON.stringify({ texts: timed.length, embedded, cpuMs, windowsCpuMs: windowsCpu, wallMs })}\n`,
);
