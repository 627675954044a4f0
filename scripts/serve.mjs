// @ts-check
/**
 * The HTTP server in front of Next.js, for `npm start`, `npm run dev` and the tests' servers:
 * `node scripts/serve.mjs start|dev -p PORT -H HOST`. Plain JavaScript, so that it runs on
 * Node alone, without a TypeScript loader in the serving process.
 *
 * It does what route handlers cannot, because they run after Next.js has parsed the request:
 * - Route handlers never see the connection's address, only the X-Forwarded-For header, which
 *   Next.js fills in when a request comes without one and keeps as sent otherwise. This server
 *   replaces it with the caller's address alone: the connection's, or with TRUST_PROXY=N the one
 *   the outermost of N trusted proxies saw (callerAddress), so a caller cannot choose the address
 *   that IP geocoding, rate limits and the sign-in throttle see.
 * - A path whose percent-encoding does not decode (`%ZZ`, an encoded lone surrogate, overlong
 *   UTF-8) makes Next.js fail with a 500 while it decodes the route's parameters: it is answered
 *   400 here, in the API's envelope.
 * - On the API's paths (/v1, /api), Next.js would answer a trailing slash, an empty segment
 *   (`//`) or a backslash with a 308 redirect in plain text, and resolve `.` and `..` segments
 *   (also encoded) to paths outside the API: a trailing slash is dropped here, and the others
 *   are answered 404 in the envelope (an empty tag or id names nothing).
 * - An answer given before the request's body was read to its end (a 413 for a body too large,
 *   a 401 before reading) closes the connection: otherwise the unread rest of the body stays in
 *   the keep-alive connection and the client's next request on it hangs. It closes it the way
 *   mature servers do ("lingering close"): the answer and a FIN are sent, and what the client
 *   still sends is read and thrown away (up to 5 s and 16 MB) before the socket is closed. Closing
 *   at once would make the kernel reset the connection while the client is still sending, and
 *   the client would see a broken pipe instead of the answer.
 * - Radar's Android SDK writes some query strings without percent-encoding their spaces
 *   (`GET /v1/addresses/validate?street=Main St HTTP/1.1`), which Node's HTTP parser refuses
 *   before any handler runs. Such a request (a method without a body, its request line and
 *   headers in the packet the parser refused) is answered as if its spaces were `%20`, on that
 *   connection, which is then closed (the parser that refused it cannot go on). Every other
 *   malformed request gets Node's own answer (400, 431, 408) and a closed connection.
 */
