import { z } from "zod";
import type { AuthKey } from "../auth/keys";
import { ApiError } from "../errors";
import { type TrackInput, trackSchema } from "./schema";

/**
 * POST /v1/track/replay: the updates a device buffered while offline (the mobile SDKs flush up to
 * their buffer size, 120 by default), each applied as it would have been live, in the order they
 * happened, marked `replayed`. A replay carries no updatedAt of its own: it happened
 * `updatedAtMsDiff` milliseconds before the request arrived (the SDKs' `locationMs` is
 * milliseconds since boot on Android and epoch on iOS, and is not used).
 *
 * Every replay is checked before any is applied: a bad one is a 400 naming its index, and nothing
 * changes. An update older than the device's latest changes nothing (as live), so a buffer
 * flushed after newer live updates makes no events.
 */

export const MAX_REPLAYS = 120;
/** How old a buffered update may be. */
const MAX_AGE_MS = 30 * 86_400_000;

export const replaySchema = z.object({
  replays: z
    .array(z.record(z.string(), z.unknown()), { error: "must be a list of track bodies" })
    .min(1, "must hold at least one update")
    .max(MAX_REPLAYS, `must hold at most ${MAX_REPLAYS} updates (the SDKs' buffer)`),
});

const msDiff = z.preprocess(
  (v) => (typeof v === "string" && v.trim() !== "" ? Number(v) : v),
  z
    .number({ error: "must be milliseconds" })
    .int("must be whole milliseconds")
    .min(0, "must not be negative")
    .max(MAX_AGE_MS, "is older than 30 days")
    .optional(),
);

/** The replays as updates, oldest first, each with its time; or a 400 naming the first bad one. */
export function replayedUpdates(replays: Record<string, unknown>[], arrival: Date): TrackInput[] {
  const updates = replays.map((raw, index) => {
    const diff = msDiff.safeParse(raw.updatedAtMsDiff);
    if (!diff.success) {
      const message = diff.error.issues[0]!.message;
      throw new ApiError(
        "invalid_input",
        `replays[${index}].updatedAtMsDiff: ${message}`,
        `replays[${index}].updatedAtMsDiff`,
      );
    }
    const parsed = trackSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = String(issue.path[0] ?? "body");
      throw new ApiError(
        "invalid_input",
        `replays[${index}].${field}: ${issue.message}`,
        `replays[${index}].${field}`,
      );
    }
    const at = parsed.data.updatedAt ?? new Date(arrival.getTime() - (diff.data ?? 0));
    return { index, input: { ...parsed.data, updatedAt: at, replayed: true } };
  });
  return updates
    .sort((a, b) => a.input.updatedAt.getTime() - b.input.updatedAt.getTime() || a.index - b.index)
    .map((u) => u.input);
}

/**
 * Applies the replays one after the other (each decided on the state the one before left) and
 * answers every event they made, in order, and the user as the last one left it.
 */
export async function replay(
  key: AuthKey,
  replays: Record<string, unknown>[],
  apply: (key: AuthKey, input: TrackInput) => Promise<string>,
  arrival = new Date(),
): Promise<string> {
  const updates = replayedUpdates(replays, arrival);
  const events: unknown[] = [];
  let user: unknown = null;
  for (const input of updates) {
    const answer = JSON.parse(await apply(key, input)) as { user: unknown; events: unknown[] };
    events.push(...answer.events);
    user = answer.user;
  }
  return JSON.stringify({ events, user });
}
