import { z } from "zod";
import { isConversionType } from "../../lib/types";
import type { AuthKey } from "../auth/keys";
import { ApiError } from "../errors";
import { metadataSchema } from "../geofences/schema";
import { optionalString } from "../http/fields";
import type { EventWrite } from "../storage/tracking";
import type { StoredEvent } from "../storage/events";
import { storage } from "../storage";
import { asRecorded, outbox } from "./plan";
import { shownOf } from "./kinds";
import { pastInstant } from "./schema";
import { processClock } from "./track";
import { trimUser } from "./serialize";
import { ownsDevice } from "./visible";

/**
 * Conversions (POST /v1/events, the SDKs' logConversion): something a user did that the app
 * counts — a purchase, a sign-up — logged as an event of the user, at its last location, named
 * as the app names it. Stored, listed, exported and sent to webhooks like the other events; not
 * verified (it is not a location decision) and not in the review queue.
 */

const nameField = optionalString(64);

/**
 * The body the SDKs send: the mobile SDKs name the conversion `type`, the web SDK `name`; revenue
 * comes as `metadata.revenue`; `createdAt` is optional (the mobile SDKs never send it).
 */
export const conversionSchema = z
  .object({
    type: nameField,
    name: nameField,
    userId: optionalString(256),
    deviceId: optionalString(256),
    installId: optionalString(256),
    metadata: z.preprocess((v) => (v === "" ? null : v), metadataSchema(32).nullable().optional()),
    createdAt: pastInstant("is in the future"),
  })
  .transform((b, ctx) => {
    const name = b.type ?? b.name;
    const param = b.type !== undefined ? "type" : "name";
    if (name === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["type"],
        message: "is required: the conversion's name (type, or name)",
      });
      return z.NEVER;
    }
    if (!isConversionType(name)) {
      ctx.addIssue({
        code: "custom",
        path: [param],
        message: "must be 1 to 64 letters, digits, _ . : or -, not starting with user. (Radar's own types)",
      });
      return z.NEVER;
    }
    if (!b.userId && !b.deviceId && !b.installId) {
      ctx.addIssue({
        code: "custom",
        path: ["deviceId"],
        message: "is required when neither userId nor installId is given",
      });
      return z.NEVER;
    }
    const revenue = b.metadata?.revenue;
    if (revenue !== undefined && (typeof revenue !== "number" || !Number.isFinite(revenue))) {
      ctx.addIssue({ code: "custom", path: ["metadata", "revenue"], message: "must be a number" });
      return z.NEVER;
    }
    return {
      name,
      userId: b.userId,
      deviceId: b.deviceId,
      installId: b.installId,
      metadata: b.metadata ?? null,
      createdAt: b.createdAt,
    };
  });

export type ConversionInput = z.output<typeof conversionSchema>;

/**
 * Logs a conversion of a user known to the service (by userId, else the device's latest user,
 * else the latest user of the SDK install): the event at the user's last location, written with
 * what it owes webhooks, in the tracking store's transaction for the device (so it is ordered
 * with the device's updates). A user never tracked is a 404: the event needs a location.
 */
export async function logConversion(
  key: AuthKey,
  body: ConversionInput,
  clock = processClock,
): Promise<{ event: StoredEvent; owned: boolean }> {
  const live = key.live;
  let input = body;
  if (!input.userId && !input.deviceId && input.installId) {
    // Named by its install alone: the device it reported last (a read before the device's
    // transaction; the user is found again inside it).
    const found = await storage().users.byInstallId(live, input.installId);
    if (!found) {
      throw new ApiError(
        "not_found",
        `no user with installId ${input.installId} in this environment: track the device first (a conversion is logged at the user's last location)`,
        "installId",
      );
    }
    input = { ...input, deviceId: found.deviceId, userId: found.userId ?? undefined };
  }
  return storage().tracking.apply(
    { live, deviceId: input.deviceId ?? "", userId: input.userId ?? null },
    async (read) => {
      const user =
        (input.userId ? await read.userByUserId(live, input.userId) : null) ??
        (input.deviceId ? await read.userByDeviceId(live, input.deviceId, false) : null);
      if (!user) {
        const who = input.userId ? `userId ${input.userId}` : `deviceId ${input.deviceId}`;
        throw new ApiError(
          "not_found",
          `no user with ${who} in this environment: track the device first (a conversion is logged at the user's last location)`,
          input.userId ? "userId" : "deviceId",
        );
      }
      const now = clock.wall();
      const event: EventWrite = {
        id: clock.newId(),
        live,
        type: input.name,
        user: trimUser(user),
        geofenceId: null,
        geofence: null,
        subject: null,
        region: null,
        place: null,
        placeId: null,
        alternatePlaces: null,
        latitude: user.latitude,
        longitude: user.longitude,
        accuracy: user.accuracy,
        confidence: 0,
        probability: 1,
        band: "core",
        duration: null,
        metadata: input.metadata,
        trip: null,
        // when it happened (as given, or now), and when it was received
        createdAt: input.createdAt ?? now,
        actualCreatedAt: now,
        replayed: false,
        kindFields: null,
      };
      const stored = (seq: number) => asRecorded(event, seq, user.seq);
      const shown = await shownOf(read, user);
      const { seq: _seq, id, live: _live, createdAt, ...write } = user;
      return {
        plan: {
          // The user row is written as it is (nothing of it changes), with no fix in its history.
          user: { seq: user.seq, id, live, createdAt, updatedBefore: write.updatedAt, write },
          location: null,
          events: [event],
          writes: [],
          outbox: outbox(await read.webhooksFor(live), live, user, shown, [stored(0)], clock),
        },
        answer: (written) => ({ event: stored(written?.eventSeqs[0] ?? 0), owned: ownsDevice(user, body) }),
      };
    },
  );
}
