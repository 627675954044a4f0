import type { Storage } from "../../storage/port";
import { sqliteBeacons } from "./beacons";
import { sqliteEvents } from "./events";
import { sqliteGeofences } from "./geofences";
import { sqliteKeys } from "./keys";
import { sqliteLogs } from "./logs";
import { sqliteOverview } from "./overview";
import { sqliteSettings } from "./settings";
import { shared } from "./shared-stores";
import { sqliteSystem } from "./system";
import { sqliteTracking } from "./tracking";
import { sqliteTrips } from "./trips";
import { sqliteUsers } from "./users";
import { sqliteWebhooks } from "./webhooks";

/**
 * The SQLite adapter of the storage port (server/storage/port.ts): one store per aggregate, each
 * in the file of its name. Reads on the request path use prepared better-sqlite3 statements
 * (microseconds); writes go through Prisma (../prisma/, one file per aggregate) under the process's write lock,
 * which stays inside this adapter.
 */
export const sqliteStorage: Storage = {
  keys: sqliteKeys,
  settings: sqliteSettings,
  accounts: shared.accounts,
  sessions: shared.sessions,
  signInFailures: shared.signInFailures,
  events: sqliteEvents,
  geofences: sqliteGeofences,
  users: sqliteUsers,
  tracking: sqliteTracking,
  webhooks: sqliteWebhooks,
  logs: sqliteLogs,
  retention: shared.retention,
  trips: sqliteTrips,
  beacons: sqliteBeacons,
  system: sqliteSystem,
  overview: sqliteOverview,
};
