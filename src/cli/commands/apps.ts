import type { Execute, OptionsOf, Parent } from "../declare.js";

const action = () => import("../actions/apps.js");

const declareList = (apps: Parent) =>
  apps
    .command("list")
    .description("list apps; App IDs are masked unless --reveal")
    .option("--reveal", "show App IDs in full");

export type AppsListOptions = OptionsOf<typeof declareList>;

export function declareApps(parent: Parent, execute: Execute): void {
  const apps = parent.command("apps").description("manage apps (App IDs) and their security profiles");
  apps
    .command("create")
    .description("create an app bound to a profile and print its generated App ID")
    .argument("<name>")
    .requiredOption("--profile <name>", "the security profile the app uses")
    .action((name, { profile }) =>
      execute(async (ctx) => (await action()).runAppsCreate({ name, profile }, ctx)),
    );
  declareList(apps).action((options) => execute(async (ctx) => (await action()).runAppsList(options, ctx)));
  apps
    .command("bind")
    .description("bind an app to another security profile")
    .argument("<app-id>")
    .requiredOption("--profile <name>", "the security profile")
    .action((id, { profile }) => execute(async (ctx) => (await action()).runAppsBind({ id, profile }, ctx)));
  apps
    .command("delete")
    .description("delete an app; requests with its App ID get 404")
    .argument("<app-id>")
    .action((id) => execute(async (ctx) => (await action()).runAppsDelete(id, ctx)));
}
