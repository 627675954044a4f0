// @ts-check
/**
 * The service's metrics (docs/deployment.md#metrics), with prom-client: every metric is defined
 * here, once per thread, in that thread's registry. The server's thread answers GET /metrics
 * (scripts/serve.mjs) with its own registry merged with those of the process's worker threads
 * (tracking, webhook sender, routing), each asked over a port of its own (threadMetricsPort), so
 * the tracking thread's and the sender's counts are in the answer without crossing threads on
 * every update.
 *
 * Plain JavaScript, so that the HTTP server in front of Next.js measures requests with the same
 * registry the routes count into.
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { MessageChannel } from "node:worker_threads";
import client from "prom-client";

/**
 * Figures read when the metrics are asked for, which the layers above provide (a layer this
 * one may not import): the webhook outbox's depth from the database, a PostgreSQL pool's size.
 * @typedef {{
 *   outboxDepth?: () => Promise<{ outbox: number, queued: number }>,
 *   pool?: () => { total: number, idle: number, waiting: number },
 * }} Readings
 */

/**
 * The CPU seconds (user and system) a Linux stat file says were used: /proc/PID/stat for a
 * process, /proc/thread-self/stat for the calling thread (read synchronously: an asynchronous
 * read would run on another thread); undefined where there is no such file.
 * @param {string} file
 * @returns {number | undefined}
 */
