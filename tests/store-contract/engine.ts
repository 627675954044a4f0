import type { Storage } from "../../server/storage/port";

/**
 * An engine the store contract runs against: `useDatabase` registers the hooks that make it an
 * empty, migrated database of its own (before the tests) and drop it (after); `storage` is the
 * engine's adapter on it, asked for once the database is made.
 */
export interface ContractEngine {
  name: string;
  useDatabase(): void;
  storage(): Promise<Storage>;
}

/** A fixed instant and instants after it, so answers are compared exactly. */
export const T0 = new Date("2026-11-25T12:00:00.000Z");
export const at = (ms: number) => new Date(T0.getTime() + ms);

let counter = 0;
/** An id no other test of the run has used. */
export const unique = (prefix: string) => `${prefix}${++counter}`;
