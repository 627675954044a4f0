import { expect, test } from "@playwright/test";
import { api, consoleErrors, serverKeys, signIn, unique } from "./support";

/**
 * The map at real scale: it asks the server for what is in view, says when a view holds more
 * than it loads, finds a geofence anywhere by its words, and keeps its view and the open
 * geofence in the address.
 */
test("the map loads the area in view, says when more is there, and finds a geofence anywhere", async ({
  page,
}, info) => {
  test.setTimeout(180_000);
  const errors = consoleErrors(page);
  const tag = unique("dense");
  // 1,100 small geofences packed into about 7 × 7 km, and users among them.
  const origin = { lat: -31.9, lng: 141.2 };
  const puts: Promise<unknown>[] = [];
  for (let i = 0; i < 1100; i++) {
    const [row, col] = [Math.floor(i / 34), i % 34];
    puts.push(
      api("PUT", `/v1/geofences/${tag}/${i}`, {
        description: `Block ${i} ${tag}`,
        type: "circle",
        coordinates: [origin.lng + col * 0.002, origin.lat + row * 0.002],
        radius: 50,
      }).then((r) => expect(r.status).toBe(200)),
    );
    if (puts.length === 25) await Promise.all(puts.splice(0));
  }
  await Promise.all(puts);
  for (let i = 0; i < 5; i++) {
    await api(
      "POST",
      "/v1/track",
      {
        deviceId: unique("walker"),
        latitude: origin.lat + 0.01 * i,
        longitude: origin.lng + 0.01,
        accuracy: 10,
      },
      serverKeys().publishable,
    );
  }
  // One geofence far away, found by its name.
  const far = await api("PUT", `/v1/geofences/${tag}/lighthouse`, {
    description: `Lighthouse ${tag}`,
    type: "circle",
    coordinates: [150.1, -35.2],
    radius: 100,
  });
  const lighthouse = (far.body.geofence as { _id: string })._id;

  await signIn(page, "analyst");
  const centre = `${origin.lat + 0.033},${origin.lng + 0.033}`;
  await page.goto(`/map?view=${centre},13&tag=${tag}`);
  const overview = page.getByRole("region", { name: "Geofences on the map" });
  await expect(overview.getByRole("note")).toContainText("More than 1,000 geofences are in this view");
  await expect(overview).toContainText("1,000+ geofences in view");
  await expect(page.locator(".leaflet-overlay-pane path")).toHaveCount(1000);
  await page.screenshot({ path: info.outputPath("map-dense.png") });

  // Zoomed in on a corner: everything there is loaded, and nothing is said to be missing.
  await page.goto(`/map?view=${origin.lat + 0.004},${origin.lng + 0.004},17&tag=${tag}`);
  await expect(overview).toContainText(/\b\d{1,3} geofences? in view · [1-9]\d* users? on the map/);
  await expect(overview.getByRole("note")).toHaveCount(0);

  // The search finds the far geofence; choosing it moves the map there and opens it.
  await overview.getByRole("searchbox").fill(`Lighthouse ${tag}`);
  await overview.getByRole("button", { name: `Lighthouse ${tag}` }).click();
  const details = page.getByRole("region", { name: "Geofence", exact: true });
  await expect(details.getByRole("heading", { name: `Lighthouse ${tag}` })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`geofence=${lighthouse}`));
  await expect(page).toHaveURL(/view=-35\.2/);
  // A shared link opens the same view with the same geofence open.
  await page.goto(page.url());
  await expect(details.getByRole("heading", { name: `Lighthouse ${tag}` })).toBeVisible();
  await expect(page.locator(".leaflet-overlay-pane path")).toHaveCount(1);
  expect(errors).toEqual([]);
});

test("an analyst opens a user from a link and sees where it has been", async ({ page }, info) => {
  const errors = consoleErrors(page);
  const deviceId = unique("trail");
  let user = "";
  for (let i = 0; i < 4; i++) {
    const res = await api(
      "POST",
      "/v1/track",
      {
        deviceId,
        latitude: -33.86 + i * 0.001,
        longitude: 151.2 + i * 0.0015,
        accuracy: 12,
        // What Radar's iOS SDK says of the device with each update.
        deviceType: "iOS",
        deviceOS: "17.5",
        deviceMake: "Apple",
        deviceModel: "iPhone15,2",
        sdkVersion: "3.20.1",
        locationAuthorization: "GRANTED_FOREGROUND",
        locationAccuracyAuthorization: "REDUCED",
        foreground: true,
        stopped: false,
        speed: 5,
        course: 90,
      },
      serverKeys().publishable,
    );
    user = (res.body.user as { _id: string })._id;
  }
  // What the device's SDK logged: support staff read it in the panel.
  await api(
    "POST",
    "/v1/logs",
    { deviceId, logs: [{ level: "WARNING", message: "Background location permission revoked" }] },
    serverKeys().publishable,
  );
  await signIn(page, "analyst");
  await page.goto(`/map?view=-33.8585,151.2022,16&user=${user}`);
  const details = page.getByRole("region", { name: "User", exact: true });
  await expect(details.getByRole("heading", { name: deviceId })).toBeVisible();
  await expect(details.getByLabel("Trail")).toContainText("Trail: 4 recent locations since");
  // What support staff look at first: the device, its SDK, its permission, its state.
  await expect(details.getByLabel("Hardware")).toHaveText("iOS 17.5 · Apple iPhone15,2 · SDK 3.20.1");
  await expect(details.getByLabel("Permission")).toHaveText("GRANTED_FOREGROUND · REDUCED");
  await expect(details.getByLabel("State")).toHaveText("foreground · moving");
  await expect(details.getByLabel("Last fix")).toHaveText("18 km/h · heading 90°");
  await expect(details.getByRole("region", { name: "Device log" })).toContainText(
    "WARNING Background location permission revoked",
  );
  await details.screenshot({ path: info.outputPath("user-details.png") });
  // The trail's line and its four points.
  await expect(page.locator(".leaflet-overlay-pane path[stroke='#7c3aed']")).toHaveCount(5);
  await details.getByRole("button", { name: "Close" }).click();
  await expect(page.locator(".leaflet-overlay-pane path[stroke='#7c3aed']")).toHaveCount(0);
  expect(errors).toEqual([]);
});
