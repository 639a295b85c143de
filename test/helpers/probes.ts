import type { KeyRecord } from "../../src/config/keys.js";
import { APP_STRICT, INPUT, profileFiles } from "../server/fixtures.js";
import type { Probe } from "./flip.js";

/** An input-check of `message` with `key` (and `app` when given): its status and verdict. */
export async function inputCheck(url: string, key: string, message: string, app?: string) {
  const res = await fetch(`${url}${INPUT}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key, ...(app ? { "x-app-id": app } : {}) },
    body: JSON.stringify({ message }),
  });
  const body = (await res.json()) as { injection_detected?: boolean };
  return { status: res.status, flagged: body.injection_detected === true };
}

/** Statuses outside `allowed` fail the probe loudly: a change may flip an answer, never break one. */
function expectStatus(status: number, allowed: readonly number[]): number {
  if (!allowed.includes(status))
    throw new Error(`unexpected status ${status} (expected ${allowed.join(" or ")})`);
  return status;
}

export const keyWorks =
  (key: string): Probe =>
  async (url) =>
    expectStatus((await inputCheck(url, key, "hello")).status, [200, 401]) === 200;

export const keyRefused =
  (key: string): Probe =>
  async (url) =>
    !(await keyWorks(key)(url));

/** "purple elephant" is flagged under the fixtures' `strict` profile and not under `off`. */
export const appUnflagged =
  (key: string, app = APP_STRICT): Probe =>
  async (url) => {
    const { status, flagged } = await inputCheck(url, key, "purple elephant", app);
    expectStatus(status, [200]);
    return !flagged;
  };

/** keys.yaml listing `keys`. */
export function keysYaml(keys: readonly KeyRecord[]): string {
  const entry = (k: KeyRecord) =>
    `  - { id: ${k.id}, sha256: ${k.sha256}, created: "${k.created}"${k.revoked ? `, revoked: "${k.revoked}"` : ""} }\n`;
  return keys.length ? `keys:\n${keys.map(entry).join("")}` : "keys: []\n";
}

/** apps.yaml with the fixtures' strict bot bound to `profile`. */
export const appsYaml = (profile: string) =>
  `apps:\n  - { name: Strict bot, id: ${APP_STRICT}, profile: ${profile} }\n`;

/** The fixtures' three profiles (main, strict, off) under profiles/, as volume paths. */
export const profileVolumeFiles = () =>
  Object.fromEntries(Object.entries(profileFiles(true)).map(([name, yaml]) => [`profiles/${name}`, yaml]));
