import type { Execute, Parent } from "../declare.js";

const action = () => import("../actions/profiles.js");

export function declareProfiles(parent: Parent, execute: Execute): void {
  const profiles = parent.command("profiles").description("inspect and validate security profiles");
  profiles
    .command("list")
    .description("list profiles: name, default marker, enabled guardrails, file")
    .action(() => execute(async (ctx) => (await action()).runProfilesList(ctx)));
  profiles
    .command("show")
    .description("print a profile's effective settings (the default profile when NAME is absent)")
    .argument("[name]")
    .action((name) => execute(async (ctx) => (await action()).runProfilesShow(name, ctx)));
  profiles
    .command("validate")
    .description("validate the config directory (or the bundled profiles) and list every problem")
    .action(() => execute(async (ctx) => (await action()).runProfilesValidate(ctx)));
}
