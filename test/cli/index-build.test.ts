import { copyFile, mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runIndexBuild } from "../../src/cli/actions/index-build.js";
import type { IndexBuildOptions } from "../../src/cli/commands/index-build.js";
import { createUseLiteEncoder } from "../../src/models/use-lite/index.js";
import { cli, context, initDir } from "./helpers.js";

const encoder = createUseLiteEncoder();
afterAll(() => encoder.close());
const fixture = (name: string) =>
  fileURLToPath(new URL(`../guardrails/vector/fixtures/${name}`, import.meta.url));

/** A config dir whose `attacks` profile names its own corpus, and a stand-in for the bundled one. */
async function setup() {
  const config = await initDir();
  await copyFile(fixture("attacks.txt"), join(config, "profiles", "attacks.txt"));
  await writeFile(
    join(config, "profiles", "attacks.yaml"),
    "guardrails:\n  vector:\n    enabled: false\n    corpora: [attacks.txt]\n",
  );
  const dir = await mkdtemp(join(tmpdir(), "guardrail-index-"));
  const paths = { corpusFile: join(dir, "known.jsonl"), indexDir: join(dir, "index") };
  await copyFile(fixture("attacks.jsonl"), paths.corpusFile);
  const asked: (string | undefined)[] = [];
  const run = (options: IndexBuildOptions, json = false) => {
    const { ctx, output } = context({ config, json });
    const lend = async (precision?: string) => {
      asked.push(precision);
      return encoder;
    };
    return runIndexBuild(options, { ...ctx, encoder: lend }, paths).then((code) => ({
      code,
      ...output(),
    }));
  };
  return { config, paths, run, asked };
}

describe("guardrail index build", () => {
  it("builds the bundled index and each profile's corpora, then finds them current", async () => {
    const { config, run } = await setup();
    const first = await run({});
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^bundled +\S+index\.bin +2 rows +rebuilt/m);
    expect(first.stdout).toMatch(/^profile attacks +\S+\.index\/[0-9a-f]{16}\.bin +2 rows +rebuilt/m);
    expect((await readdir(join(config, ".index"))).sort()).toEqual([
      expect.stringMatching(/^[0-9a-f]{16}\.bin$/),
      expect.stringMatching(/^[0-9a-f]{16}\.json$/),
    ]);
    const again = JSON.parse((await run({ profile: "attacks" }, true)).stdout);
    expect(again.indexes.map((i: { index: string; status: string }) => [i.index, i.status])).toEqual([
      ["bundled", "current"],
      ["profile attacks", "current"],
    ]);
    expect((await run({ force: true })).stdout).not.toContain("current");
  });

  it("builds with the fp32 encoder whatever precision the checks run at (int8 serves an fp32 index as is)", async () => {
    const { run, asked } = await setup();
    expect((await run({})).code).toBe(0);
    expect(asked).toEqual(["fp32"]);
  });

  it("refuses an unknown profile, and a corpus that does not parse names the profile and file", async () => {
    const { config, run } = await setup();
    await expect(run({ profile: "nope" })).rejects.toThrow('unknown profile "nope"');
    await writeFile(join(config, "profiles", "attacks.txt"), "");
    await expect(run({ profile: "attacks" })).rejects.toThrow(
      /attacks\.yaml: guardrails\.vector\.corpora\[0\]: \S+attacks\.txt: holds no attacks/,
    );
  });

  it("is declared with --profile and --force", async () => {
    const help = await cli(["index", "build", "--help"]);
    expect(help.stdout).toContain("--profile <name>");
    expect(help.stdout).toContain("--force");
  });
});
