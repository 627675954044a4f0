import { z } from "zod";
import { cursorDate, intIn, optionalString } from "../http/fields";
import { LIST_LIMIT } from "../geofences/schema";

export const listEventsSchema = z.object({
  limit: intIn(LIST_LIMIT.min, LIST_LIMIT.max, LIST_LIMIT.default),
  createdBefore: cursorDate,
  createdAfter: cursorDate,
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
