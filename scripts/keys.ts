import "./load-env";
import { parseArgs } from "node:util";
import { type KeyKind, createKey, listKeys, revokeKey } from "../server/auth/keys";
import { runCli } from "./cli";
import { migrate } from "./migrate";

const USAGE = `Manage API keys.

  npm run keys -- create [--kind secret|publishable] [--live] [--name NAME]
  npm run keys -- list
  npm run keys -- revoke <key id or full key>

Keys are stored hashed: the full key is printed once, by create.`;

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      kind: { type: "string", default: "secret" },
      live: { type: "boolean", default: false },
      name: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [command, arg] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  await migrate();
  switch (command) {
    case "create": {
      if (values.kind !== "secret" && values.kind !== "publishable") {
        console.error("--kind must be secret or publishable");
        return 1;
      }
      const { key, record } = await createKey({
        kind: values.kind as KeyKind,
        live: values.live,
        name: values.name,
      });
      console.log(
        `Created ${record.live ? "live" : "test"} ${record.kind} key ${record.id}:\n\n  ${key}\n\nStore it now; it is not shown again.`,
      );
      return 0;
    }
    case "list": {
      const keys = await listKeys();
      if (keys.length === 0) console.log("No keys yet: npm run keys -- create");
      for (const k of keys) {
        const state = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : "active";
        const used = k.lastUsedAt ? `last used ${k.lastUsedAt.toISOString()}` : "never used";
        console.log(
          `${k.id}  ${k.prefix}…  ${k.live ? "live" : "test"} ${k.kind.padEnd(11)}  ${state}, ${used}${k.name ? `  (${k.name})` : ""}`,
        );
      }
      return 0;
    }
    case "revoke": {
      if (!arg) {
        console.error("revoke needs a key id (from list) or the full key");
        return 1;
      }
      const revoked = await revokeKey(arg);
      if (!revoked) {
        console.error(`No key ${arg}`);
        return 1;
      }
      console.log(
        `Revoked ${revoked.id} (${revoked.prefix}…); requests with it get 401 everywhere within 1 s.`,
      );
      return 0;
    }
    default:
      console.error(`Unknown command ${command}\n\n${USAGE}`);
      return 1;
  }
}

runCli(main);
