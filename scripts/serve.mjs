// @ts-check
/**
 * The HTTP server in front of Next.js, for `npm start`, `npm run dev` and the tests' servers:
 * `node scripts/serve.mjs start|dev -p PORT -H HOST`. Plain JavaScript, so that it runs on
 * Node alone, without a TypeScript loader in the serving process.
 *
 * It exists for one reason: route handlers never see the connection's address, only the
 * X-Forwarded-For header, which Next.js fills in when a request comes without one and keeps
 * as sent otherwise. Unless TRUST_PROXY=true says a reverse proxy sets that header, this server
 * replaces it with the connection's address, so a caller cannot choose the address that IP
 * geocoding and the sign-in throttle see.
 */
import { createServer } from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import nextModule from "next";

/** TRUST_PROXY: `true`, `1`, `yes` or `false`, `0`, `no` (the default); anything else stops the server. */
function trustsProxy(value = "") {
  const v = value.trim().toLowerCase();
  if (["", "false", "0", "no"].includes(v)) return false;
  if (["true", "1", "yes"].includes(v)) return true;
  console.error(`TRUST_PROXY must be true or false, not ${JSON.stringify(value)}`);
  process.exit(1);
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    port: { type: "string", short: "p" },
    hostname: { type: "string", short: "H" },
  },
});
const dev = positionals[0] === "dev";
const port = Number(values.port ?? 3000);
const hostname = values.hostname ?? "0.0.0.0";
const trustProxy = trustsProxy(process.env.TRUST_PROXY);

// `next` is CommonJS: imported from here, the module itself is the factory.
const next = /** @type {typeof import("next").default} */ (
  /** @type {any} */ (nextModule).default ?? nextModule
);
const app = next({ dev, dir: path.resolve(import.meta.dirname, ".."), hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

/** Next.js answers its own errors; anything that still escapes is logged, never a crash. */
const escaped =
  (/** @type {import("node:http").ServerResponse | null} */ res) => (/** @type {unknown} */ e) => {
    console.error("unhandled request error", e);
    if (res && !res.headersSent) {
      res.statusCode = 500;
      res.end();
    }
  };

const server = createServer((req, res) => {
  if (!trustProxy) req.headers["x-forwarded-for"] = req.socket.remoteAddress ?? "";
  handle(req, res).catch(escaped(res));
});
if (dev) {
  const upgrade = app.getUpgradeHandler();
  server.on("upgrade", (req, socket, head) => upgrade(req, socket, head).catch(escaped(null)));
}
server.listen(port, hostname, () => {
  console.log(`Ready on http://${hostname}:${port}${trustProxy ? " (trusting X-Forwarded-For)" : ""}`);
});
for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) {
  process.once(signal, () => {
    server.close();
    void app.close?.().finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 3000).unref();
  });
}
