import type { AuthKey } from "@/server/auth/keys";
import { NEARBY } from "@/server/geofences/schema";
import { setting } from "@/server/settings";
import { Encoded, declared, handler, otherMethods, replyEncoded } from "@/server/http/handler";
import { trackSchema } from "@/server/tracking/schema";
import { steeredTrackingOptions } from "@/server/sdk/config";
import { countedTrackRequest, trackOnThread } from "@/server/tracking/thread";

export { OPTIONS } from "@/server/http/handler";
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

/**
 * Devices report here with a publishable key; dashboard sessions may not (permission null). The
 * update is applied on the tracking thread, which also looks up the nearby geofences a device
 * asks for (a read of the location alone) and answers with them.
 */
const track = handler(
  { access: "publishable", perDevice: true, permission: null, body: trackSchema },
  async ({ key, body }) => {
    const nearby =
      body.nearbyGeofences && (await mayAskNearby(key))
        ? { limit: body.nearbyGeofencesLimit || NEARBY.limit.default, userId: body.userId ?? null }
        : undefined;
    const [tracked, steered] = await Promise.all([
      trackOnThread(key, body, nearby),
      steeredTrackingOptions(key.live),
    ]);
    return replyEncoded(
      tracked.answer,
      tracked.nearby === undefined ? undefined : { nearbyGeofences: new Encoded(tracked.nearby) },
      steered ? { trackingOptions: steered } : undefined,
    );
  },
);

/** The geofences near a fix, for a publishable key only while geofence sync is on (server/settings.ts). */
const mayAskNearby = async (key: AuthKey) =>
  key.kind !== "publishable" || (await setting("publishableGeofenceSync"));

/** Counted while in the route: the tracking thread may wait a moment for updates on their way. */
export const POST: typeof track = declared(
  (req: Parameters<typeof track>[0], route: Parameters<typeof track>[1]) =>
    countedTrackRequest(() => track(req, route)),
  track.contract,
);
