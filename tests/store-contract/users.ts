import { describe, expect, it } from "vitest";
import type { Storage } from "../../server/storage/port";
import { T0, at, unique } from "./engine";
import { circle } from "./geofences";
import { eventWrite, memberships, track, userPlan, userWrite } from "./tracking";

/** Users: lists and lookups of what tracking wrote, their trail, and deleting one whole. */
export function usersContract(store: () => Storage): void {
  describe("users", () => {
    it("lists users newest update first, finds them by any of their ids, and by where they are", async () => {
      const devices = [unique("device"), unique("device"), unique("device")];
      const lng = 100;
      // A window of time no other test writes in.
      const when = (ms: number) => new Date(Date.UTC(2025, 0, 1) + ms);
      const g = (await store().geofences.create(false, circle(lng, 10)))!;
      const seqs: number[] = [];
      for (const [k, device] of devices.entries()) {
        const w = await track(store(), device, () =>
          userPlan(
            null,
            userWrite(device, lng + k * 0.5, 10, when(k * 1000), {
              userId: `${device}-user`,
              device: { installId: `${device}-install` },
            }),
            {
              writes: k === 0 ? [memberships({ entered: [{ geofenceSeq: g.seq, enteredAt: when(0) }] })] : [],
            },
          ),
        );
        seqs.push(w!.userSeq);
      }
      const listed = await store().users.list({
        live: false,
        updatedAfter: when(-1),
        updatedBefore: when(2001),
      });
      expect(listed.map((u) => u.seq)).toEqual([...seqs].reverse());
      expect(
        (await store().users.list({ live: false, updatedAfter: when(-1), updatedBefore: when(2000) }, 1)).map(
          (u) => u.seq,
        ),
      ).toEqual([seqs[1]]);

      const [first] = await store().users.bySeqs([seqs[0]!]);
      expect(first).toMatchObject({
        deviceId: devices[0],
        userId: `${devices[0]}-user`,
        latitude: 10,
        longitude: lng,
      });
      expect((await store().users.matching(false, first!.id)).map((u) => u.seq)).toEqual([seqs[0]]);
      expect((await store().users.matching(false, `${devices[1]}-user`)).map((u) => u.seq)).toEqual([
        seqs[1],
      ]);
      expect(await store().users.seqById(false, first!.id)).toBe(seqs[0]);
      expect(await store().users.seqById(true, first!.id)).toBeNull();
      expect(await store().users.byInstallId(false, `${devices[2]}-install`)).toEqual({
        deviceId: devices[2],
        userId: `${devices[2]}-user`,
      });
      const owners = await store().users.byOwners(false, [`${devices[0]}-user`], []);
      expect(owners.map((u) => u.seq)).toEqual([seqs[0]]);

      expect(
        (await store().users.geofencesOf([seqs[0]!, seqs[1]!])).map((m) => [m.userSeq, m.geofence.id]),
      ).toEqual([[seqs[0], g.id]]);
      expect((await store().users.seqsInGeofence(g.seq, {})).map((m) => m.seq)).toEqual([seqs[0]]);
      const box = { minLng: lng + 0.25, minLat: 9.9, maxLng: lng + 1.25, maxLat: 10.1 };
      expect((await store().users.inBox(false, box)).map((u) => u.seq).sort((a, b) => a - b)).toEqual(
        seqs.slice(1),
      );
    });

    it("keeps a user's trail newest first, and deletes a user with everything about it", async () => {
      const device = unique("device");
      let written;
      for (const k of [0, 1, 2])
        written = await track(store(), device, (user) =>
          userPlan(user, userWrite(device, 101, 11 + k / 100, at(k * 1000)), {
            events: k === 2 ? [eventWrite("user.contract_deleted", 101, 11, at(k * 1000))] : [],
          }),
        );
      const seq = written!.userSeq;
      const trail = await store().users.locations(seq, 2);
      expect(trail.map((l) => l.recordedAt)).toEqual([at(2000), at(1000)]);
      expect(trail[0]).toMatchObject({ latitude: 11.02, longitude: 101, accuracy: 10 });
      // Within a window (a trip's), both ends included, whatever came after it.
      const during = (from: number, to?: number) =>
        store()
          .users.locations(seq, 10, { from: at(from), to: to === undefined ? undefined : at(to) })
          .then((l) => l.map((x) => x.recordedAt));
      expect(await during(1000, 1000)).toEqual([at(1000)]);
      expect(await during(0, 1999)).toEqual([at(1000), at(0)]);
      expect(await during(1000)).toEqual([at(2000), at(1000)]);
      const [event] = await store().events.list({ live: false, userSeq: seq });
      expect(await store().users.deleteEverything(seq)).toBe(true);
      expect(await store().users.deleteEverything(seq)).toBe(false);
      expect(await store().users.bySeqs([seq])).toEqual([]);
      expect(await store().users.locations(seq, 10)).toEqual([]);
      expect(await store().events.byId(false, event!.id)).toBeNull();
    });

    it("pages the users table by a column, with how many match", async () => {
      const tag = unique("table");
      for (const k of [2, 0, 1]) {
        const device = `${tag}-${k}`;
        await track(store(), device, () =>
          userPlan(null, userWrite(device, 102, 12, T0, { description: `${tag} ${k}` })),
        );
      }
      const page = await store().users.table(false, {
        search: tag,
        sort: "description",
        dir: "asc",
        skip: 1,
        take: 1,
      });
      expect(page.total).toBe(3);
      expect(page.rows.map((u) => u.description)).toEqual([`${tag} 1`]);
    });
  });
}