import { randomUUID, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import { Duplex } from "node:stream";
import path from "node:path";
import { parseArgs } from "node:util";
import nextModule from "next";
import { log, requestContext } from "../server/log/logger.mjs";
import { collectProcessMetrics, metrics, metricsOff, metricsText } from "../server/metrics/metrics.mjs";
import { routeTemplates } from "./route-templates.mjs";

/**
 * TRUST_PROXY: how many reverse proxies in front of this server append to X-Forwarded-For: a
 * whole number, `true`/`yes` (one), or `false`/`no`/`0` (none, the default); anything else stops
 * the server.
 */
function trustedHops(value = "") {
  const v = value.trim().toLowerCase();
  if (["", "false", "no"].includes(v)) return 0;
  if (["true", "yes"].includes(v)) return 1;
  if (/^\d{1,2}$/.test(v)) return Number(v);
  log.fatal(`TRUST_PROXY must be true, false or a number of proxies (0 to 99), not ${JSON.stringify(value)}`);
  process.exit(1);
}

/**
 * The caller's address: each trusted proxy appends the address it was called from, so with N of
 * them the caller is the N-th address from the right of X-Forwarded-For followed by the
 * connection's (the nearest proxy). What lies further left is the caller's own claim, never
 * taken; with fewer addresses than proxies, the leftmost.
 */
function callerAddress(req) {
  const connection = req.socket.remoteAddress ?? "";
  if (!hops) return connection;
  const header = req.headers["x-forwarded-for"];
  const sent = (Array.isArray(header) ? header.join(",") : (header ?? "")).split(",");
  const chain = [...sent.map((a) => a.trim()).filter(Boolean), connection];
  return chain[Math.max(0, chain.length - 1 - hops)] ?? connection;
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
const hops = trustedHops(process.env.TRUST_PROXY);

// `next` is CommonJS: imported from here, the module itself is the factory.
const next = /** @type {typeof import("next").default} */ (
  /** @type {any} */ (nextModule).default ?? nextModule
);
const root = path.resolve(import.meta.dirname, "..");
// The production server's worker threads run as built with it (scripts/build.ts, startWorker in
// server/workers/thread-memory.ts); in development they run the sources.
if (dev) delete process.env.WORKER_BUNDLES;
else process.env.WORKER_BUNDLES = path.join(root, ".next/workers");
const app = next({ dev, dir: root, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

/** Next.js answers its own errors; anything that still escapes is logged, never a crash. */
const escaped =
  (/** @type {import("node:http").ServerResponse | null} */ res) => (/** @type {unknown} */ err) => {
    log.error({ err }, "unhandled request error");
    if (res && !res.headersSent) {
      res.statusCode = 500;
      res.end();
    }
  };

/** Whether the path (without the query) is valid percent-encoded UTF-8. */
function decodablePath(/** @type {string} */ url) {
  const q = url.indexOf("?");
  try {
    decodeURIComponent(q < 0 ? url : url.slice(0, q));
    return true;
  } catch {
    return false;
  }
}

/** The envelope's error answer, for what never reaches a route. */
function answer(
  /** @type {import("node:http").ServerResponse} */ res,
  /** @type {number} */ code,
  /** @type {Record<string, string>} */ meta,
) {
  const body = JSON.stringify({ meta: { code, ...meta } });
  res.writeHead(code, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    "access-control-allow-origin": "*",
    "cache-control": "no-store",
  });
  res.end(body);
}

/** How long, and how much, a lingering close reads of a body nobody wants. */
const LINGER_MS = 5000;
const LINGER_BYTES = 16 * 1024 * 1024;

/**
 * Closes the connection after an answer that leaves part of the request's body unread, lingering:
 * once the answer is sent (Node then calls the socket's destroySoon), only the sending side is
 * closed, and the rest of the body is read and dropped until it ends, 16 MB have come or 5 s
 * have passed. The server keeps half-open sockets (http's allowHalfOpen), so the client reads
 * the whole answer and sees the connection end, not a reset.
 */
function closeIfBodyUnread(
  /** @type {import("node:http").IncomingMessage} */ req,
  /** @type {import("node:http").ServerResponse} */ res,
) {
  const writeHead = res.writeHead;
  res.writeHead = /** @type {typeof res.writeHead} */ (
    function (/** @type {any[]} */ ...args) {
      if (!req.complete) {
        res.shouldKeepAlive = false;
        lingerOnClose(req, res);
      }
      return writeHead.apply(res, /** @type {any} */ (args));
    }
  );
}

function lingerOnClose(
  /** @type {import("node:http").IncomingMessage} */ req,
  /** @type {import("node:http").ServerResponse} */ res,
) {
  // The response's: a request whose body a route stopped reading (server/http/request.ts drains
  // what it can first) has let go of it.
  const socket = res.socket;
  if (!socket || typeof socket.destroySoon !== "function") return;
  const destroySoon = socket.destroySoon.bind(socket);
  socket.destroySoon = () => {
    if (req.complete || req.destroyed || socket.destroyed) return destroySoon();
    socket.end();
    let dropped = 0;
    const close = () => {
      clearTimeout(timer);
      socket.destroy();
    };
    const timer = setTimeout(close, LINGER_MS);
    timer.unref();
    req.on("data", (/** @type {Buffer} */ chunk) => {
      dropped += chunk.length;
      if (dropped > LINGER_BYTES) close();
    });
    req.once("end", close);
    req.once("error", close);
    socket.once("close", () => clearTimeout(timer));
    req.resume();
  };
}

const API_PATH = /^\/(v1|api)(\/|$|\?)/;

/**
 * An API path as the routes should see it: without a trailing slash; null when it has an empty
 * segment, a backslash, or a segment that is `.` or `..` once decoded (Next.js would resolve it
 * and answer some other path, outside the API).
 */
function apiUrl(/** @type {string} */ url) {
  const q = url.indexOf("?");
  let path = q < 0 ? url : url.slice(0, q);
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  if (path.includes("//") || path.includes("\\")) return null;
  if (path.split("/").some((s) => s !== "" && decodeURIComponent(s).replace(/^\.\.?$/, "") === ""))
    return null;
  return q < 0 ? path : path + url.slice(q);
}

const routeOf = routeTemplates(root);
collectProcessMetrics();

/** A request id the caller sent that may be used as ours: short, and only characters safe in a log. */
const CALLER_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Paths asked every few seconds by machines: their access lines are at debug, not info. */
const QUIET = new Set(["/healthz", "/readyz", "/metrics", "/_next"]);

/**
 * Measures and logs each request once its answer is sent or its connection gone: one access line
 * (never the key, the query or the body: the route's template, the key's id when the route knew
 * it) and the duration histogram, by route template, method and status.
 */
function account(
  /** @type {import("node:http").IncomingMessage} */ req,
  /** @type {import("node:http").ServerResponse} */ res,
  /** @type {import("../server/log/logger.mjs").RequestContext} */ context,
  /** @type {string} */ route,
  /** @type {number} */ started,
) {
  const seconds = (performance.now() - started) / 1000;
  const status = res.statusCode;
  const method = req.method ?? "GET";
  metrics.httpDuration.observe({ route, method, status: String(status) }, seconds);
  const line = {
    reqId: context.reqId,
    method,
    route,
    status,
    ms: Math.round(seconds * 1e4) / 10,
    ...(context.keyId && { keyId: context.keyId }),
    ...(!res.writableFinished && { aborted: true }),
  };
  if (QUIET.has(route)) log.debug(line, "request");
  else log.info(line, "request");
}

/** Whether the caller is this machine (the trusted proxies' view: callerAddress). */
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * GET /metrics (docs/deployment.md#metrics): open to the loopback, and to others with
 * `Authorization: Bearer $METRICS_TOKEN`.
 */
async function answerMetrics(
  /** @type {import("node:http").IncomingMessage} */ req,
  /** @type {import("node:http").ServerResponse} */ res,
) {
  if (metricsOff) return answer(res, 404, { message: "metrics are off on this server (METRICS=off)" });
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.setHeader("allow", "GET, HEAD");
    return answer(res, 405, { message: `${req.method} /metrics is not supported; use GET` });
  }
  if (!LOOPBACK.test(callerAddress(req))) {
    const token = process.env.METRICS_TOKEN ?? "";
    if (!token) {
      return answer(res, 403, {
        message: "metrics are open to the loopback only; set METRICS_TOKEN to read them from elsewhere",
      });
    }
    const sent = Buffer.from(/^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? "");
    const wanted = Buffer.from(token);
    if (sent.length !== wanted.length || !timingSafeEqual(sent, wanted)) {
      res.setHeader("www-authenticate", 'Bearer realm="metrics"');
      return answer(res, 401, { message: "metrics need Authorization: Bearer METRICS_TOKEN" });
    }
  }
  const { contentType, text } = await metricsText();
  res.writeHead(200, { "content-type": contentType, "cache-control": "no-store" });
  res.end(req.method === "HEAD" ? undefined : text);
}

const server = createServer((req, res) => {
  const started = performance.now();
  const sent = req.headers["x-request-id"];
  const reqId = typeof sent === "string" && CALLER_ID.test(sent) ? sent : randomUUID();
  res.setHeader("x-request-id", reqId);
  /** @type {import("../server/log/logger.mjs").RequestContext} */
  const context = { reqId };
  requestContext.run(context, () => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const pathname = q < 0 ? url : url.slice(0, q);
    const route = pathname === "/metrics" ? pathname : routeOf(pathname);
    res.once("close", () => account(req, res, context, route, started));
    if (route === "/metrics") answerMetrics(req, res).catch(escaped(res));
    else serve(req, res);
  });
});

function serve(
  /** @type {import("node:http").IncomingMessage} */ req,
  /** @type {import("node:http").ServerResponse} */ res,
) {
  req.headers["x-forwarded-for"] = callerAddress(req);
  closeIfBodyUnread(req, res);
  const url = req.url ?? "/";
  if (!decodablePath(url)) {
    return answer(res, 400, { message: "path: malformed percent-encoding", param: "path" });
  }
  if (API_PATH.test(url)) {
    const clean = apiUrl(url);
    if (clean === null) {
      return answer(res, 404, { message: `no such endpoint: ${req.method} ${url.split("?")[0]}` });
    }
    req.url = clean;
  }
  handle(req, res).catch(escaped(res));
}
/** What Node answers a request its parser refuses (when no clientError listener says otherwise). */
const REFUSED = {
  HPE_HEADER_OVERFLOW: "431 Request Header Fields Too Large",
  HPE_CHUNK_EXTENSIONS_OVERFLOW: "413 Payload Too Large",
  ERR_HTTP_REQUEST_TIMEOUT: "408 Request Timeout",
};

/**
 * The request in `raw` with the spaces of its request target percent-encoded and
 * `Connection: close`, when it is one the parser refused for those spaces only: a method without
 * a body, the whole head in `raw`, no body announced. Otherwise null.
 */
function withEncodedSpaces(/** @type {Buffer | undefined} */ raw) {
  if (!Buffer.isBuffer(raw)) return null;
  const text = raw.toString("latin1");
  const end = text.indexOf("\r\n\r\n");
  if (end < 0) return null;
  const [line, ...headers] = text.slice(0, end).split("\r\n");
  const m = /^(GET|HEAD|DELETE|OPTIONS) (\/[^\r\n]*) (HTTP\/1\.[01])$/.exec(line ?? "");
  if (!m || !m[2].includes(" ")) return null;
  const target = m[2].replaceAll(" ", "%20");
  if (/[\x00-\x1f\x7f]/.test(target)) return null;
  if (headers.some((h) => /^(content-length\s*:\s*[1-9]|transfer-encoding\s*:)/i.test(h))) return null;
  const kept = headers.filter((h) => !/^connection\s*:/i.test(h));
  return Buffer.from(
    [`${m[1]} ${target} ${m[3]}`, ...kept, "Connection: close", "", ""].join("\r\n"),
    "latin1",
  );
}

/** Connections whose refused request is being answered here: their parser's later errors are not. */
const repairing = new WeakSet();

server.on("clientError", (/** @type {any} */ err, /** @type {import("node:net").Socket} */ socket) => {
  if (repairing.has(socket)) return;
  const repaired = withEncodedSpaces(err?.rawPacket);
  if (repaired && socket.writable && !(/** @type {any} */ (socket)._httpMessage)) {
    repairing.add(socket);
    // The request goes through the server again on a stream of its own, whose answer is written
    // to this socket; the socket ends with it.
    const stream = new Duplex({
      read() {},
      write(chunk, encoding, done) {
        socket.write(chunk, encoding, done);
      },
      final(done) {
        socket.end();
        done();
      },
    });
    Object.assign(stream, { remoteAddress: socket.remoteAddress, remotePort: socket.remotePort });
    socket.once("close", () => stream.destroy());
    stream.once("close", () => socket.end());
    server.emit("connection", stream);
    stream.push(repaired);
    return;
  }
  if (socket.writable && !(/** @type {any} */ (socket)._httpMessage?._headerSent)) {
    const status = REFUSED[/** @type {keyof typeof REFUSED} */ (err?.code)] ?? "400 Bad Request";
    socket.write(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
  }
  socket.destroy(err);
});
if (dev) {
  const upgrade = app.getUpgradeHandler();
  server.on("upgrade", (req, socket, head) => upgrade(req, socket, head).catch(escaped(null)));
}
/**
 * A port it cannot listen on (taken, or not this user's to take) ends the process with a line
 * saying so: Next.js keeps a process up through uncaught errors, and a service manager would
 * otherwise see a server running that answers nothing.
 */
function notListening(/** @type {NodeJS.ErrnoException} */ err) {
  log.fatal(
    { err, port, hostname },
    err.code === "EADDRINUSE"
      ? `Port ${port} is already in use on ${hostname} (another server?): stop it, or choose a port: PORT=3001 npm start`
      : `Cannot listen on ${hostname}:${port}: ${err.message}`,
  );
  process.exit(1);
}
server.once("error", notListening);
server.listen(port, hostname, () => {
  server.off("error", notListening);
  log.info(
    { url: `http://${hostname}:${port}`, trustedProxies: hops },
    `Ready on http://${hostname}:${port}${hops ? ` (trusting X-Forwarded-For from ${hops} prox${hops > 1 ? "ies" : "y"})` : ""}`,
  );
});
/** How long a stop waits for the requests in flight before the process exits anyway. */
const STOP_MS = 10_000;
/** A second signal within this of the first is the same stop delivered twice (see `stop`). */
const SAME_STOP_MS = 1000;
let stoppingSince = 0;
function stop() {
  // Development's live-reload connections never end: it stops at once.
  if (dev) process.exit(0);
  if (stoppingSince) {
    // A terminal's Ctrl-C reaches both `npm start` and this process, which `npm start` also
    // forwards it to: that second one is ignored; a later one ends the process at once.
    if (Date.now() - stoppingSince > SAME_STOP_MS) process.exit(0);
    return;
  }
  stoppingSince = Date.now();
  // New connections are refused; every request in flight is answered, and its connection closed
  // once idle (a kept-alive one idle now at once); the process exits when none is left, or after
  // STOP_MS. Meanwhile the app does what it must before it ends (instrumentation.ts: the webhook
  // sender records what is in flight and leaves the rest to the next process).
  const closed = new Promise((resolve) => server.close(resolve));
  setInterval(() => server.closeIdleConnections(), 100).unref();
  const stopping = /** @type {{ whenStopping?: () => Promise<void> }} */ (globalThis).whenStopping?.();
  void Promise.allSettled([closed, stopping])
    .then(() => app.close?.())
    .finally(() => process.exit(0));
  setTimeout(() => process.exit(0), STOP_MS).unref();
}
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
