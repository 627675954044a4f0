import { readFileSync, readdirSync } from "node:fs";
import autocannon from "autocannon";
import { statCpuSeconds } from "../server/metrics/metrics.mjs";

/** One measured scenario: throughput and latency percentiles from autocannon. */
export interface Measurement {
  name: string;
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU time the server process spent per request (user + system), when its pid is known */
  cpuMs?: number;
  /** CPU time PostgreSQL's processes on this machine spent per request, when it is the database */
  dbCpuMs?: number;
  /**
   * Each of the server's threads per request (http, tracking…), from its /metrics when they are
   * on: its CPU time (Linux) and its busy time (running or blocked, not waiting for work)
   */
  threadMs?: Record<string, { cpu?: number; busy: number }>;
}

/** Each thread's busy and CPU seconds so far, by thread (location_thread_busy_seconds_total, _cpu_). */
type ThreadSeconds = Map<string, { busy: number; cpu?: number }>;

/**
 * Each of the server's threads' busy and CPU seconds so far, from its GET /metrics (open to the
 * loopback); undefined when its metrics are off or it cannot be asked.
 */
export async function threadSeconds(origin: string): Promise<ThreadSeconds | undefined> {
  try {
    const res = await fetch(`${origin}/metrics`);
    if (!res.ok) return undefined;
    const seen: ThreadSeconds = new Map();
    for (const m of (await res.text()).matchAll(
      /^location_thread_(busy|cpu)_seconds_total\{thread="([^"]+)"\} (\S+)$/gm,
    )) {
      const t = seen.get(m[2]!) ?? { busy: 0 };
      t[m[1] as "busy" | "cpu"] = Number(m[3]);
      seen.set(m[2]!, t);
    }
    return seen;
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds a process has used (user + system), from /proc; undefined where there is no
 * /proc. Unlike throughput, this barely moves when the machine's other tenants take CPU time.
 */
export function cpuSeconds(pid: number): number | undefined {
  return statCpuSeconds(`/proc/${pid}/stat`);
}

/**
 * CPU seconds used so far by each of PostgreSQL's processes on this machine (every process named
 * `postgres`: the server, its background workers, the connections' backends), by pid, when the
 * benchmarks' database is a PostgreSQL on this machine; undefined otherwise.
 */
export function databaseCpu(): Map<number, number> | undefined {
  const url = process.env.TEST_POSTGRES_URL;
  if (!url || !/@(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(url)) return undefined;
  const used = new Map<number, number>();
  try {
    for (const name of readdirSync("/proc")) {
      if (!/^\d+$/.test(name)) continue;
      try {
        if (readFileSync(`/proc/${name}/comm`, "utf8").trim() !== "postgres") continue;
        const s = cpuSeconds(Number(name));
        if (s !== undefined) used.set(Number(name), s);
      } catch {
        // gone meanwhile
      }
    }
  } catch {
    return undefined;
  }
  return used;
}

/**
 * The CPU seconds PostgreSQL's processes used between two readings of databaseCpu(): a process
 * started meanwhile counts whole; one that ended meanwhile (an autovacuum worker, say) is left
 * out, so the figure is a floor.
 */
export function databaseCpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, s] of after) total += s - (before.get(pid) ?? 0);
  return total;
}

export interface Scenario {
  name: string;
  url: string;
  connections: number;
  /** seconds, unless `amount` is given */
  duration?: number;
  amount?: number;
  headers?: Record<string, string>;
  /**
   * the scenario measures error answers on purpose: every answer must have one of these statuses
   * (any other, 2xx included, counts as an error)
   */
  expectStatus?: number[];
  /** builds each request; called once per request */
  next?: () => { method?: string; path: string; body?: string };
}

export async function measure(s: Scenario, serverPid?: number): Promise<Measurement> {
  const origin = new URL(s.url).origin;
  const threadsBefore = serverPid ? await threadSeconds(origin) : undefined;
  const cpuBefore = serverPid ? cpuSeconds(serverPid) : undefined;
  const result = await autocannon({
    url: s.url,
    connections: s.connections,
    ...(s.amount ? { amount: s.amount } : { duration: s.duration ?? 5 }),
    headers: s.headers,
    requests: s.next
      ? [
          {
            setupRequest: (req) => {
              const r = s.next!();
              return { ...req, method: r.method ?? "GET", path: r.path, body: r.body } as typeof req;
            },
          },
        ]
      : undefined,
  });
  const cpuAfter = serverPid ? cpuSeconds(serverPid) : undefined;
  const threadsAfter = threadsBefore ? await threadSeconds(origin) : undefined;
  const total = result.requests.total;
  const unexpected =
    s.expectStatus === undefined
      ? result.non2xx
      : total -
        s.expectStatus.reduce(
          (n, code) => n + ((result.statusCodeStats as Record<string, { count: number }>)[code]?.count ?? 0),
          0,
        );
  const non2xx = Math.max(0, unexpected) + result.errors + result.timeouts;
  return {
    name: s.name,
    connections: s.connections,
    requests: result.requests.total,
    rps: Math.round(result.requests.total / result.duration),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: non2xx,
    ...(cpuBefore !== undefined && cpuAfter !== undefined && result.requests.total
      ? { cpuMs: Math.round((100_000 * (cpuAfter - cpuBefore)) / result.requests.total) / 100 }
      : {}),
    ...(threadsBefore && threadsAfter && total
      ? { threadMs: perRequest(threadsBefore, threadsAfter, total) }
      : {}),
  };
}

/** Each thread's seconds between two readings, in ms per request. */
function perRequest(before: ThreadSeconds, after: ThreadSeconds, requests: number) {
  const ms = (later: number, earlier: number | undefined) =>
    Math.round((100_000 * (later - (earlier ?? 0))) / requests) / 100;
  const per: NonNullable<Measurement["threadMs"]> = {};
  for (const [thread, t] of after) {
    const was = before.get(thread);
    per[thread] = {
      busy: ms(t.busy, was?.busy),
      ...(t.cpu === undefined ? {} : { cpu: ms(t.cpu, was?.cpu) }),
    };
  }
  return per;
}

/**
 * A measurement's threads per request, as "http 1.1 (1.2), tracking 0.6 (3.3)": each thread's CPU
 * ms (where known) and, in brackets, its busy ms; threads under 0.01 ms of both left out.
 */
export function threadsText(m: Measurement): string {
  return Object.entries(m.threadMs ?? {})
    .filter(([, t]) => t.busy >= 0.01 || (t.cpu ?? 0) >= 0.01)
    .map(([name, t]) => (t.cpu === undefined ? `${name} (${t.busy})` : `${name} ${t.cpu} (${t.busy})`))
    .join(", ");
}

export function table(rows: Measurement[], baselineRps: number): string {
  const lines = [
    "| scenario | connections | requests | req/s | vs no-op | p50 ms | p99 ms | server CPU ms/req | database CPU ms/req | threads' CPU (busy) ms/req | errors |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|",
  ];
  for (const r of rows) {
    const ratio = baselineRps ? `${Math.round((100 * r.rps) / baselineRps)}%` : "";
    lines.push(
      `| ${r.name} | ${r.connections} | ${r.requests} | ${r.rps} | ${ratio} | ${r.p50} | ${r.p99} | ${r.cpuMs ?? ""} | ${r.dbCpuMs ?? ""} | ${threadsText(r)} | ${r.errors} |`,
    );
  }
  return lines.join("\n");
}
