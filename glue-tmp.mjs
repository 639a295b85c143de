// Main-thread glue of a full check, without the encoder: vectors served from a cache filled first.
// node [--cpu-prof] glue.mjs ROOT input|output
import { parse } from "yaml";
const [root, mode] = process.argv.slice(2);
const dist = (p) => import(`${root}/dist/${p}`);
const { createPooledEncoder } = await dist("models/use-lite/encoder-pool.js");
const { withVectorCache } = await dist("models/vector-cache.js");
const { createEngine } = await dist("engine/engine.js");
const { compileProfile } = await dist("engine/compile.js");
const { parseProfile } = await dist("config/profile.js");
const { builtinGuardrails } = await dist("guardrails/registry.js");
const { readFileSync } = await import("node:fs");
const texts = JSON.parse(readFileSync("/tmp/glue/texts.json", "utf8"));
const bundled = parse(readFileSync(`${root}/profiles/default.yaml`, "utf8"));
const both = ({ applies_to: _, ...r }) => r;
const g = bundled.guardrails;
const raw = mode === "input"
  ? { name: "in", guardrails: { llm: { enabled: true }, vector: { enabled: true }, keyword: both(g.keyword), regex: both(g.regex), pii: g.pii } }
  : { name: "out", guardrails: { content_moderation: { enabled: true }, keyword: both(g.keyword), regex: both(g.regex), pii: g.pii, system_prompt_protection: { enabled: true, system_prompt: texts.system, canaries: [texts.canary] } } };
const profile = parseProfile(raw, { file: "/tmp/glue/p.yaml", stem: "p" }, builtinGuardrails);
if (profile.problems) throw new Error(profile.problems.join("\n"));
const inner = createPooledEncoder({ workers: 1, autoBuild: false });
const encoder = withVectorCache(inner, 100000);
const compiled = await compileProfile(profile, builtinGuardrails, encoder);
const engine = createEngine({ registry: builtinGuardrails, encoder });
const list = mode === "input" ? texts.input : texts.output;
const run = async () => { for (const t of list) await engine.check(mode, t.message, compiled, t.prompt); };
await run(); await run(); // fills the cache, warms the JIT
const n = 15;
const { Session } = await import("node:inspector/promises");
const prof = process.env.PROF ? new Session() : undefined;
if (prof) { prof.connect(); await prof.post("Profiler.enable"); await prof.post("Profiler.setSamplingInterval", { interval: 200 }); await prof.post("Profiler.start"); }
const cpu = process.cpuUsage();
for (let i = 0; i < n; i++) await run();
const u = process.cpuUsage(cpu);
if (prof) { const { profile } = await prof.post("Profiler.stop"); (await import("node:fs")).writeFileSync(process.env.PROF, JSON.stringify(profile)); }
console.log(mode, ((u.user + u.system) / 1000 / (n * list.length)).toFixed(3), "ms CPU per check without the encoder");
await inner.close();
