import { describe, expect, it } from "vitest";
import type { Storage } from "../../server/storage/port";
import type { GeofenceColumns } from "../../server/storage/geofence-records";
import { T0, unique } from "./engine";

/** A circle of 100 m at [lng, lat], as a geofence write sets it (the ring left rough). */
export function circle(lng: number, lat: number, more: Partial<GeofenceColumns> = {}): GeofenceColumns {
  const d = 0.001;
  return {
    description: "circle",
    tag: null,
    externalId: null,
    type: "circle",
    geometry: [
      [
        [lng - d, lat - d],
        [lng + d, lat - d],
        [lng + d, lat + d],
        [lng - d, lat + d],
        [lng - d, lat - d],
      ],
    ],
    centerLng: lng,
    centerLat: lat,
    radius: 100,
    minLng: lng - d,
    minLat: lat - d,
    maxLng: lng + d,
    maxLat: lat + d,
    metadata: undefined,
    enabled: true,
    dwellThreshold: null,
    userIds: null,
    stopDetection: false,
    disableAfter: null,
    deleteAfter: null,
    isochrone: null,
    ...more,
  };
}

/** Geofences: writes that refuse what they must, reads by reference, pages and boxes. */
export function geofencesContract(store: () => Storage): void {
  describe("geofences", () => {
    it("keeps a tag and externalId to one geofence of a world, and replaces it on put", async () => {
      const tag = unique("tag");
      const made = await store().geofences.create(false, circle(10, 50, { tag, externalId: "a" }));
      expect(made).toMatchObject({ tag, externalId: "a", live: false, type: "circle", radius: 100 });
      expect(await store().geofences.create(false, circle(10, 50, { tag, externalId: "a" }))).toBeNull();
      // The other world has its own.
      expect(await store().geofences.create(true, circle(10, 50, { tag, externalId: "a" }))).not.toBeNull();

      const put = await store().geofences.put(false, {
        ...circle(11, 51),
        tag,
        externalId: "a",
        description: "moved",
      });
      expect(put.replaced).toBe(true);
      expect(put.geofence).toMatchObject({ id: made!.id, description: "moved", centerLng: 11 });
      const fresh = await store().geofences.put(false, { ...circle(12, 52), tag, externalId: "b" });
      expect(fresh.replaced).toBe(false);

      const byRef = await store().geofences.byRef(false, { tag, externalId: "a" });
      expect(byRef?.id).toBe(made!.id);
      expect((await store().geofences.byRef(false, { id: made!.id }))?.description).toBe("moved");
      const both = await store().geofences.byRefs(false, [
        { id: fresh.geofence.id },
        { tag, externalId: "a" },
        { id: "none" },
      ]);
      expect(both.map((g) => g.id).sort()).toEqual([made!.id, fresh.geofence.id].sort());
    });

    it("updates only the version it was made from", async () => {
      const tag = unique("tag");
      const g = (await store().geofences.create(false, circle(20, 40, { tag, externalId: "x" })))!;
      const other = (await store().geofences.create(false, circle(20, 40, { tag, externalId: "y" })))!;
      const first = await store().geofences.update(
        g.seq,
        g.updatedAt,
        circle(20, 40, { tag, externalId: "x", description: "one" }),
      );
      expect(first.status).toBe("updated");
      const now = (first as { geofence: { updatedAt: Date } }).geofence;
      expect(now.updatedAt.getTime()).toBeGreaterThan(g.updatedAt.getTime());
      // Made from the version before: refused, with the geofence as it is.
      const stale = await store().geofences.update(
        g.seq,
        g.updatedAt,
        circle(20, 40, { tag, externalId: "x", description: "two" }),
      );
      expect(stale).toMatchObject({ status: "changed", geofence: { description: "one" } });
      expect(
        await store().geofences.update(g.seq, now.updatedAt, circle(20, 40, { tag, externalId: "y" })),
      ).toEqual({
        status: "taken",
      });
      expect(await store().geofences.delete(false, { id: other.id })).toBe(true);
      expect(await store().geofences.delete(false, { id: other.id })).toBe(false);
      expect(await store().geofences.update(other.seq, other.updatedAt, circle(20, 40))).toEqual({
        status: "gone",
      });
    });

    it("writes a batch whole or not at all", async () => {
      const tag = unique("tag");
      const kept = (await store().geofences.create(false, circle(30, 30, { tag, externalId: "kept" })))!;
      const clash = await store().geofences.applyMany(false, [
        { seq: null, columns: circle(30, 30, { tag, externalId: "new" }) },
        { seq: null, columns: circle(30, 30, { tag, externalId: "kept" }) },
      ]);
      expect(clash).toEqual({ status: "taken" });
      expect(await store().geofences.byRef(false, { tag, externalId: "new" })).toBeNull();
      const stale = await store().geofences.applyMany(false, [
        { seq: null, columns: circle(30, 30, { tag, externalId: "new" }) },
        {
          seq: kept.seq,
          version: new Date(kept.updatedAt.getTime() - 1),
          columns: circle(31, 31, { tag, externalId: "kept" }),
        },
      ]);
      expect(stale).toEqual({ status: "changed", seqs: [kept.seq] });
      expect(await store().geofences.byRef(false, { tag, externalId: "new" })).toBeNull();
      const written = await store().geofences.applyMany(false, [
        { seq: null, columns: circle(30, 30, { tag, externalId: "new" }) },
        { seq: kept.seq, version: kept.updatedAt, columns: circle(31, 31, { tag, externalId: "kept" }) },
      ]);
      expect(written).toEqual({ status: "written", created: 1, updated: [kept.seq] });
      expect((await store().geofences.byRef(false, { tag, externalId: "kept" }))?.centerLng).toBe(31);
    });

    it("pages a tag oldest first by seq, lists newest first, and finds boxes", async () => {
      const tag = unique("tag");
      const made = [];
      for (const k of [0, 1, 2, 3, 4])
        made.push((await store().geofences.create(false, circle(-60 + k, -30, { tag })))!);
      const seqs = made.map((g) => g.seq);
      expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
      const page = await store().geofences.pageAfter(false, seqs[1]!, 2, tag);
      expect(page.map((g) => g.seq)).toEqual(seqs.slice(2, 4));
      const listed = await store().geofences.list({ live: false, tag });
      expect(listed.map((g) => g.seq)).toEqual([...seqs].reverse());
      const inBox = await store().geofences.inBox(
        false,
        { minLng: -58.5, minLat: -30.5, maxLng: -56.5, maxLat: -29.5 },
        { tags: [tag] },
      );
      expect(inBox.map((g) => g.seq).sort((a, b) => a - b)).toEqual(seqs.slice(2, 4));
      const decoded = await store().geofences.decodable([seqs[0]!]);
      expect(decoded[0]).toMatchObject({ seq: seqs[0], tag, type: "circle" });
      expect(decoded[0]!.geometry[0]).toHaveLength(5);
    });

    it("says which geofences are due to be disabled or deleted", async () => {
      const tag = unique("tag");
      const disable = (await store().geofences.create(false, circle(0, 0, { tag, disableAfter: T0 })))!;
      const remove = (await store().geofences.create(false, circle(0, 0, { tag, deleteAfter: T0 })))!;
      await store().geofences.create(
        false,
        circle(0, 0, { tag, deleteAfter: new Date(T0.getTime() + 60_000) }),
      );
      const due = await store().geofences.due(new Date(T0.getTime() + 1), 100);
      expect(due).toContainEqual({ id: disable.id, live: false, deleteDue: false });
      expect(due).toContainEqual({ id: remove.id, live: false, deleteDue: true });
      expect(due.filter((d) => [disable.id, remove.id].includes(d.id))).toHaveLength(2);
    });
  });
}
