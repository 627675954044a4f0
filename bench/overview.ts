import { FRESH_ACCOUNTS, FRESH_PASSWORD } from "../scripts/fresh-server";
import { sequentialAgainstConfig } from "./against-config";
import type { Bench } from "./suite";
import { seedLayout } from "./tracking";

/**
 * `npm run bench -- overview --dense`: the overview page's cost on the tracking bench's layout
 * (10,000 geofences, 100,000 users tracked an hour ago, every one of their events unverified).
 * Each figure's query timed in this process on the server's database (median and worst of 50),
 * then GET /api/overview over HTTP, one request at a time, against the key-checked GET /v1/config
 * in the same run.
 */
export async function overviewSuite(b: Bench, geofences: number, users: number): Promise<void> {
  await seedLayout(b, geofences, users);
  const { storage } = await import("../server/storage");
  const { ACTIVE_STATUSES } = await import("../server/tracking/trips/model");
  const { overview, webhooks } = storage();
  const now = new Date();
  const hourAgo = new Date(now.getTime() - 3_600_000);
  const dayAgo = new Date(now.getTime() - 86_400_000);
  const figures: [string, () => Promise<unknown>][] = [
    ["users tracked in the last hour and day", () => overview.trackedUsers(false, [hourAgo, dayAgo])],
    ["events per hour and type, 24 hours", () => overview.eventsPerHour(false, dayAgo)],
    ["review queue (count up to 10,001, oldest)", () => overview.reviewQueue(false, 10_001)],
    ["trips active and delayed", () => overview.trips(false, ACTIVE_STATUSES)],
    ["webhook backlogs", () => overview.webhookBacklogs(dayAgo)],
    ["app processes", () => webhooks.sendersAlive(now)],
  ];
  const lines = ["| figure | median ms | worst ms | answer |", "|---|---:|---:|---|"];
  for (const [name, query] of figures) {
    const times: number[] = [];
    let answer: unknown;
    for (let i = 0; i < 50; i++) {
      const t = performance.now();
      answer = await query();
      times.push(performance.now() - t);
    }
    times.sort((x, y) => x - y);
    const shown = JSON.stringify(answer);
    lines.push(
      `| ${name} | ${times[25]!.toFixed(2)} | ${times.at(-1)!.toFixed(2)} | ${shown.length > 60 ? `${shown.slice(0, 57)}…` : shown} |`,
    );
  }
  console.log(`\n${lines.join("\n")}\n`);
  b.note(lines.join("\n"));

  const signIn = await fetch(`${b.server.url}/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: b.server.url },
    body: JSON.stringify({ email: FRESH_ACCOUNTS.admin, password: FRESH_PASSWORD }),
  });
  if (!signIn.ok) throw new Error(`sign-in: ${signIn.status}`);
  const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
  const line = await sequentialAgainstConfig(
    b,
    "GET /api/overview",
    // The key for GET /v1/config; the session for the overview (dashboard routes take no key).
    { authorization: b.server.keys.secret, cookie },
    () => "/api/overview",
    300,
  );
  console.log(line);
  b.note(line);
}
