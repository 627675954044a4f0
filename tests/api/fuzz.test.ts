import { Agent, request } from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { FRESH_ACCOUNTS, FRESH_PASSWORD, type RunningServer, serve } from "../../scripts/fresh-server";
import { keys, signIn } from "../support/api";
import { routeFiles } from "../support/routes";

/**
 * Property: whatever arrives (garbage in the path, the query, the headers, the cookies and the
 * body, on any route and method), the answer comes promptly, is never a 5xx, and, on the API and
 * the dashboard's routes, is JSON in the envelope with meta.code equal to the status, and the
 * server logs no unexpected error.
 *
 * A server of its own on the API tests' database (behind a "proxy" that gives its requests an
 * address of their own, so the sign-in throttle that garbage sign-ins fill is that address's), with the live world's key (other tests work in the test world) and a
 * reviewer's session (which can change nothing shared), so that valid requests that happen to be
 * generated stay harmless.
 * FUZZ_SEED replays a run; FUZZ_RUNS sets its length; FUZZ_LOG=1 prints every request.
 */

let server: RunningServer;
let baseUrl: URL;
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const numRuns = Number(process.env.FUZZ_RUNS ?? 150);
const agent = new Agent({ keepAlive: true, maxSockets: 4 });
let reviewerCookie = "";
const FUZZ_ADDRESS = "203.0.113.77";

beforeAll(async () => {
  // Behind a "proxy": its requests come from an address of their own, so the garbage sign-ins
  // it sends fill that address's throttle (in the shared database), not other tests'.
  server = await serve(inject("databaseUrl"), {
    env: { TRUST_PROXY: "true", GEODATA_DIR: inject("geodataDir") },
  });
  baseUrl = new URL(server.url);
  reviewerCookie = await signIn(FRESH_ACCOUNTS.reviewer, FRESH_PASSWORD);
  console.log(`fuzz: seed ${seed} (FUZZ_SEED=${seed} replays this run), ${numRuns} runs per route`);
}, 60_000);

afterAll(async () => {
  agent.destroy();
  await server?.stop();
  expect(server?.output() ?? "").not.toMatch(/unexpected error|unhandled/);
});

// ---- generators -------------------------------------------------------------------------------

const nasty = fc.constantFrom(
  "",
  " ",
  "null",
  "undefined",
  "NaN",
  "Infinity",
  "-0",
  "1e309",
  "-1e309",
  "9".repeat(400),
  "0x10",
  "true",
  "[]",
  "{}",
  '{"a":',
  "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
  "%",
  "%ZZ",
  "%ED%A0%80",
  "%C0%AE%C0%AE",
  "%00",
  "..",
  "../../etc/passwd",
  "\u0000",
  "\uFFFF",
  "\uD800",
  "😀",
  "Ω≈ç√",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "40.7,-73.9",
  "91,181",
  "1,2,3",
  "2026-02-30T25:61:00Z",
  "2026-11-22T10:00:00.000Z",
  "1700000000000",
  "a".repeat(5000),
);
const text = fc.oneof(nasty, fc.string({ maxLength: 40 }), fc.string({ unit: "binary", maxLength: 20 }));

/** Percent-encodes any text; lone surrogates (which UTF-8 cannot carry) become U+FFFD first. */
const enc = (t: string) =>
  encodeURIComponent(
    t.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD"),
  );
/** Raw percent garbage, as a hostile client sends it. */
const rawGarbage = fc.constantFrom("%ZZ", "%", "%E2%82", "%C0%AE%C0%AE", "%ED%A0%80", "%00");

/** A path segment as a client might send it: encoded text, or raw percent garbage. */
const segment = fc.oneof(
  text.map(enc),
  rawGarbage,
  fc.constantFrom("", "users", "000000000000000000000000", "%2F", "%2e%2e"),
);

