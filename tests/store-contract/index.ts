import { beforeAll, describe } from "vitest";
import type { Storage } from "../../server/storage/port";
import type { ContractEngine } from "./engine";
import { accountsContract } from "./accounts";
import { beaconsContract } from "./beacons";
import { eventsContract } from "./events";
import { geofencesContract } from "./geofences";
import { keysContract } from "./keys";
import { logsContract } from "./logs";
import { operationsContract } from "./operations";
import { settingsContract } from "./settings";
import { trackingContract } from "./tracking";
import { tripsContract } from "./trips";
import { usersContract } from "./users";
import { webhooksContract } from "./webhooks";

/**
 * The store contract (docs/architecture.md#storage): what every storage adapter must do, written
 * once against the port and run against each engine (server/db/<engine>/store-contract.test.ts).
 * A new engine implements the port's files until this passes. The API suites hold the same
 * stores through HTTP; this holds them at the port, where two engines differ.
 */
export function storeContract(engine: ContractEngine): void {
  describe(`the store contract on ${engine.name}`, () => {
    engine.useDatabase();
    let storage: Storage | undefined;
    beforeAll(async () => {
      storage = await engine.storage();
    });
    const store = (): Storage => {
      if (!storage) throw new Error("the engine's database is not ready");
      return storage;
    };
    keysContract(store);
    settingsContract(store);
    accountsContract(store);
    geofencesContract(store);
    trackingContract(store);
    eventsContract(store);
    webhooksContract(store);
    usersContract(store);
    tripsContract(store);
    beaconsContract(store);
    logsContract(store);
    operationsContract(store);
  });
}