export function statCpuSeconds(file) {
  try {
    const stat = readFileSync(file, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime, fields 14 and 15 of proc(5), in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * @param {client.Registry} registry @param {Readings} readings
 * @param {{ name: string }} self this thread's name in location_thread_busy_seconds_total and _cpu_
 */
function define(registry, readings, self) {
  const registers = [registry];
  return {
    threadBusy: new client.Counter({
      name: "location_thread_busy_seconds_total",
      help: "Time each thread of the process spent running code or blocked in it, not waiting for work (its event loop's active time), by thread: http (the server's, which answers every request), tracking, webhooks (the sender), routing. A thread that adds about a second per second is saturated.",
      labelNames: ["thread"],
      registers,
      collect() {
        this.reset();
        this.inc({ thread: self.name }, performance.eventLoopUtilization().active / 1000);
      },
    }),
    threadCpu: new client.Counter({
      name: "location_thread_cpu_seconds_total",
      help: "CPU time each thread of the process used (user and system), by thread as in location_thread_busy_seconds_total. Linux only.",
      labelNames: ["thread"],
      registers,
      collect() {
        const seconds = statCpuSeconds("/proc/thread-self/stat");
        if (seconds === undefined) return;
        this.reset();
        this.inc({ thread: self.name }, seconds);
      },
    }),
    httpDuration: new client.Histogram({
      name: "http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its answer, by route template, method and status.",
      labelNames: ["route", "method", "status"],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    trackingUpdates: new client.Counter({
      name: "location_tracking_updates_total",
      help: "Location updates applied (POST /v1/track, replays included).",
      registers,
    }),
    trackingBatchSize: new client.Histogram({
      name: "location_tracking_batch_size",
      help: "Updates written in one tracking transaction.",
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
      registers,
    }),
    events: new client.Counter({
      name: "location_events_total",
      help: "Events written, by type.",
      labelNames: ["type"],
      registers,
    }),
    outboxDepth: new client.Gauge({
      name: "location_webhook_outbox_depth",
      help: "Webhook requests not yet delivered: outbox rows not yet sent by the process that wrote them (stage=outbox) and requests waiting in their queues (stage=queued). The database's figure: every process reports the same.",
      labelNames: ["stage"],
      registers,
      async collect() {
        if (!readings.outboxDepth) return;
        const depth = await readings.outboxDepth();
        this.set({ stage: "outbox" }, depth.outbox);
        this.set({ stage: "queued" }, depth.queued);
      },
    }),
    webhookDeliveries: new client.Counter({
      name: "location_webhook_deliveries_total",
      help: "Webhook attempts, by result: delivered (2xx), refused (another status; retried), error (no answer; retried), failed (given up).",
      labelNames: ["result"],
      registers,
    }),
    webhookLag: new client.Histogram({
      name: "location_webhook_lag_seconds",
      help: "Time from an event's write to its webhook request's delivery.",
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 86400],
      registers,
    }),
    rateLimited: new client.Counter({
      name: "location_rate_limited_total",
      help: "Requests refused with 429, by limit (key, device, address, signIn, logLines).",
      labelNames: ["limit"],
      registers,
    }),
    keyCacheHits: new client.Counter({
      name: "location_key_cache_hits_total",
      help: "API keys found in the process's key cache.",
      registers,
    }),
    keyCacheMisses: new client.Counter({
      name: "location_key_cache_misses_total",
      help: "API keys looked up in the database.",
      registers,
    }),
    pool: new client.Gauge({
      name: "location_db_pool_connections",
      help: "PostgreSQL connections of the process's pools, by state (total, idle, waiting: requests waiting for one).",
      labelNames: ["state"],
      registers,
      collect() {
        if (!readings.pool) return;
        const p = readings.pool();
        this.set({ state: "total" }, p.total);
        this.set({ state: "idle" }, p.idle);
        this.set({ state: "waiting" }, p.waiting);
      },
    }),
  };
}

/**
 * @typedef {{
 *   registry: client.Registry,
 *   readings: Readings,
 *   metrics: ReturnType<typeof define>,
 *   ports: Set<import("node:worker_threads").MessagePort>,
 *   asked: number,
 *   self: { name: string },
 * }} ThreadMetrics
 */
const shared = /** @type {{ threadMetrics?: ThreadMetrics }} */ (globalThis);

/** @returns {ThreadMetrics} */
function thread() {
  if (!shared.threadMetrics) {
    const registry = new client.Registry();
    /** @type {Readings} */
    const readings = {};
    const self = { name: "main" };
    shared.threadMetrics = {
      registry,
      readings,
      metrics: define(registry, readings, self),
      ports: new Set(),
      asked: 0,
      self,
    };
  }
  return shared.threadMetrics;
}

/** METRICS=off: nothing is counted or measured, and GET /metrics answers 404. */
export const metricsOff = (process.env.METRICS ?? "").trim().toLowerCase() === "off";

const NOTHING = { inc() {}, observe() {}, set() {} };

/** This thread's metrics, to count and observe into (with METRICS=off, calls that do nothing). */
export const metrics = metricsOff
  ? /** @type {ThreadMetrics["metrics"]} */ (/** @type {unknown} */ (new Proxy({}, { get: () => NOTHING })))
  : thread().metrics;

/** Provides a figure read at each scrape (see Readings). */
export function provide(/** @type {Readings} */ readings) {
  Object.assign(thread().readings, readings);
}

/**
 * The process's own metrics (CPU, memory, event-loop lag, GC), on the server's thread only, which
 * is named `http` in location_thread_busy_seconds_total.
 */
export function collectProcessMetrics() {
  if (metricsOff) return;
  thread().self.name = "http";
  client.collectDefaultMetrics({ register: thread().registry });
}

/**
 * A port for a worker thread being started, handed to it in its workerData: the worker serves
 * its metrics on it (serveThreadMetrics), and this thread asks for them at each scrape.
 */
export function threadMetricsPort() {
  const { port1, port2 } = new MessageChannel();
  const ports = thread().ports;
  ports.add(port1);
  port1.on("close", () => ports.delete(port1));
  port1.unref();
  return port2;
}

/**
 * In a worker thread: answers the server's thread with this thread's metrics, `name` being the
 * thread's label in location_thread_busy_seconds_total (tracking, routing).
 */
export function serveThreadMetrics(
  /** @type {import("node:worker_threads").MessagePort} */ port,
  /** @type {string} */ name,
) {
  const { registry, self } = thread();
  self.name = name;
  port.on("message", (/** @type {{ id: number }} */ ask) => {
    void registry.getMetricsAsJSON().then(
      (values) => port.postMessage({ id: ask.id, values }),
      () => port.postMessage({ id: ask.id, values: [] }),
    );
  });
  port.unref();
}

/** How long a scrape waits for a worker thread busy with a long task. */
const THREAD_WAIT_MS = 2000;

/** @param {import("node:worker_threads").MessagePort} port @returns {Promise<client.MetricObjectWithValues<client.MetricValue<string>>[]>} */
function ask(port) {
  const state = thread();
  const id = ++state.asked;
  return new Promise((resolve) => {
    const timer = setTimeout(() => done([]), THREAD_WAIT_MS);
    /** @param {any} values */
    function done(values) {
      clearTimeout(timer);
      port.off("message", answer);
      resolve(values);
    }
    /** @param {{ id: number, values: any }} m */
    function answer(m) {
      if (m.id === id) done(m.values);
    }
    port.on("message", answer);
    port.postMessage({ id });
  });
}

/** The process's metrics in Prometheus's text format: this thread's and its worker threads'. */
export async function metricsText() {
  const state = thread();
  const values = await Promise.all([state.registry.getMetricsAsJSON(), ...[...state.ports].map(ask)]);
  const merged = client.AggregatorRegistry.aggregate(values);
  return { contentType: state.registry.contentType, text: await merged.metrics() };
}