const PARAMS = [
  "limit",
  "tag",
  "tags",
  "createdBefore",
  "createdAfter",
  "updatedBefore",
  "updateBefore",
  "updatedAfter",
  "near",
  "radius",
  "coordinates",
  "ip",
  "includeGeometry",
  "chains",
  "categories",
  "groups",
  "bbox",
  "query",
];
const query = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...PARAMS), fc.string({ maxLength: 8 })).map(enc),
      fc.oneof(text.map(enc), rawGarbage),
    ),
    { maxLength: 6 },
  )
  .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}` : ""));

const FIELDS = [
  "description",
  "type",
  "coordinates",
  "radius",
  "tag",
  "externalId",
  "metadata",
  "enabled",
  "dwellThreshold",
  "deviceId",
  "userId",
  "latitude",
  "longitude",
  "accuracy",
  "updatedAt",
  "foreground",
  "stopped",
  "verification",
  "verifiedPlaceId",
  "email",
  "password",
  "role",
  "kind",
  "live",
  "publishableSearch",
];
const value = fc.oneof(
  text,
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 4 }),
  fc.array(fc.double(), { maxLength: 5 }),
);
const fields = fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 8 })), value, {
  maxKeys: 8,
});
/** A value nested far deeper than any field allows (arrays or objects), as JSON text. */
const deepJson = fc
  .tuple(fc.integer({ min: 33, max: 40_000 }), fc.boolean())
  .map(([n, arrays]) =>
    arrays ? "[".repeat(n) + "1" + "]".repeat(n) : '{"a":'.repeat(n) + "1" + "}".repeat(n),
  );
/** Form pairs whose keys repeat, as clients send lists (`coordinates=7.4&coordinates=43.7`). */
const repeatedPairs = fc.array(
  fc.tuple(
    fc.constantFrom("coordinates", "radius", "metadata", "latitude", "deviceId", "verification"),
    fc.oneof(text, fc.double().map(String), fc.integer().map(String), deepJson),
  ),
  { minLength: 2, maxLength: 8 },
);

const body = fc.oneof(
  fc.constant({ type: "application/json", data: "" }),
  fc
    .tuple(fc.constantFrom(...FIELDS), deepJson)
    .map(([field, deep]) => ({ type: "application/json", data: `{"${field}":${deep}}` })),
  fc.tuple(fc.constantFrom(...FIELDS), deepJson).map(([field, deep]) => ({
    type: "application/x-www-form-urlencoded",
    data: `${field}=${encodeURIComponent(deep)}`,
  })),
  repeatedPairs.map((pairs) => ({
    type: "application/x-www-form-urlencoded",
    data: new URLSearchParams(pairs).toString(),
  })),
  fields.map((f) => ({ type: "application/json", data: JSON.stringify(f) })),
  fields.map((f) => ({
    type: "application/x-www-form-urlencoded",
    data: new URLSearchParams(
      Object.entries(f).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
    ).toString(),
  })),
  fc
    .tuple(
      fc.constantFrom(
        "application/json",
        "text/plain",
        "",
        "multipart/form-data; boundary=x",
        "application/xml",
        "garbage/;;",
      ),
      text,
    )
    .map(([type, data]) => ({ type, data })),
  fc.jsonValue({ maxDepth: 6 }).map((v) => ({ type: "application/json", data: JSON.stringify(v) ?? "null" })),
);

const headerText = fc.oneof(nasty, fc.string({ maxLength: 30 })).map((t) =>
  // Header values cannot carry CR, LF or NUL, nor characters beyond Latin-1.
  Array.from(t)
    .filter((c) => c.charCodeAt(0) > 31 && c.charCodeAt(0) < 256 && c !== "\u007f")
    .join(""),
);
const authorization = fc.oneof(
  fc.constant(undefined),
  fc.constant(keys.live),
  fc.constant(keys.publishable),
  headerText,
  headerText.map((t) => `Bearer ${t}`),
);
const cookie = fc.oneof(
  fc.constant(undefined),
  fc.constant("reviewer"),
  headerText.map((t) => `session=${t}`),
  headerText,
);
const origin = fc.oneof(fc.constant(undefined), fc.constant("same"), headerText, fc.constant("null"));

const method = fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD");

// ---- the property -----------------------------------------------------------------------------

interface Answer {
  status: number;
  type: string;
  text: string;
}

function send(opts: {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: baseUrl.hostname,
        port: baseUrl.port,
        method: opts.method,
        path: opts.path,
        // Node's client sends a DELETE body without a length unless told; every body gets one.
        headers:
          opts.body === undefined
            ? opts.headers
            : { ...opts.headers, "content-length": String(Buffer.byteLength(opts.body)) },
        timeout: 10_000,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (text += d));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"] ?? ""), text }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within 10 s: ${opts.method} ${opts.path}`)));
    req.on("error", reject);
    req.end(opts.body);
  });
}

