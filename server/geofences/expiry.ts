import type { AuthKey } from "../auth/keys";
import { ApiError } from "../errors";
import { storage } from "../storage";
import { deleteGeofence } from "./read";
import { updateGeofence } from "./write";
import { log } from "../log/logger.mjs";

/**
 * disableAfter and deleteAfter, honoured without a request: every app process looks once a
 * second for geofences whose time has come and disables or deletes them through the paths a
 * request takes (the users in them are taken out, without events). Two processes may find the
 * same geofence: the second finds it disabled or gone, which is fine. Tracking does not wait for
 * this: a geofence past its time makes no events already (active.ts).
 */

const EVERY_MS = 1000;
const BATCH = 100;

/** Who the changes are made by, in the logs and records that name a key. */
const sweeper = (live: boolean): AuthKey => ({ id: "geofence-expiry", kind: "secret", live });

/** Acts on what is due at `now`; how many geofences were disabled and deleted. */
export async function sweepGeofences(now = new Date()): Promise<{ disabled: number; deleted: number }> {
  const done = { disabled: 0, deleted: 0 };
  for (;;) {
    const due = await storage().geofences.due(now, BATCH);
    const before = done.disabled + done.deleted;
    for (const g of due) {
      try {
        if (g.deleteDue) {
          await deleteGeofence(sweeper(g.live), { id: g.id });
          done.deleted++;
        } else {
          await updateGeofence(sweeper(g.live), g.id, { enabled: false });
          done.disabled++;
        }
      } catch (e) {
        // Another process got there first (not found), or it changed meanwhile: the next turn looks again.
        if (!(e instanceof ApiError)) throw e;
      }
    }
    // A full batch none of which could be acted on now is left for the next turn, not read again.
    if (due.length < BATCH || done.disabled + done.deleted === before) return done;
  }
}

const state = globalThis as unknown as { geofenceSweeper?: NodeJS.Timeout };

/** Starts this process's sweeper (once). */
export function startGeofenceSweeper(): void {
  if (state.geofenceSweeper) return;
  let running = false;
  state.geofenceSweeper = setInterval(() => {
    if (running) return;
    running = true;
    sweepGeofences()
      .catch((err: unknown) => log.error({ err }, "geofence expiry failed"))
      .finally(() => (running = false));
  }, EVERY_MS);
  state.geofenceSweeper.unref();
}
