import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { builtinGuardrails } from "../../src/guardrails/registry.js";
import { root } from "../helpers/built.js";
import { writeKubeVolume } from "../helpers/kube-volume.js";
import { type Manifest, only, readManifests } from "../helpers/manifests.js";
import { parseCli } from "../helpers/serve-flags.js";
import { makeApp, makeConfigDir } from "../server/fixtures.js";

// No cluster here: the manifests are parsed and checked against the code they configure (the
// serve command's flags, its port and health path, the config loader) and against each other.

const manifests = readManifests();
const deployment = only(manifests, "Deployment");
const pod = deployment.spec.template.spec;
const container = pod.containers[0];
const configMap = only(manifests, "ConfigMap");
const secret = only(manifests, "Secret");
const projected = pod.volumes.find((v: Manifest) => v.name === "config").projected;

/** Each projected file (path in the volume) with its content, as the kubelet would write it. */
function volumeFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const source of projected.sources) {
    const [ref, object] = source.secret ? [source.secret, secret] : [source.configMap, configMap];
    expect(ref.name).toBe(object.metadata.name);
    const data = object.stringData ?? object.data;
    for (const item of ref.items) {
      expect(Object.keys(data), `${object.kind} key ${item.key}`).toContain(item.key);
      files[item.path] = data[item.key];
    }
  }
  return files;
}

describe("deploy/kubernetes", () => {
  it("lists every manifest in kustomization.yaml, each a named Kubernetes object", () => {
    const kustomization = only(manifests, "Kustomization");
    const files = manifests.map((m) => m.file).filter((f) => f !== "kustomization.yaml");
    expect([...kustomization.resources].sort()).toEqual([...new Set(files)].sort());
    for (const { file, doc } of manifests.filter((m) => m.file !== "kustomization.yaml")) {
      expect(doc.apiVersion, file).toMatch(/^[a-z.]*\/?v\d/);
      // The workload's objects share one name; the ConfigMap and Secret are named for what they hold.
      if (!["ConfigMap", "Secret"].includes(doc.kind)) expect(doc.metadata.name, file).toBe("guardrail");
    }
  });

  it("runs serve with flags the CLI accepts, on the port it declares, with the config where it is mounted", async () => {
    const { global, options } = await parseCli(container.args);
    expect(container.args[0]).toBe("serve");
    expect(options).toMatchObject({ host: "0.0.0.0", port: container.ports[0].containerPort });
    const mount = container.volumeMounts.find((m: Manifest) => m.name === "config");
    expect(global.config).toBe(mount.mountPath);
    expect(mount.readOnly).toBe(true);
  });

  it("mounts no file by subPath: the kubelet never updates those", () => {
    for (const mount of container.volumeMounts) expect(mount.subPath, mount.name).toBeUndefined();
  });

  it("probes a path the server answers 200 without a key, on the container's named port", async () => {
    const fixture = await makeConfigDir();
    try {
      const { app } = await makeApp(fixture);
      for (const probe of [container.startupProbe, container.readinessProbe, container.livenessProbe]) {
        expect(probe.httpGet.port).toBe(container.ports[0].name);
        expect((await app.request(probe.httpGet.path)).status).toBe(200);
      }
    } finally {
      await fixture.cleanup();
    }
  });

  it("selects the Deployment's pods from the Service, the PodDisruptionBudget and the autoscaler", () => {
    const labels = deployment.spec.template.metadata.labels;
    const matches = (selector: Record<string, string>) =>
      Object.entries(selector).every(([key, value]) => labels[key] === value);
    expect(matches(deployment.spec.selector.matchLabels)).toBe(true);
    expect(matches(only(manifests, "Service").spec.selector)).toBe(true);
    expect(matches(only(manifests, "PodDisruptionBudget").spec.selector.matchLabels)).toBe(true);
    expect(only(manifests, "Service").spec.ports[0].targetPort).toBe(container.ports[0].name);
    const hpa = only(manifests, "HorizontalPodAutoscaler").spec;
    expect(hpa.scaleTargetRef).toMatchObject({ kind: "Deployment", name: deployment.metadata.name });
    expect(hpa.metrics[0].resource.name).toBe("cpu");
    expect(hpa.minReplicas).toBeLessThanOrEqual(deployment.spec.replicas);
  });

  it("gives the pod longer than its preStop pause plus the server's 10 s drain", () => {
    const pause = Number(container.lifecycle.preStop.exec.command[1]);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(pause + 10);
  });

  it("projects every ConfigMap and Secret key, and the bundled profiles unchanged", () => {
    const files = volumeFiles();
    expect(Object.keys(files).length).toBe(
      Object.keys(configMap.data).length + Object.keys(secret.stringData).length,
    );
    for (const name of ["default.yaml", "strict.yaml"])
      expect(files[`profiles/${name}`]).toBe(readFileSync(join(root, "profiles", name), "utf8"));
  });

  it("makes a config directory the server loads, laid out as the kubelet lays it out", async () => {
    const dir = await mkdtemp(join(tmpdir(), "guardrail-manifests-"));
    try {
      await writeKubeVolume(dir, volumeFiles());
      const config = await loadConfig(dir, builtinGuardrails);
      expect([...config.profiles.keys()].sort()).toEqual(["default", "strict"]);
      expect(config.defaultProfile?.name).toBe("default");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
