/**
 * Runs once when the server starts: the embedded regions, postal codes and cities, the cities'
 * name index, the address parser and the imports' road graphs load now, not on the first request.
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
    const { preloadRoadGraphs } = await import("./server/routing/engine");
    preloadRoadGraphs();
  }
}
