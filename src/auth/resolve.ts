import { verifyKey } from "../config/keys.js";
import type { CompiledProfile } from "../engine/compile.js";
import type { CompiledConfig } from "../engine/compile-config.js";
import { appNotFound, invalidApiKey, noDefaultProfile } from "../errors.js";

export interface Credentials {
  readonly apiKey: string | undefined;
  readonly appId: string | undefined;
}

export interface Resolved {
  readonly profile: CompiledProfile;
  /** The App ID the request named, or undefined when the default profile answered. */
  readonly appId: string | undefined;
}

/**
 * The spec's resolution order (docs/service-spec.md, "Authentication"), key first: a missing or wrong key is 401 whatever the App ID says
 * (so App IDs cannot be probed without a key, and "only X-App-ID" is the spec's "only one header"
 * 401). A valid key with no X-App-ID uses the default profile (spec rule 3). An X-App-ID header
 * that is present but empty is treated as unknown, not as absent: a client whose App ID variable
 * is unset should hear about it rather than silently get the default profile.
 */
export function resolveRequest(credentials: Credentials, compiled: CompiledConfig): Resolved {
  const { apiKey } = credentials;
  if (apiKey === undefined || apiKey === "" || !verifyKey(apiKey, compiled.config.keys))
    throw invalidApiKey();
  return resolveProfile(credentials.appId, compiled);
}

/**
 * The profile an X-App-ID header picks, the default one without it: resolveRequest once the key
 * has passed, and `guardrail proxy` on loopback, where no key is asked for (docs/proxy.md).
 */
export function resolveProfile(appId: string | undefined, compiled: CompiledConfig): Resolved {
  if (appId === undefined) {
    if (!compiled.defaultProfile) throw noDefaultProfile();
    return { profile: compiled.defaultProfile, appId: undefined };
  }
  const app = compiled.config.apps.get(appId);
  const profile = app && compiled.profiles.get(app.profile);
  if (!profile) throw appNotFound();
  return { profile, appId };
}
