import { describe, expect, it } from "vitest";
import type { TripLeg } from "./model";
import { type Trip, advance } from "./progress";
import { newTrip } from "./start";

/** How one update moves a trip on (./progress.ts), rule by rule, without a database. */

let n = 0;
const t0 = new Date("2026-11-26T10:00:00Z");
const ids = { newId: () => (n++).toString(16).padStart(24, "0"), now: () => t0 };
const minutes = (m: number) => new Date(t0.getTime() + m * 60_000);
const dest = {
  geofenceId: null,
  tag: null,
  externalId: null,
  latitude: 0.5,
  longitude: 2.01,
  arrivalRadius: 50,
};

function trip(extra: Partial<Trip> = {}): Trip {
  return {
    ...newTrip(
      false,
      {
        externalId: "t",
        owner: { userId: "u", deviceId: null },
        status: "started",
        destination: dest,
        mode: "foot",
      },
      t0,
      ids,
    ),
    startNotified: true,
    ...extra,
  };
}

const nowhere = { eta: null, arrived: () => false, wrongDestination: false };

describe("advance", () => {
  it("expires a trip past its expiresAt, with no event", () => {
    const { trip: t, events } = advance(trip({ expiresAt: minutes(5) }), {
      ...nowhere,
      at: minutes(6),
      position: [2, 0.5],
    });
    expect(t.status).toBe("expired");
    expect(t.endedAt).toEqual(minutes(6));
    expect(events).toEqual([]);
  });

  it("uses the road ETA only for the destination and mode it was found for, else the straight line", () => {
    const road = {
      to: [2.01, 0.5] as [number, number],
      mode: "foot" as const,
      distance: 2000,
      duration: 24,
      source: "road" as const,
    };
    expect(
      advance(trip(), { ...nowhere, at: minutes(1), position: [2, 0.5], eta: road }).trip.etaSource,
    ).toBe("road");
    const elsewhere = { ...road, to: [2.02, 0.5] as [number, number] };
    const t = advance(trip(), { ...nowhere, at: minutes(1), position: [2, 0.5], eta: elsewhere }).trip;
    expect(t.etaSource).toBe("straight_line");
    expect(Math.abs(t.etaDistance! - 1113)).toBeLessThan(5);
  });

  it("approaches once, then updates, and keeps the delay against the schedule", () => {
    const scheduled = trip({ approachingThreshold: 30, scheduledArrivalAt: minutes(5) });
    const first = advance(scheduled, { ...nowhere, at: minutes(1), position: [2.005, 0.5] });
    expect(first.events.map((e) => e.type)).toEqual(["user.approaching_trip_destination"]);
    // 556 m on foot is 6.7 minutes: due at 7.7, scheduled at 5.
    expect(first.trip.delayMinutes).toBeCloseTo(2.7, 1);
    const second = advance(first.trip, { ...nowhere, at: minutes(2), position: [2.006, 0.5] });
    expect(second.events.map((e) => e.type)).toEqual(["user.updated_trip"]);
  });

  it("waits a leg's stopDuration before the next leg starts", () => {
    const leg = (lng: number, stopDuration?: number): TripLeg => ({
      _id: `leg-${lng}`,
      status: "pending",
      destination: {
        type: "coordinates",
        source: { data: [lng, 0.5] },
        location: { type: "Point", coordinates: [lng, 0.5] },
        arrivalRadius: 50,
      },
      ...(stopDuration && { stopDuration }),
      createdAt: t0.toISOString(),
      updatedAt: t0.toISOString(),
    });
    let t = trip({ legs: [leg(2.01, 10), leg(2.02)], destinationLongitude: 2.01 });
    const at = (tr: Trip) => tr.destinationLongitude === 2.01;
    const arrived = advance(t, { ...nowhere, at: minutes(1), position: [2.01, 0.5], arrived: at });
    // Radar's name for a leg's arrival too (the SDKs know no other); the trip has not arrived.
    expect(arrived.events.map((e) => e.type)).toEqual(["user.arrived_at_trip_destination"]);
    expect(arrived.trip.status).not.toBe("arrived");
    t = arrived.trip;
    const during = advance(t, { ...nowhere, at: minutes(5), position: [2.01, 0.5], arrived: at });
    expect(during.trip.destinationLongitude).toBe(2.01);
    const after = advance(during.trip, { ...nowhere, at: minutes(12), position: [2.011, 0.5], arrived: at });
    expect(after.trip.destinationLongitude).toBe(2.02);
    expect((after.trip.legs as TripLeg[]).map((l) => l.status)).toEqual(["completed", "started"]);
  });
});
