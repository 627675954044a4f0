import { createKey } from "../auth/keys";
import { storage } from "../storage";

/**
 * On an empty database, creates a test secret key and a test publishable key and returns
 * them in full (the only time they can be shown); otherwise returns null.
 */
export async function ensureInitialKeys(): Promise<{ secret: string; publishable: string } | null> {
  if ((await storage().keys.list()).length > 0) return null;
  const secret = await createKey({ kind: "secret", live: false, name: "first-run test secret key" });
  const publishable = await createKey({
    kind: "publishable",
    live: false,
    name: "first-run test publishable key",
  });
  return { secret: secret.key, publishable: publishable.key };
}
