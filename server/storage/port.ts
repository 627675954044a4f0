import type { OverviewStore } from "./overview";
import type { SystemStore } from "./system";
import type { KeyStore } from "./keys";
import type { SettingStore } from "./settings";
import type { AccountStore, SessionStore, SignInFailureStore } from "./accounts";
import type { GeofenceStore } from "./geofences";
import type { UserStore } from "./users";
import type { EventStore } from "./events";
import type { WebhookStore } from "./webhooks";
import type { TrackingStore } from "./tracking";
import type { TripStore } from "./trips";
import type { DeviceLogStore } from "./logs";
import type { RetentionStore } from "./retention";
import type { BeaconStore } from "./beacons";

/**
 * Storage as the domain sees it: one async interface per aggregate, each in its own file here
 * (keys, settings, accounts, geofences, users, events, webhooks, tracking, trips, logs, retention,
 * overview, system, beacons), in the domain's own types (each file holds its aggregate's records). Only adapters (server/db/<engine>/)
 * know a driver, SQL, transactions and locks; the domain gets the adapter the configuration names
 * from `storage()` (./index.ts) and imports the types of the aggregates it uses from their files.
 * The lint rule in eslint.config.mjs keeps the domain off drivers and Prisma.
 */

export interface Storage {
  keys: KeyStore;
  settings: SettingStore;
  accounts: AccountStore;
  sessions: SessionStore;
  signInFailures: SignInFailureStore;
  events: EventStore;
  geofences: GeofenceStore;
  users: UserStore;
  tracking: TrackingStore;
  webhooks: WebhookStore;
  logs: DeviceLogStore;
  retention: RetentionStore;
  trips: TripStore;
  beacons: BeaconStore;
  system: SystemStore;
  overview: OverviewStore;
}
