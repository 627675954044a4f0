import { z } from "zod";
import { choiceList, commaList, cursorDate, intIn, optionalString } from "../http/fields";
import { LIST_LIMIT } from "../geofences/schema";
import { EVENT_TYPES, isConversionType } from "../../lib/types";

/** Verification states as the list filter names them, and their stored values. */
export const VERIFICATIONS = { unverified: 0, accepted: 1, rejected: -1 } as const;

/** Confidence levels as the list filter names them, and their stored values. */
export const CONFIDENCES = { high: 3, medium: 2, low: 1 } as const;

/**
 * GET /v1/events: newest first by cursor, filtered on the server (docs/api.md#events): by
 * verification, type, confidence, user (its `_id`), geofence (its `_id`); the window is the
 * cursors'.
 */
export const listEventsSchema = z.object({
  limit: intIn(LIST_LIMIT.min, LIST_LIMIT.max, LIST_LIMIT.default),
  createdBefore: cursorDate,
  createdAfter: cursorDate,
  verification: choiceList(Object.keys(VERIFICATIONS) as (keyof typeof VERIFICATIONS)[]),
  // Radar's types, and conversions by their names.
  types: commaList.transform((items, ctx) => {
    if (!items) return undefined;
    const unknown = items.filter((t) => !(EVENT_TYPES as string[]).includes(t) && !isConversionType(t));
    if (unknown.length) {
      ctx.addIssue({
        code: "custom",
        message: `unknown type${unknown.length > 1 ? "s" : ""} ${unknown.map((u) => `'${u}'`).join(", ")}; use ${EVENT_TYPES.join(", ")} or a conversion's name`,
      });
      return z.NEVER;
    }
    return items;
  }),
  /** location events (Radar's user.… types) or conversions (POST /v1/events) only */
  kind: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.enum(["location", "conversion"], { error: "must be location or conversion" }).optional(),
  ),
  confidence: choiceList(Object.keys(CONFIDENCES) as (keyof typeof CONFIDENCES)[]),
  userId: optionalString(64),
  geofenceId: optionalString(64),
});

const VERIFICATION_MESSAGE = "must be 1 (accept), -1 (reject) or 0 (unverify)";

export const verifySchema = z.object({
  verification: z.preprocess(
    (v) => (typeof v === "string" && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v),
    z.union([z.literal(1), z.literal(-1), z.literal(0)], {
      error: (i) => (i.input === undefined ? `is required; ${VERIFICATION_MESSAGE}` : VERIFICATION_MESSAGE),
    }),
  ),
  verifiedPlaceId: optionalString(64),
});
