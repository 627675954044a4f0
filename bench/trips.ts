import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { importOsm } from "../server/imports/osm-import";
import { rng } from "./geofence-data";
import type { Bench } from "./suite";

/**
 * Tracking of users on trips against tracking of users on none, in the same rounds:
 * the shared Andorra extract imported, devices spread over the valley of Andorra la Vella and
 * Escaldes, half of them on a car trip to one of 50 destination geofences. A trip user's update
 * also asks a routing worker for the road ETA (before its transaction), reads and writes the trip
 * and makes a trip event; the others pay one index lookup that finds nothing.
 */

const EXTRACT = path.resolve("../shared/data/osm/andorra-2013.osm.pbf");
const VALLEY: [number, number, number, number] = [1.5, 42.5, 1.56, 42.53];
const PROBE = "42.5063,1.5218|42.5096,1.5387";

export async function tripRounds(b: Bench, users: number): Promise<void> {
  if (!existsSync(EXTRACT)) {
    b.note(`Trips: ${EXTRACT} is absent; the trips benchmark did not run.`);
    return;
  }
  // The server's own geodata folder (on either engine).
  const geodata = b.server.geodataDir;
  mkdirSync(geodata, { recursive: true });
  await importOsm(EXTRACT, { dir: geodata });
  const secret = { authorization: b.server.keys.secret, "content-type": "application/json" };
  const [origin, destination] = PROBE.split("|");
  for (let i = 0; ; i++) {
    const res = await fetch(
      `${b.server.url}/v1/route/distance?origin=${origin}&destination=${destination}&modes=car`,
      {
        headers: secret,
      },
    );
    if (((await res.json()) as { routes?: { car?: { distance?: unknown } } }).routes?.car?.distance) break;
    if (i > 100) throw new Error("the server did not pick up the Andorra import");
    await new Promise((r) => setTimeout(r, 200));
  }
  const r = rng(30);
  const point = (): [number, number] => [
    VALLEY[0] + r() * (VALLEY[2] - VALLEY[0]),
    VALLEY[1] + r() * (VALLEY[3] - VALLEY[1]),
  ];
  const post = async (p: string, body: unknown) => {
    const res = await fetch(`${b.server.url}${p}`, {
      method: p.startsWith("/v1/geofences/") ? "PUT" : "POST",
      headers: secret,
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
  };
  for (let d = 0; d < 50; d++) {
    const [lng, lat] = point();
    await post(`/v1/geofences/bench-dropoff/${d}`, {
      description: `Drop-off ${d}`,
      type: "circle",
      coordinates: [lng, lat],
      radius: 60,
    });
  }
  const positions: [number, number][] = [];
  const t = Date.now();
  for (let i = 0; i < users; i++) {
    positions.push(point());
    const [lng, lat] = positions[i]!;
    await post("/v1/track", {
      deviceId: `d-${i}`,
      userId: `u-${i}`,
      latitude: lat,
      longitude: lng,
      accuracy: 10,
    });
    if (i % 2 === 1) {
      await post("/v1/trips", {
        externalId: `bench-trip-${i}`,
        userId: `u-${i}`,
        destinationGeofenceTag: "bench-dropoff",
        destinationGeofenceExternalId: String(i % 50),
        mode: "car",
        approachingThreshold: 1,
      });
    }
  }
  console.log(
    `  seeded ${users} users, ${Math.floor(users / 2)} on trips, in ${((Date.now() - t) / 1000).toFixed(1)} s`,
  );
  const auth = { authorization: b.server.keys.publishable, "content-type": "application/json" };
  const pick = rng(31);
  const step = 100 / 111_195;
  /** Moves a random device of the half (odd: on trips) about 100 m. */
  const mover = (onTrips: boolean) => () => {
    const i = 2 * Math.floor((pick() * users) / 2) + (onTrips ? 1 : 0);
    const p = positions[Math.min(i, users - 1)]!;
    p[0] = Math.min(VALLEY[2], Math.max(VALLEY[0], p[0] + (pick() - 0.5) * 2 * step));
    p[1] = Math.min(VALLEY[3], Math.max(VALLEY[1], p[1] + (pick() - 0.5) * 2 * step));
    const body = JSON.stringify({
      deviceId: `d-${i}`,
      userId: `u-${i}`,
      latitude: p[1],
      longitude: p[0],
      accuracy: 10,
    });
    return { method: "POST", path: "/v1/track", body };
  };
  const ratios: number[] = [];
  const cpu: number[] = [];
  for (let round = 1; round <= b.rounds; round++) {
    const runs = [];
    // The order alternates, so neither side always runs second.
    for (const onTrips of round % 2 ? [false, true] : [true, false]) {
      runs.push({
        onTrips,
        m: await b.run({
          name: `POST /v1/track, users ${onTrips ? "on car trips" : "on no trip"} (Andorra), round ${round}`,
          url: b.server.url,
          headers: auth,
          connections: b.connections,
          duration: b.duration,
          next: mover(onTrips),
        }),
      });
    }
    const trip = runs.find((x) => x.onTrips)!.m;
    const plain = runs.find((x) => !x.onTrips)!.m;
    ratios.push(trip.rps / plain.rps);
    if (trip.cpuMs && plain.cpuMs) cpu.push(plain.cpuMs / trip.cpuMs);
  }
  const sources = await fetch(`${b.server.url}/v1/trips?limit=1000`, { headers: secret }).then(
    (res) => res.json() as Promise<{ trips: { eta?: { source: string } }[] }>,
  );
  const road = sources.trips.filter((x) => x.eta?.source === "road").length;
  const pct = (x: number) => `${Math.round(100 * x)}%`;
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  b.note(
    `Tracking users on car trips vs users on none, same rounds: ${ratios.map(pct).join(", ")} ` +
      `(median ${pct(median(ratios))}).` +
      (cpu.length
        ? ` Server CPU per update, none / on a trip: ${cpu.map(pct).join(", ")} (median ${pct(median(cpu))}).`
        : "") +
      ` ETAs by road: ${road} of ${sources.trips.length} trips (the others: no road within 1 km, or not yet updated).`,
  );
}
