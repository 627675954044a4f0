import type { WriteLock } from "./common";
import { keyStore } from "./keys";
import { settingStore } from "./settings";
import { accountStore, sessionStore, signInFailureStore } from "./accounts";
import { eventStore } from "./events";
import { geofenceWrites, isochrones, geofenceReads } from "./geofences";
import { userStore } from "./users";
import { webhookStore } from "./webhooks";
import { retentionStore } from "./retention";
import { tripStore } from "./trips";
import { beaconStore } from "./beacons";

/**
 * The parts of the storage port that both adapters serve alike through Prisma (one model, two
 * providers). `lock` wraps each write: SQLite's adapter passes its process-wide write lock,
 * PostgreSQL's runs writes as they come (the database orders them).
 *
 * The request-path reads (a key by its hash, a setting) are each adapter's own: a prepared
 * statement costs microseconds where a Prisma query costs about a millisecond.
 */
export function prismaStores(lock: WriteLock) {
  return {
    keys: keyStore(lock),
    settings: settingStore(lock),
    accounts: accountStore(lock),
    sessions: sessionStore(lock),
    signInFailures: signInFailureStore(lock),
    users: userStore(),
    events: eventStore(lock),
    geofences: { ...geofenceWrites(lock), ...geofenceReads(), isochrones },
    webhooks: webhookStore(lock),
    retention: retentionStore(lock),
    trips: tripStore(lock),
    beacons: beaconStore(lock),
  };
}
