import type { Execute, OptionsOf, Parent } from "../declare.js";

const action = () => import("../actions/keys.js");

const declareCreate = (keys: Parent) =>
  keys
    .command("create")
    .description("create an API key and print it once; only its SHA-256 is stored")
    .option("--label <label>", "a note on where the key is used (e.g. production)")
    .option("--replace <key-id>", "revoke this key in the same write (a lost or leaked key)");

export type KeysCreateOptions = OptionsOf<typeof declareCreate>;

export function declareKeys(parent: Parent, execute: Execute): void {
  const keys = parent.command("keys").description("create, list and revoke organization API keys");
  declareCreate(keys).action((options) =>
    execute(async (ctx) => (await action()).runKeysCreate(options, ctx)),
  );
  keys
    .command("list")
    .description("list keys: id, label, created, active or revoked (never the key or its hash)")
    .action(() => execute(async (ctx) => (await action()).runKeysList(ctx)));
  keys
    .command("revoke")
    .description("revoke a key; requests using it get 401")
    .argument("<key-id>")
    .action((id) => execute(async (ctx) => (await action()).runKeysRevoke(id, ctx)));
}
