import { z } from "zod";
import { sessionAuthKey } from "@/server/auth/sessions";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { intIn } from "@/server/http/fields";
import { otherMethods } from "@/server/http/handler";
import { storage } from "@/server/storage";

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

const DAY_MS = 86_400_000;

/**
 * GET /api/events/conversions?days=30: the conversions (POST /v1/events) of the session's
 * environment per UTC day and name over the last `days` days (1–365) including today, with the
 * revenue they carried: the Events page's chart. Counted by the database, however many there are.
 */
export const GET = dashboardHandler(
  { permission: "events:read", query: z.object({ days: intIn(1, 365, 30) }) },
  async ({ session, query }) => {
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const since = new Date(today - (query.days - 1) * DAY_MS);
    const days = await storage().events.conversionsPerDay(sessionAuthKey(session).live, since);
    return ok({ since: since.toISOString().slice(0, 10), days });
  },
);