/** The route file's folder as a path, each dynamic segment filled from `segments`. */
function pathOf(file: string, segments: string[]): string {
  let i = 0;
  return `/${file
    .split("/")
    .flatMap((part) => {
      if (part === "[[...path]]") return segments.slice(0, 2);
      return part.startsWith("[") ? [segments[i++ % segments.length] ?? "x"] : [part];
    })
    .join("/")}`;
}

const routes = routeFiles().filter((f) => f.startsWith("v1") || f.startsWith("api"));

/** Routes whose success is a file, and its type. */
const FILES: Record<string, RegExp> = {
  "api/events/export": /^text\/csv/,
  "api/beacons/export": /^(text\/csv|application\/geo\+json)/,
  "api/geofences/export": /^(text\/csv|application\/geo\+json)/,
  "api/geofences/import": /^application\/x-ndjson/,
};

describe("garbage in, a 4xx in the JSON envelope out", () => {
  it("covers every API and dashboard route", () => {
    expect(routes.length).toBeGreaterThan(25);
  });

  for (const file of routes) {
    it(`${file}`, async () => {
      await fc.assert(
        fc.asyncProperty(
          method,
          fc.array(segment, { minLength: 1, maxLength: 3 }),
          query,
          body,
          authorization,
          cookie,
          origin,
          async (m, segments, q, b, auth, cookieValue, originValue) => {
            const headers: Record<string, string> = { "x-forwarded-for": FUZZ_ADDRESS };
            if (auth !== undefined) headers.authorization = auth;
            if (cookieValue !== undefined)
              headers.cookie = cookieValue === "reviewer" ? reviewerCookie : cookieValue;
            if (originValue !== undefined)
              headers.origin = originValue === "same" ? baseUrl.origin : originValue;
            const withBody = m !== "GET" && m !== "HEAD" && m !== "OPTIONS";
            if (withBody && b.type) headers["content-type"] = b.type;
            const path = pathOf(file, segments) + q;
            const res = await send({ method: m, path, headers, body: withBody ? b.data : undefined });
            if (process.env.FUZZ_LOG)
              console.log(
                JSON.stringify({ m, path, headers, body: withBody ? b.data : undefined, status: res.status }),
              );
            const where = `${m} ${path} -> ${res.status} ${res.text.slice(0, 200)}`;
            expect(res.status, where).toBeLessThan(500);
            expect(res.status, where).toBeGreaterThanOrEqual(200);
            if (m === "HEAD" || m === "OPTIONS") return;
            // Exports answer a file when they succeed (errors are JSON like everywhere else).
            if (res.status === 200 && FILES[file]) {
              expect(res.type, where).toMatch(FILES[file]);
              return;
            }
            expect(res.type, where).toMatch(/^application\/json/);
            const parsed = JSON.parse(res.text) as { meta?: { code?: number; message?: unknown } };
            expect(parsed.meta?.code, where).toBe(res.status);
            if (res.status >= 400) expect(typeof parsed.meta?.message, where).toBe("string");
          },
        ),
        { seed, numRuns, endOnFailure: true },
      );
    });
  }
});
