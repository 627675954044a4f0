import type { Storage } from "../../storage/port";
import { postgresBeacons } from "./beacons";
import { clockSeeded } from "./clock-seed";
import { postgresEvents } from "./events";
import { postgresGeofences } from "./geofences";
import { postgresKeys } from "./keys";
import { postgresLogs } from "./logs";
import { postgresOverview } from "./overview";
import { postgresSettings } from "./settings";
import { shared } from "./shared-stores";
import { postgresSystem } from "./system";
import { postgresTracking } from "./tracking";
import { postgresTrips } from "./trips";
import { postgresUsers } from "./users";
import { postgresWebhooks } from "./webhooks";

/**
 * The PostgreSQL + PostGIS adapter of the storage port (server/storage/port.ts): what several
 * app processes share, one store per aggregate, each in the file of its name. Spatial lookups use
 * the PostGIS columns the migrations add (a geofence's box, a user's position) and their GiST
 * indexes; writes through Prisma run as they come (the database orders them: no process-wide
 * lock), and tracking locks per device (./tracking.ts).
 */
export function postgresStorage(): Storage {
  // Started at once; what stamps times waits for it (clock-seed.ts).
  clockSeeded().catch(() => undefined);
  return postgres;
}

const postgres: Storage = {
  keys: postgresKeys,
  settings: postgresSettings,
  accounts: shared.accounts,
  sessions: shared.sessions,
  signInFailures: shared.signInFailures,
  events: postgresEvents,
  geofences: postgresGeofences,
  users: postgresUsers,
  tracking: postgresTracking,
  webhooks: postgresWebhooks,
  logs: postgresLogs,
  retention: shared.retention,
  trips: postgresTrips,
  beacons: postgresBeacons,
  system: postgresSystem,
  overview: postgresOverview,
};
