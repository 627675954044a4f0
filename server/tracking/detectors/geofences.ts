import { activeFor } from "../../geofences/active";
import { ENTER_AT, EXIT_AT, insideProbability } from "../../geofences/inside";
import { bandOf } from "../../events/confidence";
import {
  type Detected,
  type Detector,
  type EventDraft,
  type MembershipChanges,
  minutesBetween,
} from "./types";

/** Minutes inside before user.dwelled_in_geofence, for geofences without their own dwellThreshold. */
export const DEFAULT_DWELL_MINUTES = 5;

/**
 * Geofence entries, exits and dwells (docs/confidence.md): a user outside enters when at least
 * half its accuracy circle is inside, leaves when at most a fifth still is, and dwells once per
 * visit after the geofence's dwell threshold. A geofence that is not active for the user
 * (disabled, past its disableAfter, or naming other users: geofences/active.ts) makes no events;
 * a user in one is simply no longer counted inside. With stopDetection, a user enters only while
 * stopped (a user driving through makes nothing).
 */
export const geofences: Detector = {
  detect({ after, fix, snapshot }): Detected {
    const { latitude: lat, longitude: lng, accuracy, at } = fix;
    const events: EventDraft[] = [];
    const memberships: MembershipChanges = { entered: [], exited: [], dwelled: [] };
    const event = (
      type: string,
      g: (typeof snapshot.geofences)[number],
      p: number,
      duration: number | null,
    ) => events.push({ type, geofence: g, probability: p, band: bandOf(p), duration });
    for (const g of snapshot.geofences) {
      const member = snapshot.memberships.get(g.seq);
      if (!activeFor(g, after.userId, at)) {
        if (member) memberships.exited.push(g.seq);
        continue;
      }
      const p = insideProbability(g, lat, lng, accuracy);
      if (!member) {
        if (p >= ENTER_AT && (!g.stopDetection || fix.stopped)) {
          memberships.entered.push({ geofenceSeq: g.seq, enteredAt: at });
          event("user.entered_geofence", g, p, null);
        }
        continue;
      }
      if (p <= EXIT_AT) {
        memberships.exited.push(g.seq);
        event("user.exited_geofence", g, 1 - p, minutesBetween(member.enteredAt, at));
        continue;
      }
      const dwell = (g.dwellThreshold ?? DEFAULT_DWELL_MINUTES) * 60_000;
      if (!member.dwelled && at.getTime() - member.enteredAt.getTime() >= dwell) {
        memberships.dwelled.push(g.seq);
        event("user.dwelled_in_geofence", g, p, null);
      }
    }
    return { events, memberships };
  },
};
