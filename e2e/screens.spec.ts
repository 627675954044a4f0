import { expect, test } from "@playwright/test";
import { api, consoleErrors, serverKeys, signIn, unique } from "./support";

/**
 * Every dashboard page with real amounts of data, at desktop and tablet widths: the main parts
 * are on screen, nothing runs off the side, and a screenshot of each is kept to look at.
 */
const WIDTHS = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "tablet", width: 820, height: 1180 },
];

test("the dashboard's pages hold 1,000 geofences and their events at desktop and tablet widths", async ({
  page,
}, info) => {
  test.setTimeout(180_000);
  const errors = consoleErrors(page);
  const tag = unique("screen");
  const origin = { lat: 51.5, lng: -0.15 };
  const features = Array.from({ length: 1000 }, (_, i) => ({
    type: "Feature",
    geometry: {
      type: "Point",
      coordinates: [origin.lng + (i % 40) * 0.0015, origin.lat + Math.floor(i / 40) * 0.001],
    },
    properties: { description: `Stand ${i}`, tag, externalId: `s${i}`, radius: 40 },
  }));
  await signIn(page, "admin");
  const imported = await page.request.post("/api/geofences/import?format=geojson", {
    data: JSON.stringify({ type: "FeatureCollection", features }),
    headers: { "content-type": "application/geo+json", origin: new URL(page.url()).origin },
  });
  expect((await imported.text()).trim().split("\n").at(-1)).toContain('"created":1000');
  for (let i = 0; i < 40; i++) {
    await api(
      "POST",
      "/v1/track",
      {
        deviceId: unique("visitor"),
        latitude: origin.lat + Math.floor(i / 4) * 0.001,
        longitude: origin.lng + (i % 40) * 0.0015,
        accuracy: 8,
      },
      serverKeys().publishable,
    );
  }

  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    const fits = async () =>
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);

    await page.goto(`/map?view=${origin.lat + 0.012},${origin.lng + 0.03},14&tag=${tag}`);
    await expect(page.getByRole("region", { name: "Geofences on the map" })).toContainText(
      "1,000 geofences in view",
    );
    await expect(page.getByRole("region", { name: "Map of geofences and users" })).toBeInViewport();
    await fits();
    await page.screenshot({ path: info.outputPath(`map-${size.name}.png`) });

    await page.goto(`/events?q=${tag}`);
    const queue = page.getByRole("region", { name: "Event queue" });
    await expect(queue.getByRole("listitem").first()).toBeVisible();
    await expect(page.getByRole("region", { name: "Event", exact: true }).getByRole("heading")).toBeVisible();
    await expect(
      page.getByRole("region", { name: "Event location" }).locator(".leaflet-overlay-pane path"),
    ).not.toHaveCount(0);
    await fits();
    await page.screenshot({ path: info.outputPath(`events-${size.name}.png`) });

    await page.goto(`/geofences?q=${tag}&sort=description&dir=asc`);
    await expect(page.getByRole("status", { name: "Rows shown" })).toHaveText("1–50 of 1,000 · page 1 of 20");
    await fits();
    await page.screenshot({ path: info.outputPath(`geofences-${size.name}.png`) });

    await page.goto("/users");
    await expect(page.getByRole("status", { name: "Rows shown" })).toContainText("of");
    await fits();
    await page.screenshot({ path: info.outputPath(`users-${size.name}.png`) });

    await page.goto("/keys");
    await expect(page.getByRole("heading", { name: /keys/i }).first()).toBeVisible();
    await fits();
    await page.screenshot({ path: info.outputPath(`keys-${size.name}.png`) });
  }
  expect(errors).toEqual([]);
});
