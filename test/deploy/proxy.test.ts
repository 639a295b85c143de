import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { readPage } from "../docs/markdown.js";
import { type Manifest, only, readManifests } from "../helpers/manifests.js";
import { parseCli } from "../helpers/serve-flags.js";

// docs/operations.md "Running the proxy": its docker command and its kustomize patch, checked
// against the manifests and the CLI they configure (no docker or cluster here).

const page = readPage("docs/operations.md");
const section = page.slice(page.indexOf("### Running the proxy"), page.indexOf("### Metrics"));
const container = only(readManifests(), "Deployment").spec.template.spec.containers[0];

describe("docs/operations.md: running the proxy", () => {
  it("runs the image's proxy on the port its HEALTHCHECK probes, with flags the CLI accepts", async () => {
    const command = /docker run [^\n]*\\\n\s*(proxy [^\n]*)/.exec(section)?.[1] ?? "";
    const args = command.split(/\s+/);
    const { options } = await parseCli(args);
    expect(args[0]).toBe("proxy");
    expect(options).toMatchObject({ upstream: "https://api.openai.com/v1", host: "0.0.0.0", port: 8080 });
  });

  it("patches the Deployment's container into a proxy on its port, with its config mount", async () => {
    const yaml = /```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
    const kustomization = parse(yaml);
    expect(kustomization.kind).toBe("Kustomization");
    const [{ target, patch }] = kustomization.patches;
    expect(target).toEqual({ kind: "Deployment", name: "guardrail" });
    const [op] = parse(patch) as { op: string; path: string; value: string[] }[];
    expect(op?.op).toBe("replace");
    // The path names the first container's args, which the Deployment has.
    expect(op?.path).toBe("/spec/template/spec/containers/0/args");
    expect(container.args).toBeDefined();
    const { global, options } = await parseCli(op?.value ?? []);
    expect(op?.value[0]).toBe("proxy");
    expect(options).toMatchObject({ host: "0.0.0.0", port: container.ports[0].containerPort });
    expect(global.config).toBe(container.volumeMounts.find((m: Manifest) => m.name === "config").mountPath);
  });
});
