import "../scripts/load-env";
import { migrate } from "../scripts/migrate";

/**
 * npm run db:seed — demo data in the test world, safe to run again: three geofences in
 * Manhattan (tag "demo", replaced by upsert) and a demo device walking through them.
 */

const key = { id: "seed", kind: "secret" as const, live: false };

const geofences = [
  {
    externalId: "flagship",
    description: "Flagship store",
    type: "circle",
    coordinates: [-73.9754, 40.7838],
    radius: 120,
  },
  {
    externalId: "cafe",
    description: "Corner café",
    type: "circle",
    coordinates: [-73.9772, 40.7812],
    radius: 40,
  },
  {
    externalId: "park-block",
    description: "Park block",
    type: "polygon",
    coordinates: [
      [-73.9738, 40.7795],
      [-73.9712, 40.7831],
      [-73.9676, 40.7816],
      [-73.9702, 40.778],
    ],
  },
];

const walk: [number, number][] = [
  [40.7801, -73.9805],
  [40.7812, -73.9772],
  [40.7838, -73.9754],
  [40.7839, -73.9752],
  [40.781, -73.9705],
  [40.7776, -73.966],
];

async function main() {
  await migrate();
  const { geofenceWriteSchema } = await import("../server/geofences/schema");
  const { upsertGeofence } = await import("../server/geofences/write");
  const { trackSchema } = await import("../server/tracking/schema");
  const { track } = await import("../server/tracking/track");
  const { ensureInitialKeys } = await import("../server/setup/first-run");

  const keys = await ensureInitialKeys();
  if (keys)
    console.log(
      `Created test keys (shown once):\n  secret      ${keys.secret}\n  publishable ${keys.publishable}`,
    );
  for (const g of geofences) {
    await upsertGeofence(key, "demo", g.externalId, geofenceWriteSchema.parse({ ...g, tag: "demo" }));
  }
  console.log(`Geofences: ${geofences.length} with tag "demo"`);
  const start = Date.now() - walk.length * 3 * 60_000;
  let events = 0;
  for (const [i, [latitude, longitude]] of walk.entries()) {
    const update = trackSchema.parse({
      deviceId: "demo-device",
      userId: "demo-user",
      description: "Demo walker",
      latitude,
      longitude,
      accuracy: 15,
      updatedAt: new Date(start + i * 3 * 60_000).toISOString(),
    });
    events += (await track(key, update)).events.length;
  }
  console.log(`Tracked demo-user through ${walk.length} updates: ${events} new events (none when run again)`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  },
);
