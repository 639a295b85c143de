import { readdir, readFile } from "node:fs/promises";
import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { BatchOptions } from "../../src/cli/commands/batch.js";
import type { CheckOptions } from "../../src/cli/commands/check.js";
import type { ServeOptions } from "../../src/cli/commands/serve.js";
import { declareCommands } from "../../src/cli/program.js";
import { cli } from "./helpers.js";

/** Parses `argv` with the real declarations and an action that runs nothing; the leaf's options. */
async function parsed(argv: string[], depth = 1): Promise<Record<string, unknown>> {
  const program = declareCommands(new Command("guardrail").exitOverride(), async () => {});
  await program.parseAsync(argv, { from: "user" });
  let command: CommandUnknownOpts = program;
  for (const name of argv.slice(0, depth)) {
    const next = command.commands.find((c) => c.name() === name);
    if (!next) throw new Error(`no command ${name}`);
    command = next;
  }
  return command.opts();
}

describe("each command's flags", () => {
  it("are parsed as they come in: numbers are numbers, with the declared defaults", async () => {
    expect(
      await parsed(["batch", "d.csv", "--target-fpr", "0.05", "--max-fpr", "0.1", "--concurrency", "0"]),
    ).toEqual({
      mode: "input",
      tolerance: 0.01,
      writeMaxFpr: 0.1,
      targetFpr: 0.05,
      maxFpr: 0.1,
      concurrency: 0,
    });
    expect(
      await parsed(["batch", "d.csv", "--mode", "output", "--tolerance", "0.2", "--junit-rows"]),
    ).toEqual({ mode: "output", tolerance: 0.2, writeMaxFpr: 0.1, junitRows: true });
    expect(await parsed(["batch", "d.csv", "--target-recall", "1", "--junit-rows", "5"])).toMatchObject({
      targetRecall: 1,
      junitRows: 5,
    });
    expect(await parsed(["serve", "--port", "0", "--body-limit", "10"])).toEqual({
      host: "127.0.0.1",
      port: 0,
      bodyLimit: 10,
    });
    expect(await parsed(["check", "--max-message-chars", "7", "hi"])).toEqual({ maxMessageChars: 7 });
    expect(await parsed(["index", "build", "--force"], 2)).toEqual({ force: true });
  });

  it("have types inferred from their declarations", () => {
    expectTypeOf<BatchOptions["mode"]>().toEqualTypeOf<"input" | "output">();
    expectTypeOf<BatchOptions["tolerance"]>().toEqualTypeOf<number>();
    expectTypeOf<BatchOptions["targetFpr"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<BatchOptions["maxFpr"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<BatchOptions["junitRows"]>().toEqualTypeOf<number | true | undefined>();
    expectTypeOf<ServeOptions["port"]>().toEqualTypeOf<number>();
    expectTypeOf<CheckOptions["maxMessageChars"]>().toEqualTypeOf<number | undefined>();
  });

  // The messages and exit codes these flags had when the commands parsed them after commander.
  it.each([
    [["batch", "d.csv", "--target-fpr", "2"], "error: --target-fpr must be a number from 0 to 1\n"],
    [["batch", "d.csv", "--target-recall", "abc"], "error: --target-recall must be a number from 0 to 1\n"],
    [["batch", "d.csv", "--tolerance", "x"], "error: --tolerance must be a number from 0 to 1\n"],
    [["batch", "d.csv", "--max-fpr", "2"], 'error: --max-fpr: "2" is not a number from 0 to 1\n'],
    [["batch", "d.csv", "--mode", "x"], "error: --mode must be input or output\n"],
    [
      ["batch", "d.csv", "--concurrency", "x"],
      "error: option '--concurrency <n>' argument 'x' is invalid. --concurrency must be a whole number from 0 to 256\n(add --help for usage)\n",
    ],
    [
      ["check", "--max-message-chars", "0", "hi"],
      "error: option '--max-message-chars <n>' argument '0' is invalid. --max-message-chars must be a whole number from 1 to 9007199254740991\n(add --help for usage)\n",
    ],
    [
      ["serve", "--port", "99999"],
      "error: option '--port <port>' argument '99999' is invalid. --port must be a whole number from 0 to 65535\n(add --help for usage)\n",
    ],
  ])("%j: exit 2 with the same message as before", async (argv, stderr) => {
    expect(await cli(argv)).toEqual({ code: 2, stdout: "", stderr });
  });

  it("are declared in light modules that import their action only when it runs", async () => {
    // `check` must not load the server, and nothing but `batch` on a terminal may load ink.
    const dir = new URL("../../src/cli/commands/", import.meta.url);
    const light = ["@commander-js/extra-typings", "../declare.js", "../flag-parsers.js"];
    for (const file of await readdir(dir)) {
      const source = await readFile(new URL(file, dir), "utf8");
      const imports = [...source.matchAll(/^import (?!type )[^;]*? from "([^"]+)";/gm)].map((m) => m[1]);
      expect(
        // Another command module is held to the same rule by this loop.
        imports.filter((spec) => !light.includes(spec ?? "") && !spec?.startsWith("./")),
        file,
      ).toEqual([]);
    }
  });
});
