import { matchingRows } from "../../storage/metadata-filter";
import type { UserStore } from "../../storage/users";
import { shared } from "./shared-stores";
import { inTransaction, row, rows } from "./sql";
import { ENVELOPE } from "./tracking-sql";
import { deleteUserOutbox } from "./webhooks";

export const postgresUsers: UserStore = {
  ...shared.users,
  byInstallId: (live, installId) =>
    // The expression is the index's (migration 20261206000000_user_install_id).
    row<{ deviceId: string; userId: string | null }>(
      `SELECT "deviceId", "userId" FROM "User" WHERE "live" = $1 AND ("device"->>'installId') = $2
       ORDER BY "updatedAt" DESC LIMIT 1`,
      [live, installId],
    ).then((r) => r ?? null),
  async seqsInGeofence(geofenceSeq, q) {
    return rows<{ seq: number; updatedAt: Date }>(
      `SELECT u."seq", u."updatedAt" FROM "UserGeofence" m JOIN "User" u ON u."seq" = m."userSeq"
       WHERE m."geofenceSeq" = $1 AND ($2::timestamptz IS NULL OR u."updatedAt" < $2)
         AND ($3::timestamptz IS NULL OR u."updatedAt" > $3)
       ORDER BY u."updatedAt" DESC, u."id" DESC LIMIT $4`,
      [geofenceSeq, q.updatedBefore ?? null, q.updatedAfter ?? null, q.take ?? null],
    );
  },
  async inBox(live, box, metadata) {
    const found = await rows<{ seq: number; latitude: number; longitude: number; metadata?: unknown }>(
      `SELECT "seq", "latitude", "longitude"${metadata ? `, "metadata"` : ""} FROM "User"
       WHERE "position" && ${ENVELOPE(1)} AND "live" = $5`,
      [box.minLng, box.minLat, box.maxLng, box.maxLat, live],
    );
    if (!metadata) return found;
    return matchingRows(found, metadata);
  },
  deleteEverything: (seq) =>
    inTransaction(async (client) => {
      // Locked first: an update of the user (which reads it FOR UPDATE) and another delete wait
      // for this one, and then find no user.
      const found = await rows<{ id: string; live: boolean; deviceId: string; userId: string | null }>(
        `SELECT "id", "live", "deviceId", "userId" FROM "User" WHERE "seq" = $1 FOR UPDATE`,
        [seq],
        client,
      );
      if (!found.length) return false;
      // The events before their verdicts: a verification under way holds its event's row, so it
      // either commits first (and its record goes below) or finds no event.
      const events = await rows<{ seq: number }>(
        `DELETE FROM "Event" WHERE "userSeq" = $1 RETURNING "seq"`,
        [seq],
        client,
      );
      await rows(
        `DELETE FROM "EventVerification" WHERE "eventSeq" = ANY($1::int[])`,
        [events.map((e) => e.seq)],
        client,
      );
      await rows(`DELETE FROM "UserLocation" WHERE "userSeq" = $1`, [seq], client);
      await rows(`DELETE FROM "UserGeofence" WHERE "userSeq" = $1`, [seq], client);
      // Webhook requests carry the user's data, sent or not: they go too.
      await deleteUserOutbox(client, found[0]!.id);
      // Its trips (where it went).
      const { live, deviceId, userId } = found[0]!;
      await rows(
        userId !== null
          ? `DELETE FROM "Trip" WHERE "live" = $1 AND "userId" = $2`
          : `DELETE FROM "Trip" WHERE "live" = $1 AND "deviceId" = $2 AND "userId" IS NULL`,
        [live, userId ?? deviceId],
        client,
      );
      // And its device's logs.
      await rows(
        `DELETE FROM "DeviceLog" WHERE "live" = $1 AND "deviceId" = $2`,
        [found[0]!.live, found[0]!.deviceId],
        client,
      );
      await rows(`DELETE FROM "User" WHERE "seq" = $1`, [seq], client);
      return true;
    }),
};
