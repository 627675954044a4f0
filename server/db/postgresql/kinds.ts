import { geofenceTracking } from "./memberships";
import { placeTracking } from "./place-verdicts";
import { tripTracking } from "./trips";
import { beaconTracking } from "./beacons";

/**
 * The kinds of event with storage of their own, as this engine implements their parts
 * (./tracking-part.ts): a new kind adds its part here, and the tracking store reads and writes it.
 */
export const TRACKING_PARTS = [geofenceTracking, placeTracking, tripTracking, beaconTracking];
