import { type Command, InvalidArgumentError } from "commander";
import type { CliContext } from "./context.js";

/** Runs one command against the context built from the parsed global flags. */
export type Execute = (command: Command, run: (ctx: CliContext) => Promise<number>) => Promise<void>;

const EXIT_CODES = `
Exit codes: 0 ran and nothing was flagged, 1 flagged, 2 usage, config or internal error.
Config directory: --config DIR, else $GUARDRAIL_CONFIG, else ./guardrail when it exists.`;

function integer(name: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) {
      throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}`);
    }
    return n;
  };
}

// Each action imports its command module only when it runs: `check` never loads the server.
const commands = {
  check: () => import("./actions/check.js"),
  batch: () => import("./actions/batch.js"),
  serve: () => import("./actions/serve.js"),
  keys: () => import("./actions/keys.js"),
  apps: () => import("./actions/apps.js"),
  profiles: () => import("./actions/profiles.js"),
  init: () => import("./actions/init.js"),
  index: () => import("./actions/index-build.js"),
};

/** Declares every command and flag; `program` comes configured (output, exit override, version). */
export function declareCommands(program: Command, execute: Execute): Command {
  program
    .option("--config <dir>", "config directory (profiles/, apps.yaml, keys.yaml)")
    .option("--json", "print machine-readable JSON on stdout")
    .addHelpText("after", EXIT_CODES);

  program
    .command("check")
    .description("check one text (a prompt, or with --output a model response) and print the verdict")
    .argument("[text]", "the text; read from stdin when absent or -")
    .option("--output", "run output-check on a model response instead of input-check")
    .option("--prompt <text>", "with --output: the prompt that produced the response")
    .option("--profile <name>", "use this security profile instead of the default one")
    .option("--app <app-id>", "use the profile bound to this app")
    .option(
      "--max-message-chars <n>",
      "refuse a longer text or prompt, as the server does (default 100000)",
      integer("--max-message-chars", 1),
    )
    .addHelpText("after", `\nExample: guardrail check "$PROMPT" || exit 1\n${EXIT_CODES}`)
    .action((text: string | undefined, opts, cmd: Command) =>
      execute(cmd, async (ctx) => (await commands.check()).runCheck({ ...opts, text }, ctx)),
    );

  program
    .command("batch")
    .description(
      "evaluate a profile on a labelled data set (CSV, TSV, JSONL): metrics, threshold tuning, CI gates",
    )
    .argument("<file>", "the data set; - reads stdin")
    .option("--mode <mode>", "input (prompts) or output (responses)", "input")
    .option("--profile <name>", "use this security profile instead of the default one")
    .option("--app <app-id>", "use the profile bound to this app")
    .option("--format <format>", "csv, tsv or jsonl (default: by extension, else sniffed)")
    .option(
      "--text-column <name>",
      "column with the text (auto: text, prompt, message, …; output: response, …)",
    )
    .option(
      "--label-column <name>",
      "column with the expected verdict (auto: label, expected, is_injection, flagged)",
    )
    .option(
      "--prompt-column <name>",
      "with --mode output: column with the prompt (auto: prompt, input, question)",
    )
    .option("--category-column <name>", "column to break the metrics down by (auto: category)")
    .option("--skip-invalid", "skip and count bad rows instead of stopping before the run")
    .option(
      "--max-message-chars <n>",
      "a longer text or prompt is a bad row, as the server refuses it (default 100000)",
      integer("--max-message-chars", 1),
    )
    .option("--out <file>", "write per-row results (.csv or .jsonl)")
    .option(
      "--concurrency <n>",
      "worker threads (0: run on the main thread)",
      integer("--concurrency", 0, 256),
    )
    .option(
      "--batch-size <n>",
      "rows a worker evaluates together (the encoder embeds them in one call)",
      integer("--batch-size", 1, 10000),
    )
    .option("--sweep", "print a threshold table per score-bearing guardrail")
    .option("--target-fpr <x>", "recommend per guardrail the threshold with the best recall at FPR <= x")
    .option("--target-recall <x>", "recommend per guardrail the threshold with the lowest FPR at recall >= x")
    .option("--write-profile", "write the recommended thresholds into the profile's YAML and print the diff")
    .option("--fail-under <gates>", "exit 1 unless the metrics reach these, e.g. f1=0.9,recall=0.95")
    .option("--max-fpr <x>", "exit 1 when the false-positive rate is above x")
    .option("--baseline <file>", "a saved --json summary: exit 1 when a gated metric got worse")
    .option("--tolerance <x>", "how much worse than --baseline a metric may get", "0.01")
    .option("--junit <file>", "write a JUnit XML report (one test case per gate)")
    .option(
      "--junit-rows [n]",
      "also add up to n misclassified rows to the JUnit report (default 1000)",
      integer("--junit-rows", 1),
    )
    .option(
      "--report <file>",
      "write a self-contained HTML report: curves, histograms, confusion matrix, worst mistakes",
    )
    .option("--quiet", "no progress lines")
    .addHelpText(
      "after",
      `\nExample: guardrail batch prompts.csv --fail-under f1=0.9 --max-fpr 0.02 --junit junit.xml
