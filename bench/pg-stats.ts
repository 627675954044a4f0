/**
 * Where PostgreSQL's time goes during a run (--pg-stats): its statements from pg_stat_statements
 * (when the server loads it: shared_preload_libraries = 'pg_stat_statements'), and what its
 * backends were doing, sampled every 50 ms from pg_stat_activity (on CPU, or waiting: on a lock,
 * on the client, on I/O…).
 */
export interface PgStats {
  /** the report: statements by total time, and the backends' states as sampled */
  stop(): Promise<string>;
}

export async function startPgStats(databaseUrl: string): Promise<PgStats> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let statements = true;
  try {
    await client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    await client.query("SELECT pg_stat_statements_reset()");
  } catch {
    statements = false;
  }
  const sampler = new pg.Client({ connectionString: databaseUrl });
  await sampler.connect();
  const states = new Map<string, number>();
  let samples = 0;
  let sampling = true;
  const sample = async () => {
    while (sampling) {
      const { rows } = await sampler.query<{ state: string }>(
        `SELECT COALESCE(wait_event_type || ':' || wait_event, 'on CPU') AS state FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active'`,
      );
      samples++;
      for (const r of rows) states.set(r.state, (states.get(r.state) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const running = sample();
  return {
    async stop() {
      sampling = false;
      await running;
      await sampler.end();
      const lines: string[] = [];
      const busy = [...states].sort((a, b) => b[1] - a[1]);
      lines.push(
        `PostgreSQL backends, sampled ${samples} times: active on average ` +
          `${(busy.reduce((n, [, c]) => n + c, 0) / Math.max(1, samples)).toFixed(2)}; ` +
          busy.map(([s, c]) => `${s} ${(c / Math.max(1, samples)).toFixed(2)}`).join(", ") +
          ".",
      );
      if (statements) {
        const { rows } = await client.query<{
          calls: string;
          total: number;
          mean: number;
          rows: string;
          hit: string;
          read: string;
          query: string;
        }>(
          `SELECT calls, total_exec_time AS total, mean_exec_time AS mean, rows,
                  shared_blks_hit AS hit, shared_blks_read AS read, query
           FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
           ORDER BY total_exec_time DESC LIMIT 12`,
        );
        const all = rows.reduce((t, r) => t + r.total, 0);
        lines.push(
          "| statement | calls | total ms | mean ms | rows/call | buffers hit/call | read/call |\n|---|---:|---:|---:|---:|---:|---:|\n" +
            rows
              .map(
                (r) =>
                  `| ${r.query.replace(/\s+/g, " ").replace(/\|/g, "/").slice(0, 110)} | ${r.calls} | ` +
                  `${Math.round(r.total)} | ${r.mean.toFixed(3)} | ${(Number(r.rows) / Number(r.calls)).toFixed(1)} | ` +
                  `${(Number(r.hit) / Number(r.calls)).toFixed(1)} | ${(Number(r.read) / Number(r.calls)).toFixed(2)} |`,
              )
              .join("\n") +
            `\n(the top 12 statements: ${Math.round(all)} ms of execution)`,
        );
      } else {
        lines.push(
          "pg_stat_statements is not loaded by this server (shared_preload_libraries): no statements.",
        );
      }
      await client.end();
      return lines.join("\n\n");
    },
  };
}
