import { z } from "zod";
import { coordinatePair, cursorDate, intIn, viewBounds, withMetadataFilter } from "../http/fields";
import { LIST_LIMIT, SEARCH } from "../geofences/schema";

const usersPage = z.object({
  limit: intIn(LIST_LIMIT.min, LIST_LIMIT.max, LIST_LIMIT.default),
  updatedBefore: cursorDate,
  updatedAfter: cursorDate,
});

/** GET /v1/users: newest first; `bounds` keeps the users whose last location is in a map view. */
export const listUsersSchema = usersPage.extend({ bounds: viewBounds });

/** The geofence users list also takes the spec's spelling, `updateBefore`. */
export const geofenceUsersSchema = usersPage
  .extend({ updateBefore: cursorDate })
  .transform(({ updateBefore, ...q }) => ({ ...q, updatedBefore: q.updatedBefore ?? updateBefore }));

export const searchUsersSchema = withMetadataFilter({
  near: coordinatePair,
  radius: intIn(SEARCH.radius.min, SEARCH.radius.max, SEARCH.radius.default),
  limit: intIn(SEARCH.limit.min, SEARCH.limit.max, SEARCH.limit.default),
});
