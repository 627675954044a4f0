import { AREA, geofenceBody, randomPoint, rng } from "./geofence-data";
import type { Bench } from "./suite";

/**
 * 10,000 geofences and 100,000 users are seeded in this process with the project's own domain
 * functions (the same code the API runs, minus HTTP), then a stream of updates from many
 * devices is measured through POST /v1/track.
 */
export async function trackingSuite(b: Bench, geofences: number, users: number): Promise<void> {
  const { server } = b;
  const { createGeofence } = await import("../server/geofences/write");
  const { geofenceWriteSchema } = await import("../server/geofences/schema");
  const { track } = await import("../server/tracking/track");
  const { trackSchema } = await import("../server/tracking/schema");
  const key = { id: "bench", kind: "secret" as const, live: false };
  const auth = { authorization: server.keys.publishable, "content-type": "application/json" };

  // The floor of any POST: key check, body read and validation, answered 400 before any work.
  const invalid = JSON.stringify({ deviceId: "floor", latitude: 100, longitude: 0, accuracy: 10 });
  await b.run({
    name: "POST /v1/track, invalid (floor: key, body, validation)",
    url: server.url,
    headers: auth,
    connections: b.connections,
    duration: b.duration,
    expectErrors: true,
    next: () => ({ method: "POST", path: "/v1/track", body: invalid }),
  });

  let t = Date.now();
  const r = rng(42);
  for (let i = 0; i < geofences; i++)
    await createGeofence(key, geofenceWriteSchema.parse(geofenceBody(i, r)));
  console.log(`  seeded ${geofences} geofences in ${((Date.now() - t) / 1000).toFixed(1)} s`);

  t = Date.now();
  const start = Date.now() - 3_600_000;
  const positions: [number, number][] = [];
  for (let i = 0; i < users; i++) {
    const [lng, lat] = randomPoint(r);
    positions.push([lng, lat]);
    await track(
      key,
      trackSchema.parse({
        deviceId: `device-${i}`,
        latitude: lat,
        longitude: lng,
        accuracy: 20,
        updatedAt: start + i,
      }),
    );
  }
  const seeded = (Date.now() - t) / 1000;
  console.log(
    `  seeded ${users} users in ${seeded.toFixed(1)} s (${Math.round(users / seeded)} updates/s in-process)`,
  );

  // Each update moves a random device up to ~200 m from where it was.
  const pick = rng(9);
  const step = 200 / 111_195;
  const next = () => {
    const i = Math.floor(pick() * users);
    const p = positions[i]!;
    p[0] = Math.min(AREA.maxLng, Math.max(AREA.minLng, p[0] + (pick() - 0.5) * 2 * step));
    p[1] = Math.min(AREA.maxLat, Math.max(AREA.minLat, p[1] + (pick() - 0.5) * 2 * step));
    const body = JSON.stringify({
      deviceId: `device-${i}`,
      latitude: p[1],
      longitude: p[0],
      accuracy: 10 + pick() * 40,
    });
    return { method: "POST", path: "/v1/track", body };
  };
  await b.runBoth({
    name: `POST /v1/track (${geofences} geofences, ${users} users)`,
    url: server.url,
    headers: auth,
    next,
  });
}
