import { type ParseArgsOptionsConfig, parseArgs } from "node:util";

type Values<O extends ParseArgsOptionsConfig> = ReturnType<typeof parseArgs<{ options: O }>>["values"];

/**
 * A bench's flags, as node's parseArgs reads them, plus what a person trying a bench expects:
 * `--help` prints the usage line and every flag with its default instead of starting a
 * minutes-long run, and an unknown or malformed flag is one line on stderr and exit 2, not a
 * stack trace.
 */
export function benchArgs<const O extends ParseArgsOptionsConfig>(usage: string, options: O): Values<O> {
  let parsed: { values: Record<string, unknown> };
  try {
    parsed = parseArgs({ options: { ...options, help: { type: "boolean", short: "h" } } });
  } catch (error) {
    console.error(`${(error as Error).message}\nusage: ${usage} (--help lists the flags)`);
    process.exit(2);
  }
  if (parsed.values.help) {
    console.log(`usage: ${usage}`);
    const flags = Object.entries(options);
    if (flags.length > 0) console.log("\nflags:");
    for (const [name, o] of flags) {
      const value = o.type === "boolean" ? "" : " VALUE";
      const unset = o.default === undefined || o.default === false || String(o.default) === "";
      const fallback = unset ? "" : ` (default ${String(o.default)})`;
      console.log(`  --${name}${value}${o.multiple ? " (repeatable)" : ""}${fallback}`);
    }
    process.exit(0);
  }
  const { help: _help, ...values } = parsed.values;
  return values as Values<O>;
}
