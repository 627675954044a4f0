import { describe, expect, it } from "vitest";
import { api, keys, unique } from "../support/api";
import { dbNumber } from "../support/db";

/**
 * Requests that race each other on one record, as two app processes or a retrying client make
 * them: each answer tells the truth about what it did, and nothing is left half-written.
 */

type User = { _id: string; deviceId: string };
type Event = { _id: string; type: string; user: { _id: string } };

const track = (deviceId: string, latitude: number) =>
  api("POST", "/v1/track", {
    json: { deviceId, latitude, longitude: 9.52, accuracy: 10 },
    key: keys.publishable,
  });

/** Six copies of one DELETE at once: exactly one removes the record; the others find none. */
async function deleteSixTimes(path: string) {
  const answers = await Promise.all(Array.from({ length: 6 }, () => api("DELETE", path)));
  const statuses = answers.map((a) => a.status).sort();
  expect(statuses, path).toEqual([200, 404, 404, 404, 404, 404]);
  for (const a of answers.filter((r) => r.status === 404)) expect(a.body.meta.message).toMatch(/not found/i);
  expect((await api("GET", path)).status).toBe(404);
}

describe("races", () => {
  it("a location update racing the deletion of its user answers cleanly and leaves no event without its user", async () => {
    // The move enters a geofence, so the update writes an event of its user.
    const fence = await api("POST", "/v1/geofences", {
      json: { description: "race", type: "circle", coordinates: [9.52, 47.15], radius: 200 },
    });
    expect(fence.status).toBe(200);
    for (let trial = 0; trial < 40; trial++) {
      const deviceId = unique("race");
      const first = await track(deviceId, 47.14);
      expect(first.status).toBe(200);
      const firstId = (first.body.user as User)._id;
      // The delete is sent a little later in each trial, so that over the trials it lands at
      // every point of the update's transaction.
      const [moved, deleted] = await Promise.all([
        track(deviceId, 47.15),
        new Promise((r) => setTimeout(r, trial % 10)).then(() => api("DELETE", `/v1/users/${deviceId}`)),
      ]);
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect([200, 404], JSON.stringify(deleted.body)).toContain(deleted.status);
      const movedUser = (moved.body.user as User)._id;
      // Either the update came first and the delete removed it all, or the delete came first and
      // the update made a new user: the first user's events are gone either way.
      const left = (await api("GET", `/v1/events?userId=${firstId}&limit=1000`)).body.events as Event[];
      const now = await api("GET", `/v1/users/${deviceId}`);
      if (movedUser === firstId) {
        expect(deleted.status).toBe(200);
        expect(now.status).toBe(404);
        expect(left).toEqual([]);
      } else {
        expect(now.status).toBe(200);
        expect((now.body.user as User)._id).toBe(movedUser);
        expect(left).toEqual([]);
        const mine = (await api("GET", `/v1/events?userId=${movedUser}&limit=1000`)).body.events as Event[];
        expect(mine.length, "the new user's own region entries").toBeGreaterThan(0);
      }
    }
  }, 120_000);

  it("one of six concurrent deletes of an event, a user or a geofence answers 200, the others 404", async () => {
    const deviceId = unique("del");
    const tracked = await track(deviceId, 47.16);
    const events = tracked.body.events as Event[];
    expect(events.length).toBeGreaterThan(0);
    await deleteSixTimes(`/v1/events/${events[0]!._id}`);
    await deleteSixTimes(`/v1/users/${(tracked.body.user as User)._id}`);

    const tag = unique("race");
    const made = await api("POST", "/v1/geofences", {
      json: {
        description: "race",
        type: "circle",
        coordinates: [9.5, 47.1],
        radius: 50,
        tag,
        externalId: "1",
      },
    });
    expect(made.status).toBe(200);
    await deleteSixTimes(`/v1/geofences/${tag}/1`);
    const other = await api("POST", "/v1/geofences", {
      json: { description: "race", type: "circle", coordinates: [9.5, 47.1], radius: 50 },
    });
    await deleteSixTimes(`/v1/geofences/${(other.body.geofence as { _id: string })._id}`);
  });

  it("a verification racing the deletion of its event answers 200 or 404, never 500", async () => {
    for (let trial = 0; trial < 10; trial++) {
      const tracked = await track(unique("verify"), 47.17);
      const id = (tracked.body.events as Event[])[0]!._id;
      const [verified, deleted] = await Promise.all([
        api("PUT", `/v1/events/${id}/verification`, { json: { verification: 1 } }),
        new Promise((r) => setTimeout(r, trial % 5)).then(() => api("DELETE", `/v1/events/${id}`)),
      ]);
      expect([200, 404], JSON.stringify(verified.body)).toContain(verified.status);
      expect(deleted.status).toBe(200);
      expect((await api("GET", `/v1/events/${id}`)).status).toBe(404);
    }
    // No verdict is left behind without its event.
    expect(
      await dbNumber(
        `SELECT COUNT(*) AS n FROM "EventVerification" WHERE "eventSeq" NOT IN (SELECT "seq" FROM "Event")`,
      ),
    ).toBe(0);
  });
});
