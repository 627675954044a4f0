import { z } from "zod";
import { DEFAULT_DATABASE_URL } from "./database-url";
import { LOG_LEVELS } from "../log/logger.mjs";

/**
 * Every environment variable the service reads (.env.example documents each), validated once: a
 * bad value stops `npm start`, the server (instrumentation.ts) and the CLIs with a message naming
 * the variable, what it holds and what it must be, instead of failing later on some request.
 */

const wholeNumber = (min: number, max: number, what: string) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `must be ${what}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `must be ${what}`);

const yesNo = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => ["", "true", "1", "yes", "false", "0", "no"].includes(v), "must be true or false")
  .transform((v) => ["true", "1", "yes"].includes(v));

/** Unset and empty are the same: the default. */
const withDefault = <T extends z.ZodType>(schema: T, fallback: string) =>
  z.preprocess((v) => (v === undefined || v === "" ? fallback : v), schema);
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === "" ? undefined : v), schema.optional());

/** A number of days, fractions allowed (the tests keep seconds): 0.00001 to 36500. */
const days = z
  .string()
  .trim()
  .regex(/^\d*\.?\d+$/, "must be a number of days from 0.00001 to 36500")
  .transform(Number)
  .refine((n) => n >= 0.00001 && n <= 36_500, "must be a number of days from 0.00001 to 36500");

/**
 * A rate limit: "R/s" (R requests a second), or "R/s+B/min" (and B more a minute beyond it: the
 * burst a client may spend when it is over R a second). "off": no limit.
 */
const rate = z
  .string()
  .trim()
  .regex(/^(off|\d+(\.\d+)?\/s(\+\d+\/min)?)$/, 'must be "R/s" or "R/s+B/min" (whole B), or "off"')
  .transform((v) => {
    if (v === "off") return null;
    const [, perSecond, , burst] = /^(\d+(?:\.\d+)?)\/s(\+(\d+)\/min)?$/.exec(v)!;
    return { perSecond: Number(perSecond), perMinute: Number(burst ?? 0) };
  });

const schema = z.object({
  DATABASE_URL: withDefault(
    z
      .string()
      .refine(
        (v) => /^(file:|postgres(ql)?:\/\/)/i.test(v),
        "must be file:PATH (SQLite) or postgres://USER:PASSWORD@HOST/DATABASE",
      ),
    DEFAULT_DATABASE_URL,
  ),
  PORT: withDefault(wholeNumber(1, 65535, "a port number from 1 to 65535"), "3000"),
  HOST: withDefault(z.string().trim().min(1), "0.0.0.0"),
  /** Largest request body accepted, in bytes; larger ones get a 413. */
  MAX_BODY_BYTES: withDefault(
    wholeNumber(1024, 1024 ** 3, "a whole number of bytes from 1024 (1 KiB) to 1073741824 (1 GiB)"),
    String(1024 * 1024),
  ),
  /** The dashboard map's tiles ({z}/{x}/{y}); without them a bundled world map still shows. */
  TILE_URL: withDefault(
    z.string().refine((v) => ["{z}", "{x}", "{y}"].every((p) => v.includes(p)), "must hold {z}, {x} and {y}"),
    "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
  ),
  TILE_ATTRIBUTION: withDefault(
    z.string(),
    '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
  ),
  /** PostgreSQL connections per pool (each app process keeps two: server thread, tracking thread). */
  PG_POOL_SIZE: withDefault(wholeNumber(1, 1000, "a whole number of connections from 1 to 1000"), "10"),
  /** Routing worker threads; unset: the cores less one, 1 to 4. */
  ROUTING_WORKERS: optional(wholeNumber(1, 64, "a whole number of threads from 1 to 64")),
  /** The most cells (origins × destinations) a route matrix may have: Radar's 625 unless raised. */
  ROUTE_MATRIX_MAX_CELLS: withDefault(
    wholeNumber(1, 1_000_000, "a whole number of cells from 1 to 1000000"),
    "625",
  ),
  COOKIE_SECURE: withDefault(yesNo, "false"),
  /** How many reverse proxies append to X-Forwarded-For (true: one); read by scripts/serve.mjs. */
  TRUST_PROXY: withDefault(
    z
      .string()
      .trim()
      .toLowerCase()
      .refine(
        (v) => /^(true|false|yes|no|\d{1,2})$/.test(v),
        "must be true, false or a number of proxies (0 to 99)",
      )
      .transform((v) => (v === "true" || v === "yes" ? 1 : v === "false" || v === "no" ? 0 : Number(v))),
    "false",
  ),
  /** How much the log says (docs/deployment.md#logs). */
  LOG_LEVEL: withDefault(
    z
      .string()
      .trim()
      .toLowerCase()
      .refine((v) => LOG_LEVELS.includes(v), `must be ${LOG_LEVELS.join(", ")}`),
    "info",
  ),
  /** json: one JSON object per line; pretty: lines for people. Unset: pretty on a terminal and in development. */
  LOG_FORMAT: optional(z.enum(["json", "pretty"], { message: "must be json or pretty" })),
  /** off: nothing is counted or measured, GET /metrics answers 404 (docs/deployment.md#metrics). */
  METRICS: withDefault(z.enum(["on", "off"], { message: "must be on or off" }), "on"),
  /** The bearer token GET /metrics asks of callers not on the loopback (unset: loopback only). */
  METRICS_TOKEN: optional(z.string().min(16, "must be at least 16 characters")),
  /**
   * true: the embedded datasets (countries and states, ZIP codes, cities, the address parser) load
   * before the server listens, so no request waits for one; false: each loads on its first use,
   * in each thread that uses it (docs/deployment.md#memory-and-start).
   */
  PRELOAD_DATASETS: withDefault(yesNo, "true"),
  /** Where imported geodata bundles live (docs/data.md). */
  GEODATA_DIR: optional(z.string()),
  /** An MMDB file for IP geocoding instead of the bundled one. */
  IP_DATABASE: optional(z.string()),
  /** Webhooks may call loopback and private addresses (development, tests, private receivers). */
  WEBHOOKS_ALLOW_PRIVATE: withDefault(yesNo, "false"),
  /**
   * Multiplies every wait of the webhook retry schedule (30 s, doubling to 1 h, given up after
   * 24 h): tests and development shorten it.
   */
  WEBHOOKS_RETRY_SCALE: withDefault(
    z
      .string()
      .trim()
      .regex(/^\d*\.?\d+$/, "must be a number from 0.00001 to 1")
      .transform(Number)
      .refine((n) => n >= 0.00001 && n <= 1, "must be a number from 0.00001 to 1"),
    "1",
  ),
  /** Days of users' location trails kept; older points are pruned in the background. */
  TRAIL_DAYS: withDefault(days, "30"),
  /** Hours after its creation a trip that has not ended becomes expired. */
  TRIP_EXPIRY_HOURS: withDefault(wholeNumber(1, 8760, "a whole number of hours from 1 to 8760"), "24"),
  /** Days of SDK log lines kept (POST /v1/logs); older lines are pruned in the background. */
  LOG_DAYS: withDefault(days, "7"),
  /**
   * Rate limits (docs/security.md#rate-limits): "off" turns every limit off (load tests, scripted
   * drives). Each app process enforces its share of a limit (divided by the processes alive on
   * the database), so a limit holds across the processes behind a balancer.
   */
  RATE_LIMITS: withDefault(z.enum(["on", "off"], { error: () => "must be on or off" }), "on"),
  /** Per device (each of its deviceId, installId and userId) on the routes devices call. */
  RATE_LIMIT_DEVICE: withDefault(rate, "5/s+60/min"),
  /** Per API key, on every /v1 route. */
  RATE_LIMIT_KEY: withDefault(rate, "10000/s+100000/min"),
  /** Per client address, for requests without a valid key (each costs a key lookup). */
  RATE_LIMIT_ADDRESS: withDefault(rate, "10/s+100/min"),
  /** Per client address, for dashboard sign-ins (besides the per-account backoff). */
  RATE_LIMIT_SIGN_IN: withDefault(rate, "5/s+300/min"),
  /** SDK log lines a key may store in a day (POST /v1/logs), in all. */
  LOG_LINES_PER_KEY_PER_DAY: withDefault(
    wholeNumber(1, 1_000_000_000, "a whole number of lines from 1 to 1000000000"),
    "200000",
  ),
  /** Days a webhook delivery is kept once delivered or given up (the Webhooks page's record). */
  WEBHOOKS_KEEP_DAYS: withDefault(wholeNumber(1, 3650, "a whole number of days from 1 to 3650"), "7"),
});

export type Env = z.output<typeof schema>;

let cached: Env | undefined;

/** The problems with the environment, one line each ("" when there are none). */
export function environmentProblems(vars: Record<string, string | undefined> = process.env): string {
  const parsed = schema.safeParse(vars);
  if (parsed.success) return "";
  return parsed.error.issues
    .map((i) => {
      const name = String(i.path[0]);
      return `  ${name}=${JSON.stringify(vars[name] ?? "")}: ${i.message}`;
    })
    .join("\n");
}

/** Environment, validated once; a bad value throws a readable message. */
export function env(): Env {
  if (cached) return cached;
  const problems = environmentProblems();
  if (problems) {
    throw new Error(`Invalid environment (fix these, or unset them for the defaults):\n${problems}`);
  }
  cached = schema.parse(process.env);
  return cached;
}