Exit codes: 0 ran and met every gate, 1 a gate failed, 2 usage, config or data error (or interrupted).`,
    )
    .action((file: string, opts, cmd: Command) =>
      execute(cmd, async (ctx) => (await commands.batch()).runBatch({ ...opts, file }, ctx)),
    );

  program
    .command("serve")
    .description("serve input-check and output-check over HTTP (needs a config directory)")
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--port <port>", "port to listen on; 0 picks a free one", integer("--port", 0, 65535), 8080)
    .option("--body-limit <bytes>", "largest request body accepted", integer("--body-limit", 1))
    .option(
      "--max-message-chars <n>",
      "longest message and prompt accepted",
      integer("--max-message-chars", 1),
    )
    .option(
      "--max-connections <n>",
      "open connections at most; past it new ones are refused (default 1024)",
      integer("--max-connections", 1),
    )
    .action((opts, cmd: Command) =>
      execute(cmd, async (ctx) => (await commands.serve()).runServe(opts, ctx)),
    );

  const keys = program.command("keys").description("create, list and revoke organization API keys");
  keys
    .command("create")
    .description("create an API key and print it once; only its SHA-256 is stored")
    .option("--label <label>", "a note on where the key is used (e.g. production)")
    .option("--replace <key-id>", "revoke this key in the same write (a lost or leaked key)")
    .action((opts, cmd: Command) =>
      execute(cmd, async (ctx) => (await commands.keys()).runKeysCreate(opts, ctx)),
    );
  keys
    .command("list")
    .description("list keys: id, label, created, active or revoked (never the key or its hash)")
    .action((_opts, cmd: Command) => execute(cmd, async (ctx) => (await commands.keys()).runKeysList(ctx)));
  keys
    .command("revoke")
    .description("revoke a key; requests using it get 401")
    .argument("<key-id>")
    .action((id: string, _opts, cmd: Command) =>
      execute(cmd, async (ctx) => (await commands.keys()).runKeysRevoke(id, ctx)),
    );

  const apps = program.command("apps").description("manage apps (App IDs) and their security profiles");
  apps
    .command("create")
    .description("create an app bound to a profile and print its generated App ID")
    .argument("<name>")
    .requiredOption("--profile <name>", "the security profile the app uses")
    .action((name: string, opts, cmd: Command) =>
      execute(cmd, async (ctx) =>
        (await commands.apps()).runAppsCreate({ name, profile: opts.profile }, ctx),
      ),
    );
  apps
    .command("list")
    .description("list apps; App IDs are masked unless --reveal")
    .option("--reveal", "show App IDs in full")
    .action((opts, cmd: Command) =>
      execute(cmd, async (ctx) => (await commands.apps()).runAppsList(opts, ctx)),
    );
  apps
    .command("bind")
    .description("bind an app to another security profile")
    .argument("<app-id>")
    .requiredOption("--profile <name>", "the security profile")
    .action((id: string, opts, cmd: Command) =>
      execute(cmd, async (ctx) => (await commands.apps()).runAppsBind({ id, profile: opts.profile }, ctx)),
    );
  apps
    .command("delete")
    .description("delete an app; requests with its App ID get 404")
    .argument("<app-id>")
    .action((id: string, _opts, cmd: Command) =>
      execute(cmd, async (ctx) => (await commands.apps()).runAppsDelete(id, ctx)),
    );

  const profiles = program.command("profiles").description("inspect and validate security profiles");
  profiles
    .command("list")
    .description("list profiles: name, default marker, enabled guardrails, file")
    .action((_opts, cmd: Command) =>
      execute(cmd, async (ctx) => (await commands.profiles()).runProfilesList(ctx)),
    );
  profiles
    .command("show")
    .description("print a profile's effective settings (the default profile when NAME is absent)")
    .argument("[name]")
    .action((name: string | undefined, _opts, cmd: Command) =>
      execute(cmd, async (ctx) => (await commands.profiles()).runProfilesShow(name, ctx)),
    );
  profiles
    .command("validate")
    .description("validate the config directory (or the bundled profiles) and list every problem")
    .action((_opts, cmd: Command) =>
      execute(cmd, async (ctx) => (await commands.profiles()).runProfilesValidate(ctx)),
    );

  program
    .command("init")
    .description("create a config directory: the default profile and an empty apps.yaml")
    .argument("[dir]", "where to create it (default: --config, $GUARDRAIL_CONFIG, else ./guardrail)")
    .option("--force", "rewrite profiles/default.yaml and apps.yaml of an existing config (keys are kept)")
    .action((dir: string | undefined, opts, cmd: Command) =>
      execute(cmd, async (ctx) => (await commands.init()).runInit({ ...opts, dir }, ctx)),
    );
  program
    .command("index")
    .description("manage the vector guardrail's similarity indexes")
    .command("build")
    .description(
      "rebuild the bundled index of known attacks and each profile's own corpora (stale ones only)",
    )
    .option("--profile <name>", "only this profile's corpora (the bundled index is always checked)")
    .option("--force", "rebuild even indexes that are current")
    .action((opts, cmd: Command) =>
      execute(cmd, async (ctx) => (await commands.index()).runIndexBuild(opts, ctx)),
    );
  return program;
}
