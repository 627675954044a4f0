import "./load-env";
import { parseArgs } from "node:util";
import { storage } from "../server/storage";
import {
  createWebhook,
  deleteWebhook,
  listWebhooks,
  sendTestEvent,
  setWebhookEnabled,
} from "../server/webhooks/manage";
import { runCli } from "./cli";
import { migrate } from "./migrate";

const USAGE = `Manage webhooks (docs/webhooks.md), while the server runs or not.

  npm run webhooks -- create <url> [--live] [--mode single|multiple] [--types user.entered_geofence,...]
  npm run webhooks -- list
  npm run webhooks -- disable <id>
  npm run webhooks -- enable <id>
  npm run webhooks -- delete <id>
  npm run webhooks -- test <id>          queues a test event (the running server sends it)

create prints the webhook's id and its signing token, once.`;

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      live: { type: "boolean", default: false },
      mode: { type: "string", default: "single" },
      types: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [command, arg] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  await migrate();
  if (command === "list") {
    const hooks = await listWebhooks();
    if (!hooks.length) console.log("No webhooks yet: npm run webhooks -- create <url>");
    for (const w of hooks) {
      const recent = await storage().webhooks.deliveries(w.seq, 100);
      const failed = recent.filter((d) => d.status === "failed").length;
      const pending = recent.filter((d) => d.status === "pending").length;
      console.log(
        `${w.id}  ${w.live ? "live" : "test"} ${w.mode.padEnd(8)} ${w.enabled ? "enabled " : "disabled"}  ${w.url}` +
          `  types: ${w.types?.join(",") ?? "all"}  last ${recent.length}: ${pending} pending, ${failed} failed`,
      );
    }
    return 0;
  }
  if (!arg) {
    console.error(
      `${command} needs ${command === "create" ? "a URL" : "a webhook id (from list)"}\n\n${USAGE}`,
    );
    return 1;
  }
  switch (command) {
    case "create": {
      const types = values.types
        ?.split(",")
        .map((t) => t.trim())
        .filter(Boolean);
      const { webhook, token } = await createWebhook({
        url: arg,
        live: values.live,
        mode: values.mode,
        types,
      });
      console.log(
        `Created ${webhook.live ? "live" : "test"} webhook ${webhook.id} (${webhook.mode}) for ${webhook.url}.\n` +
          `Signing token (shown once; receivers verify with it):\n\n  ${token}\n`,
      );
      return 0;
    }
    case "disable":
    case "enable":
      await setWebhookEnabled(arg, command === "enable");
      console.log(`${arg} is ${command}d; in effect for the next location update, in every process.`);
      return 0;
    case "delete":
      await deleteWebhook(arg);
      console.log(`Deleted ${arg} and its deliveries.`);
      return 0;
    case "test":
      console.log(`Queued test delivery ${await sendTestEvent(arg)}; the running server sends it.`);
      return 0;
    default:
      console.error(`Unknown command ${command}\n\n${USAGE}`);
      return 1;
  }
}

runCli(main);
