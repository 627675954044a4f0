import { ApiError } from "../../errors";
import type { EventDraft } from "../kinds/kind";
import { tripEvent } from "./kind";
import { type TripLeg, aimedAt, currentLegIndex, isActive, legsOf } from "./model";
import type { Trip } from "./progress";
import { withoutSeq } from "./start";
import { processClock } from "../track";
import { written } from "./commands";
import { type TripAnswer, type TripCaller, readsUser, inTripTransaction, userOf } from "./access";

/** Sets a leg's status (the SDK's leg calls): arriving at the last leg arrives the trip. */
export async function updateLeg(
  caller: TripCaller,
  tripId: string,
  legId: string,
  status: TripLeg["status"],
  clock = processClock,
): Promise<TripAnswer> {
  const live = caller.key.live;
  return inTripTransaction(caller, tripId, async (read, found) => {
    if (!isActive(found.status))
      throw new ApiError(
        "invalid_input",
        `status: the trip is ${found.status}; only an active trip's legs change`,
        "status",
      );
    const legs = legsOf(found).map((l) => ({ ...l }));
    const i = legs.findIndex((l) => l._id === legId);
    if (i < 0) throw new ApiError("not_found", `no leg ${legId} on trip ${tripId}`);
    const now = clock.wall();
    const stamp = now.toISOString();
    legs[i] = { ...legs[i]!, status, updatedAt: stamp, ...(status === "arrived" && { arrivedAt: stamp }) };
    let trip: Trip = { ...withoutSeq(found), legs, updatedAt: now };
    const drafts: EventDraft[] = [];
    const next = currentLegIndex(legs);
    if (next >= 0 && legs[next]!.status === "pending") {
      legs[next] = { ...legs[next]!, status: "started", updatedAt: stamp };
      trip = aimedAt(trip, legs[next]!);
    }
    if (status === "arrived") {
      if (i === legs.length - 1) trip.status = "arrived";
      // Radar's name for every leg's arrival (the SDKs know no other); the leg is in trip.leg.
      drafts.push(tripEvent("user.arrived_at_trip_destination", trip, legs[i]));
    }
    const user = await userOf(read, live, found);
    return written(read, user, [{ seq: found.seq, trip }], drafts, clock, readsUser(caller, user));
  });
}

/** Puts the legs in the order given (every leg of the trip, by _id). */
export async function reorderLegs(
  caller: TripCaller,
  tripId: string,
  order: string[],
  clock = processClock,
): Promise<TripAnswer> {
  return inTripTransaction(caller, tripId, async (read, found) => {
    const legs = legsOf(found);
    const byId = new Map(legs.map((l) => [l._id, l]));
    if (
      order.length !== legs.length ||
      new Set(order).size !== order.length ||
      order.some((id) => !byId.has(id))
    ) {
      throw new ApiError(
        "invalid_input",
        `legs: must list each of the trip's ${legs.length} legs' _id once`,
        "legs",
      );
    }
    const now = clock.wall();
    const reordered = order.map((id) => byId.get(id)!);
    let trip: Trip = { ...withoutSeq(found), legs: reordered, updatedAt: now };
    const i = currentLegIndex(reordered);
    if (i >= 0) trip = aimedAt(trip, reordered[i]!);
    return written(read, null, [{ seq: found.seq, trip }], [], clock, caller.key.kind !== "publishable");
  });
}
