import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { resolveConfigDir } from "../../src/config/load.js";
import { root } from "../helpers/built.js";
import { having, npmCiArgs, readDockerfile } from "../helpers/dockerfile.js";
import { parseCli } from "../helpers/serve-flags.js";

// No registry is reachable and docker may not be installed, so the image is never built here:
// these tests check that what the Dockerfile and compose.yaml name exists and means what they say.

const stages = readDockerfile();
const final = stages.at(-1);
const only = (keyword: string) => {
  const found = having(final, keyword);
  expect(found, keyword).toHaveLength(1);
  return found[0] as NonNullable<(typeof found)[0]>;
};
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
  bin: Record<string, string>;
  files: string[];
};
const command = () => [...(only("ENTRYPOINT").exec ?? []), ...(only("CMD").exec ?? [])];

describe("Dockerfile", () => {
  it("builds in stages and runs a final one with production dependencies only, as a non-root user", () => {
    expect(stages.map((s) => s.name)).toEqual(["build", "deps", undefined]);
    expect(npmCiArgs(stages, "deps")).toEqual(expect.arrayContaining(["--omit=dev", "--ignore-scripts"]));
    const copies = having(final, "COPY").map((c) => c.args);
    expect(copies).toContain("--from=deps /app/node_modules ./node_modules");
    expect(copies.some((c) => c.startsWith("--from=build /app/node_modules"))).toBe(false);
    expect(only("USER").args).not.toMatch(/^(root|0)(:|$)/);
  });

  it("copies into the last stage everything the npm package ships (package.json files)", () => {
    const targets = having(final, "COPY").map((c) => (c.args.split(" ").at(-1) ?? "").replace(/^\.\//, ""));
    for (const shipped of pkg.files)
      expect(
        targets.some((t) => shipped === t || shipped.startsWith(`${t}/`)),
        shipped,
      ).toBe(true);
  });

  it("compiles and converts the encoder with the package's own scripts", () => {
    const runs = having(stages[0], "RUN").map((r) => r.args);
    expect(runs).toContain("npm run build && npm run build:models");
    expect(pkg.scripts.prepare).toBe("npm run build && npm run build:models");
  });

  it("copies from the context only files that exist and .dockerignore lets through", () => {
    const allowed = readFileSync(join(root, ".dockerignore"), "utf8")
      .split("\n")
      .filter((l) => l.startsWith("!"))
      .map((l) => l.slice(1).replace(/\/$/, ""));
    const sources = stages
      .flatMap((s) => having(s, "COPY"))
      .filter((c) => !c.args.startsWith("--from"))
      .flatMap((c) => c.args.split(" ").slice(0, -1));
    expect(sources.length).toBeGreaterThan(5);
    for (const source of sources) {
      expect(existsSync(join(root, source)), source).toBe(true);
      expect(allowed, source).toContain(source);
    }
  });

  it("starts the package's bin with node as PID 1 (exec form), serving on the exposed port", async () => {
    const [node, bin, ...args] = command();
    expect(node).toBe("node");
    expect(bin).toBe(pkg.bin.guardrail);
    expect(existsSync(join(root, bin ?? ""))).toBe(true);
    const { options } = await parseCli(args);
    expect(args[0]).toBe("serve");
    expect(options).toMatchObject({ host: "0.0.0.0" });
    expect(String(options.port)).toBe(only("EXPOSE").args);
  });

  it("reads its config from the directory GUARDRAIL_CONFIG names", () => {
    const dir = /GUARDRAIL_CONFIG=(\S+)/.exec(only("ENV").args)?.[1];
    expect(resolveConfigDir(undefined, { GUARDRAIL_CONFIG: dir }, "/app")).toBe("/config");
  });

  it("checks health on /healthz at the served port, with node (the slim image has no curl)", async () => {
    const check = only("HEALTHCHECK").args;
    const { options } = await parseCli(command().slice(2));
    expect(check).toContain(`CMD ["node", "-e", "fetch('http://127.0.0.1:${options.port}/healthz')`);
  });
});

describe("compose.yaml", () => {
  const service = (
    parse(readFileSync(join(root, "compose.yaml"), "utf8")) as {
      services: Record<string, { ports: string[]; volumes: string[]; stop_grace_period: string }>;
    }
  ).services.guardrail;

  it("publishes the container's port and mounts the config where the image reads it", async () => {
    const { options } = await parseCli(command().slice(2));
    expect(service?.ports).toEqual([`127.0.0.1:${options.port}:${options.port}`]);
    expect(service?.volumes).toEqual(["./guardrail:/config:ro"]);
  });

  it("waits longer than the server's 10 s drain before killing it", () => {
    expect(Number.parseInt(service?.stop_grace_period ?? "", 10)).toBeGreaterThan(10);
  });
});
