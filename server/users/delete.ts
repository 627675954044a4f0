import type { AuthKey } from "../auth/keys";
import { deleteUserEverything, transaction } from "../db/sqlite/tracking";
import { withWriteLock } from "../db/write-lock";
import { findUser } from "./read";

/**
 * Deletes a user with their location history, their geofence memberships, and every event about
 * them and its verifications, in one transaction: what a privacy request asks for.
 */
export async function deleteUser(key: AuthKey, ref: string): Promise<void> {
  const user = await findUser(key, ref);
  await withWriteLock(() => transaction(() => deleteUserEverything(user.seq)));
}
