/**
 * Where `check` and `batch` got their profiles: `--config`, GUARDRAIL_CONFIG, a `./guardrail`
 * found in the working directory (which `guardrail init` creates, and which then silently wins
 * over the bundled profiles), or the bundled profiles. Said in every summary for that reason.
 */
export type ConfigSource = "flag" | "env" | "cwd" | "bundled";

export interface ConfigOrigin {
  /** The config directory as shown (relative to the working directory when inside it); null when bundled. */
  readonly config_dir: string | null;
  readonly config_source: ConfigSource;
}

const WHY: Record<Exclude<ConfigSource, "bundled">, string> = {
  flag: "--config",
  env: "GUARDRAIL_CONFIG",
  cwd: "./guardrail in the working directory",
};

/** `config guardrail (./guardrail in the working directory)`, or `bundled profiles (…)`. */
export function describeConfig(o: ConfigOrigin): string {
  if (o.config_source === "bundled" || o.config_dir === null) {
    return "bundled profiles (no --config, GUARDRAIL_CONFIG or ./guardrail)";
  }
  return `config ${o.config_dir} (${WHY[o.config_source]})`;
}

/** The line both commands print: the profile's file and where its config came from. */
export function describeOrigin(profileFile: string, o: ConfigOrigin): string {
  return `profile file ${profileFile}; ${describeConfig(o)}`;
}
