/**
 * Runs once when the server starts: the environment is checked; the embedded regions, postal
 * codes and cities, the cities' name index and the address parser load now (unless
 * PRELOAD_DATASETS=false: then on first use), and the routing
 * workers start (they load the imports' road graphs) and so does the tracking thread, not on the
 * first request; the webhook sender's thread starts sending what the outbox holds, and the
 * geofence sweeper disables and deletes geofences at their disableAfter and deleteAfter.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    // A bad setting stops the server here, with what is wrong, rather than failing requests.
    const { env } = await import("./server/config/env");
    const { log } = await import("./server/log/logger.mjs");
    try {
      env();
    } catch (e) {
      log.fatal((e as Error).message);
      process.exit(1);
    }
    if (env().PRELOAD_DATASETS) {
      const { preloadEmbeddedRegions } = await import("./server/regions/embedded");
      preloadEmbeddedRegions();
      const { preloadPostalCodes } = await import("./server/regions/postal");
      preloadPostalCodes();
      const { preloadCities } = await import("./server/regions/cities");
      preloadCities();
      const { preloadAddressParser } = await import("./server/geocode/parse");
      preloadAddressParser();
    }
    const { routingChannel, startRoutingWorkers } = await import("./server/planner/pool");
    startRoutingWorkers();
    const { serveTripRoutes, startTrackingThread } = await import("./server/tracking/thread");
    // Trips' road ETAs: the tracking thread asks a routing worker on a port of its own.
    serveTripRoutes(routingChannel);
    startTrackingThread();
    const { startWebhookSender, stopWebhookSender } = await import("./server/webhooks/sender-thread");
    startWebhookSender();
    // Asked by scripts/serve.mjs when the process is being stopped (SIGTERM, SIGINT), before it
    // exits: the sender records what is in flight and leaves the rest to the next process at once.
    (globalThis as { whenStopping?: () => Promise<void> }).whenStopping = () => stopWebhookSender(2000);
    const { startGeofenceSweeper } = await import("./server/geofences/expiry");
    startGeofenceSweeper();
    const { startIsochroneGeofences } = await import("./server/planner/isochrone-geofences");
    startIsochroneGeofences();
    const { startRetention } = await import("./server/tracking/retention");
    startRetention();
    // GET /metrics reads the webhook outbox's depth from the database when it is asked.
    const { provide } = await import("./server/metrics/metrics.mjs");
    const { storage } = await import("./server/storage");
    provide({ outboxDepth: () => storage().webhooks.depth() });
  }
}
