/**
 * Runs once when the server starts: the embedded regions, postal codes and cities, the cities'
 * name index and the address parser load now, and the routing workers start (they load the
 * imports' road graphs) and so does the tracking thread, not on the first request.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { preloadEmbeddedRegions } = await import("./server/regions/embedded");
    preloadEmbeddedRegions();
    const { preloadPostalCodes } = await import("./server/regions/postal");
    preloadPostalCodes();
    const { preloadCities } = await import("./server/regions/cities");
    preloadCities();
    const { preloadAddressParser } = await import("./server/geocode/parse");
    preloadAddressParser();
    const { startRoutingWorkers } = await import("./server/routing/pool");
    startRoutingWorkers();
    const { startTrackingThread } = await import("./server/tracking/thread");
    startTrackingThread();
  }
}
