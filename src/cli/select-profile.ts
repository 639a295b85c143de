import type { Config } from "../config/load.js";
import type { Profile } from "../config/profile.js";
import { ConfigError, UsageError } from "../errors.js";

export interface ProfileChoice {
  readonly profile?: string;
  readonly app?: string;
}

/** The same resolution as the server: an app's profile, a named profile, else the default one. */
export function selectProfile(config: Config, options: ProfileChoice): { profile: Profile; app?: string } {
  if (options.profile !== undefined && options.app !== undefined) {
    throw new UsageError("pass --profile or --app, not both");
  }
  if (options.app !== undefined) {
    if (config.dir === undefined) {
      throw new UsageError("--app needs a config directory: pass --config DIR or set GUARDRAIL_CONFIG");
    }
    const app = config.apps.get(options.app);
    if (!app) {
      const known = [...config.apps.values()].map((a) => a.name).join(", ") || "none";
      throw new UsageError(
        `unknown App ID "${options.app}" (apps: ${known}); see \`npx guardrail apps list --reveal\``,
      );
    }
    return { profile: config.profiles.get(app.profile) as Profile, app: app.name };
  }
  if (options.profile !== undefined) {
    const profile = config.profiles.get(options.profile);
    if (profile) return { profile };
    throw new UsageError(
      `unknown profile "${options.profile}" (known: ${[...config.profiles.keys()].join(", ") || "none"})`,
    );
  }
  if (config.defaultProfile) return { profile: config.defaultProfile };
  throw new ConfigError(
    `${config.dir}: no profile is marked default: true; mark one, or pass --profile NAME or --app APP_ID`,
  );
}
