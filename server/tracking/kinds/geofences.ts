import { bboxAround } from "../../geo/distance";
import { activeFor } from "../../geofences/active";
import { decodedOnce } from "../../geofences/decoded";
import { ENTER_AT, EXIT_AT, MIN_ACCURACY, insideProbability } from "../../geofences/inside";
import { bandOf } from "../../events/confidence";
import { eventSubject } from "../../events/subject";
import type { TrackedGeofence } from "../../storage/geofences";
import {
  GEOFENCE_TRACKING,
  type GeofenceTrackingReader,
  type Membership,
  type MembershipChanges,
} from "../../storage/memberships";
import { partWrite } from "../../storage/tracking";
import { storage } from "../../storage";
import type { StoredUser } from "../../storage/users";
import type { Fix } from "../fix";
import { embeddedGeofence } from "../serialize";
import { type Detected, type EventDraft, type Kind, minutesBetween } from "./kind";

/** Minutes inside before user.dwelled_in_geofence, for geofences without their own dwellThreshold. */
export const DEFAULT_DWELL_MINUTES = 5;
/** Geofences farther than this from the location are not considered, however poor the accuracy. */
const MAX_REACH_M = 5000;

export interface GeofenceState {
  /** the geofences the user is in, by seq */
  memberships: Map<number, Membership>;
  /** the geofences near the fix, and those the user is in */
  geofences: TrackedGeofence[];
}

/** The geofences near the fix and those the user is in, decoded once per version. */
async function near(
  read: GeofenceTrackingReader,
  live: boolean,
  fix: Fix,
  memberships: Map<number, Membership>,
): Promise<GeofenceState> {
  const reach = Math.min(Math.max(fix.accuracy, MIN_ACCURACY), MAX_REACH_M);
  const geofences = await decodedOnce(
    await read.geofenceVersionsNear(live, bboxAround(fix.longitude, fix.latitude, reach), [
      ...memberships.keys(),
    ]),
    (seqs) => read.geofencesBySeqs(seqs),
  );
  return { memberships, geofences };
}

/** The enabled geofences a stored user is in. */
async function enabledGeofencesOf(
  read: GeofenceTrackingReader,
  user: StoredUser,
): Promise<TrackedGeofence[]> {
  const seqs = (await read.memberships(user.seq)).map((m) => m.geofenceSeq);
  return (await read.geofencesBySeqs(seqs)).filter((g) => g.enabled);
}

/** The enabled geofences the user is in after an update: those it was in and did not leave, and those it entered. */
function insideAfter(state: GeofenceState, changes: MembershipChanges): TrackedGeofence[] {
  const entered = new Set(changes.entered.map((m) => m.geofenceSeq));
  const left = new Set(changes.exited);
  return state.geofences.filter(
    (g) => g.enabled && !left.has(g.seq) && (state.memberships.has(g.seq) || entered.has(g.seq)),
  );
}

/**
 * Geofence entries, exits and dwells (docs/confidence.md): a user outside enters when at least
 * half its accuracy circle is inside, leaves when at most a fifth still is, and dwells once per
 * visit after the geofence's dwell threshold. A geofence that is not active for the user
 * (disabled, past its disableAfter, or naming other users: geofences/active.ts) makes no events;
 * a user in one is simply no longer counted inside. With stopDetection, a user enters only while
 * stopped (a user driving through makes nothing). The user's answer shows the enabled geofences
 * it is in.
 */
export const geofences: Kind<GeofenceState> = {
  name: "geofences",
  parts: [GEOFENCE_TRACKING],
  async load({ read, key, fix, before }) {
    const part = read.part(GEOFENCE_TRACKING);
    const memberships = new Map(
      before ? (await part.memberships(before.seq)).map((m) => [m.geofenceSeq, m]) : [],
    );
    return near(part, key.live, fix, memberships);
  },
  async sent({ read, key, fix }, input) {
    const part = read.part(GEOFENCE_TRACKING);
    const seqs = await part.geofenceSeqsByIds(key.live, input.geofenceIds ?? []);
    // Entered at this fix as far as it is known here (dwelled: no dwell is made of an unknown stay).
    const memberships = new Map(
      seqs.map((geofenceSeq) => [geofenceSeq, { geofenceSeq, enteredAt: fix.at, dwelled: true }]),
    );
    return { state: await near(part, key.live, fix, memberships) };
  },
  detect({ after, fix }, state): Detected {
    const { latitude: lat, longitude: lng, accuracy, at } = fix;
    const events: EventDraft[] = [];
    const changes: MembershipChanges = { entered: [], exited: [], dwelled: [] };
    const event = (type: string, g: TrackedGeofence, p: number, duration: number | null) =>
      events.push({
        type,
        about: { geofenceId: g.id, geofence: embeddedGeofence(g) as EventDraft["about"]["geofence"] },
        subject: eventSubject({ geofenceId: g.id }),
        probability: p,
        band: bandOf(p),
        duration,
      });
    for (const g of state.geofences) {
      const member = state.memberships.get(g.seq);
      if (!activeFor(g, after.userId, at)) {
        if (member) changes.exited.push(g.seq);
        continue;
      }
      const p = insideProbability(g, lat, lng, accuracy);
      if (!member) {
        if (p >= ENTER_AT && (!g.stopDetection || fix.stopped)) {
          changes.entered.push({ geofenceSeq: g.seq, enteredAt: at });
          event("user.entered_geofence", g, p, null);
        }
        continue;
      }
      if (p <= EXIT_AT) {
        changes.exited.push(g.seq);
        event("user.exited_geofence", g, 1 - p, minutesBetween(member.enteredAt, at));
        continue;
      }
      const dwell = (g.dwellThreshold ?? DEFAULT_DWELL_MINUTES) * 60_000;
      if (!member.dwelled && at.getTime() - member.enteredAt.getTime() >= dwell) {
        changes.dwelled.push(g.seq);
        event("user.dwelled_in_geofence", g, p, null);
      }
    }
    const changed = changes.entered.length || changes.exited.length || changes.dwelled.length;
    return {
      events,
      writes: changed ? [partWrite(GEOFENCE_TRACKING, changes)] : [],
      shown: { geofences: insideAfter(state, changes).map(embeddedGeofence) },
    };
  },
  async storedMany(users) {
    const inside = await storage().users.geofencesOf(users.map((u) => u.seq));
    return users.map((u) => ({
      geofences: inside.filter((m) => m.userSeq === u.seq).map((m) => embeddedGeofence(m.geofence)),
    }));
  },
  stored: async (read, user) => ({
    geofences: (await enabledGeofencesOf(read.part(GEOFENCE_TRACKING), user)).map(embeddedGeofence),
  }),
};
