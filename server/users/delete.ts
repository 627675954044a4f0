import type { AuthKey } from "../auth/keys";
import { storage } from "../storage";
import { notFound } from "../errors";
import { findUser } from "./read";

/**
 * Deletes a user with their location history, their geofence memberships, and every event about
 * them and its verifications, in one transaction: what a privacy request asks for.
 */
export async function deleteUser(key: AuthKey, ref: string): Promise<void> {
  const user = await findUser(key, ref);
  // Deleted meanwhile by a concurrent request: that one reports the deletion, this one finds nothing.
  if (!(await storage().users.deleteEverything(user.seq))) throw notFound(`user ${ref}`);
}
