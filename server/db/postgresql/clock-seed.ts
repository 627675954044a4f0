import { seedClock } from "../../storage/ids";
import { row } from "./sql";

let seeding: Promise<void> | undefined;

/**
 * Puts this thread's clock past the newest geofence's createdAt, once, so geofences' createdAt
 * stay increasing across a restart after the clock was set back (as the SQLite adapter does on
 * open). What stamps times with the clock (tracking, geofence writes) waits for it: a thread's
 * first update right after a start must not use the clock before it is set. A failed read is
 * tried again by the next caller.
 */
export function clockSeeded(): Promise<void> {
  seeding ??= row<{ t: Date | null }>(`SELECT MAX("createdAt") AS t FROM "Geofence"`).then(
    (r) => {
      if (r?.t) seedClock(r.t.getTime());
    },
    (e: unknown) => {
      seeding = undefined;
      throw e;
    },
  );
  return seeding;
}
