import { z } from "zod";
import { coordinatePair, cursorDate, intIn } from "../http/fields";
import { LIST_LIMIT, SEARCH } from "../geofences/schema";

export const listUsersSchema = z.object({
  limit: intIn(LIST_LIMIT.min, LIST_LIMIT.max, LIST_LIMIT.default),
  updatedBefore: cursorDate,
  updatedAfter: cursorDate,
});

/** The geofence users list also takes the spec's spelling, `updateBefore`. */
export const geofenceUsersSchema = listUsersSchema
  .extend({ updateBefore: cursorDate })
  .transform(({ updateBefore, ...q }) => ({ ...q, updatedBefore: q.updatedBefore ?? updateBefore }));

export const searchUsersSchema = z.object({
  near: coordinatePair,
  radius: intIn(SEARCH.radius.min, SEARCH.radius.max, SEARCH.radius.default),
  limit: intIn(SEARCH.limit.min, SEARCH.limit.max, SEARCH.limit.default),
});
