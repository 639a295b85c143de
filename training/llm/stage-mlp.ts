import type { Mlp } from "../../src/guardrails/llm/mlp.js";
import { mlpLogit } from "../../src/guardrails/llm/mlp.js";
import type { NgramMax } from "../../src/guardrails/llm/ngram-scorer.js";
import { hashRange } from "../../src/text/hash.js";
import type { Embedded } from "./embed.js";
import { dataInputOf, type Example, isData } from "./example.js";
import { type MlpOptions, trainMlp } from "./mlp-train.js";
import { type Stacked, stackExample, trainingRows } from "./stack.js";

type Scorer = (folded: string) => NgramMax;

/**
 * Trains the MLP on the training split. The n-gram inputs of a training window come from an
 * n-gram model that did not see its family (`scorerForFold`, k-fold by family), so the MLP learns
 * how far to trust the n-grams on unseen text, not on memorised text. Early stopping watches the
 * calibration split (family-disjoint from training), with the shipped n-gram model's inputs.
 */
export function trainStage(
  train: Example[],
  embedded: Embedded[],
  valid: { examples: Example[]; embedded: Embedded[]; scorer: Scorer },
  family: (e: Example) => string,
  folds: number,
  scorerForFold: (fold: number) => Scorer,
  options: MlpOptions,
  log: (m: string) => void,
  members = 1,
): { mlp: Mlp; epochs: number } {
  const foldOf = (e: Example) => hashRange(options.seed + 17, family(e), 0, family(e).length) % folds;
  const scorers = Array.from({ length: folds }, (_, k) => scorerForFold(k));
  const data = (e: Example) => dataInputOf(e, options.dataInput);
  const stacked = train.map((e, i) =>
    stackExample(e, embedded[i] as Embedded, scorers[foldOf(e)] as Scorer, data(e)),
  );
  const fit = trainingRows(train, embedded, stacked, options.seed);
  if (options.dataInput) {
    // Each document is seen a second time as "not known to be data" (0), as a single `message`
    // arrives, so the input can only add what the context says; each prompt attack a second time
    // as data (1), since an instruction to the assistant pasted into a web page is still one.
    // With dataCopies "prompts", benign prompts too: otherwise the input learns that any short
    // request inside data is an attack (round 2 flagged 98% of TaskTracker's trivia questions
    // sent as tool results).
    const copied = (e: Example) => isData(e) || e.label === 1 || options.dataCopies === "prompts";
    const again = train.flatMap((e, i) => (copied(e) ? [i] : []));
    const flipped = again.map((i) => {
      const e = train[i] as Example;
      return stackExample(e, embedded[i] as Embedded, scorers[foldOf(e)] as Scorer, isData(e) ? 0 : 1);
    });
    fit.push(
      ...trainingRows(
        again.map((i) => train[i] as Example),
        again.map((i) => embedded[i] as Embedded),
        flipped,
        options.seed + 1,
      ),
    );
  }
  const held = trainingRows(
    valid.examples,
    valid.embedded,
    valid.examples.map((e, i) => stackExample(e, valid.embedded[i] as Embedded, valid.scorer, data(e))),
    options.seed,
  );
  log(`MLP rows: ${fit.length} train, ${held.length} early-stopping (calibration split)`);
  // An ensemble of `members` networks that differ only in initialisation, dropout masks and
  // shuffles (same rows, same folds); their logits are averaged, i.e. one wider network.
  const nets = Array.from({ length: members }, (_, k) =>
    trainMlp(fit, held, { ...options, seed: options.seed + 7919 * k }, log),
  );
  const epochs = nets.map((n) => n.epochs);
  if (members > 1) log(`ensemble of ${members}: epochs ${epochs.join(", ")}`);
  return { mlp: averageMlps(nets.map((n) => n.mlp)), epochs: Math.max(...epochs) };
}

/**
 * The average of several networks' logits as one network: hidden layers side by side, output
 * weights divided by the count, biases averaged. Exact, so the runtime needs no ensemble code.
 */
export function averageMlps(nets: Mlp[]): Mlp {
  if (nets.length === 1) return nets[0] as Mlp;
  const first = nets[0] as Mlp;
  const hidden = nets.reduce((n, m) => n + m.hidden, 0);
  const w1 = new Float32Array(hidden * first.input);
  const b1 = new Float32Array(hidden);
  const w2 = new Float32Array(hidden);
  let [offset, b2] = [0, 0];
  for (const m of nets) {
    if (m.input !== first.input) throw new Error("averageMlps: input sizes differ");
    w1.set(m.w1, offset * first.input);
    b1.set(m.b1, offset);
    for (let h = 0; h < m.hidden; h++) w2[offset + h] = (m.w2[h] as number) / nets.length;
    b2 += m.b2 / nets.length;
    offset += m.hidden;
  }
  return { input: first.input, hidden, w1, b1, w2, b2 };
}

/** The raw score of an example: the maximum MLP logit over its windows (the bias if none). */
export function maxWindowLogit(mlp: Mlp, s: Stacked): number {
  let z = Number.NEGATIVE_INFINITY;
  for (const x of s.inputs) z = Math.max(z, mlpLogit(mlp, x));
  return Number.isFinite(z) ? z : mlp.b2;
}
