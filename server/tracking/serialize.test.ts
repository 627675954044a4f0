import { describe, expect, it } from "vitest";
import type { StoredEvent } from "../storage/events";
import { serializeEvent } from "./serialize";

const event = (more: Partial<StoredEvent>): StoredEvent => ({
  seq: 1,
  id: "e1",
  live: false,
  type: "user.entered_geofence",
  userSeq: 1,
  user: { _id: "u1", deviceId: "d1" },
  geofenceId: null,
  geofence: null,
  subject: null,
  region: null,
  place: null,
  placeId: null,
  alternatePlaces: null,
  verifiedPlace: null,
  latitude: 45,
  longitude: 5,
  accuracy: 10,
  confidence: 3,
  probability: 1,
  band: "core",
  verification: 0,
  verifiedAt: null,
  verifiedPlaceId: null,
  duration: null,
  metadata: null,
  trip: null,
  createdAt: new Date("2026-11-29T10:00:00Z"),
  actualCreatedAt: new Date("2026-11-29T10:00:01Z"),
  replayed: false,
  kindFields: null,
  ...more,
});

describe("an event's wire form", () => {
  it("carries what a kind says of its subject as fields of the event, leaving out those without a value", () => {
    const wire = serializeEvent(
      event({ type: "user.entered_sample", kindFields: { sample: { _id: "s1", tag: "door" }, empty: null } }),
    );
    expect(wire).toMatchObject({ type: "user.entered_sample", sample: { _id: "s1", tag: "door" } });
    expect(wire).not.toHaveProperty("empty");
    expect(serializeEvent(event({}))).not.toHaveProperty("sample");
  });
});
