import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { generateKey } from "../../../src/config/keys.js";
import { type ProxyOptions, startProxy } from "../../../src/server/proxy/start.js";
import type { RunningServer } from "../../../src/server/start.js";
import type { LogRecord } from "../../../src/server/types.js";
import { type FakeUpstream, startFakeUpstream } from "./fake-upstream.js";

export const APP_REDACT = "app_redact_000001";
export const APP_OFF = "app_off_000000001";
export const APP_SSN = "app_ssn_000000001";

/**
 * `main` (the default: keyword and pii flag, on prompts and answers), `redact` (pii replaced by
 * placeholders before the upstream; keyword as main), `off` (nothing checked) and `ssn` (US
 * social security numbers only).
 */
const PROFILES: Record<string, string> = {
  "main.yaml": `name: main
default: true
guardrails:
  keyword: { enabled: true, keywords: [ignore previous instructions] }
  pii: { enabled: true, entities: [EMAIL_ADDRESS, CREDIT_CARD, PHONE_NUMBER, US_SSN] }
`,
  "redact.yaml": `name: redact
guardrails:
  keyword: { enabled: true, keywords: [ignore previous instructions] }
  pii: { enabled: true, action: redact, entities: [EMAIL_ADDRESS, CREDIT_CARD, PHONE_NUMBER] }
`,
  "off.yaml": "name: off\n",
  "ssn.yaml": "name: ssn\nguardrails:\n  pii: { enabled: true, entities: [US_SSN] }\n",
};

export async function makeProxyConfig() {
  const dir = await mkdtemp(join(tmpdir(), "guardrail-proxy-"));
  await mkdir(join(dir, "profiles"));
  for (const [name, yaml] of Object.entries(PROFILES)) await writeFile(join(dir, "profiles", name), yaml);
  await writeFile(
    join(dir, "apps.yaml"),
    `apps:\n  - { name: Redacting bot, id: ${APP_REDACT}, profile: redact }\n  - { name: Open bot, id: ${APP_OFF}, profile: off }\n  - { name: SSN bot, id: ${APP_SSN}, profile: ssn }\n`,
  );
  const key = generateKey();
  await writeFile(
    join(dir, "keys.yaml"),
    `keys:\n  - { id: ${key.record.id}, sha256: ${key.record.sha256}, created: "2026-01-01" }\n`,
  );
  return { dir, key: key.key, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A proxy on a free loopback port in front of `upstream`, its log lines into `log`. */
export function startTestProxy(
  configDir: string,
  upstream: string,
  options: Partial<ProxyOptions> & { log?: (record: LogRecord) => void } = {},
): Promise<RunningServer> {
  return startProxy({
    configDir,
    port: 0,
    watch: false,
    encoderWorkers: 0,
    textLane: false,
    upstream,
    log: () => {},
    ...options,
  });
}

export interface ProxySetup {
  readonly upstream: FakeUpstream;
  readonly proxy: RunningServer;
  /** The proxy's base URL for an OpenAI client: `http://127.0.0.1:PORT/v1`. */
  readonly baseURL: string;
  readonly key: string;
  readonly logs: LogRecord[];
}

/** A fake upstream and a proxy in front of it, for a test file's tests. Read the fields inside tests. */
export function useProxy(options: Partial<ProxyOptions> = {}): ProxySetup {
  let made: ProxySetup | undefined;
  let cleanup = async () => {};
  beforeAll(async () => {
    const config = await makeProxyConfig();
    const upstream = await startFakeUpstream();
    const logs: LogRecord[] = [];
    const proxy = await startTestProxy(config.dir, upstream.url, {
      log: (record) => logs.push(record),
      ...options,
    });
    made = { upstream, proxy, baseURL: `${proxy.url}/v1`, key: config.key, logs };
    cleanup = async () => {
      await proxy.close();
      await upstream.close();
      await config.cleanup();
    };
  });
  afterAll(() => cleanup());
  const get = () => {
    if (!made) throw new Error("useProxy: read the fields inside a test");
    return made;
  };
  return {
    get upstream() {
      return get().upstream;
    },
    get proxy() {
      return get().proxy;
    },
    get baseURL() {
      return get().baseURL;
    },
    get key() {
      return get().key;
    },
    get logs() {
      return get().logs;
    },
  };
}
