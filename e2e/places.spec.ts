import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { importOsm } from "../server/imports/osm-import";
import { TESTLAND, testland } from "../tests/support/osm-fixture";
import { writeOsmPbf } from "../tests/support/osm-pbf";
import { api, consoleErrors, serverKeys, signIn, unique, openFromMenu } from "./support";

/** Imported places in the dashboard: the review screen's place picker, the playground, the map. */

const near = `${TESTLAND.cafe.lat},${TESTLAND.cafe.lng}`;

test.beforeAll(async () => {
  const pbf = path.join(mkdtempSync(path.join(tmpdir(), "testland-")), "testland.osm.pbf");
  writeOsmPbf(pbf, testland());
  await importOsm(pbf, { dir: serverKeys().geodataDir });
  // The running server picks the import up within a second.
  await expect
    .poll(
      async () =>
        ((await api("GET", `/v1/context?coordinates=${near}`)).body.context as { place?: unknown }).place,
    )
    .toBeTruthy();
});

test("a reviewer says which place a user was at, from the detected place and its alternatives", async ({
  page,
}, info) => {
  const errors = consoleErrors(page);
  const deviceId = unique("stopped");
  // 15 m east of the cafe, 40 m from the supermarket: the cafe is detected, the supermarket listed.
  const tracked = await api(
    "POST",
    "/v1/track",
    {
      deviceId,
      latitude: TESTLAND.cafe.lat,
      longitude: TESTLAND.cafe.lng + 0.000135,
      accuracy: 80,
      stopped: true,
    },
    serverKeys().publishable,
  );
  const event = (tracked.body.events as { _id: string; type: string }[]).find(
    (e) => e.type === "user.entered_place",
  )!;
  expect(event).toBeTruthy();

  await signIn(page, "reviewer");
  await openFromMenu(page, "Events");
  await page.getByLabel("Geofence, place or region").fill("Bean There");
  await page.getByRole("button", { name: new RegExp(deviceId) }).click();
  await expect(page.getByRole("heading", { name: "Entered place Bean There" })).toBeVisible();
  const picker = page.getByRole("group", { name: "Where was the user?" });
  await expect(picker.getByRole("radio")).toHaveCount(2);
  await expect(picker.getByRole("radio", { name: /Bean There.*detected/ })).toBeChecked();
  // The place and its alternative are on the event's map.
  await expect(page.getByRole("region", { name: "Event location" })).toContainText("Bean There");
  await picker.getByRole("radio", { name: /FreshCo/ }).check();
  await page.screenshot({ path: info.outputPath("place-picker.png") });
  await picker.getByRole("button", { name: "Accept at this place" }).click();
  await expect(page.getByRole("status")).toContainText("the user was at FreshCo");

  const stored = await api("GET", `/v1/events/${event._id}`);
  expect(stored.body.event).toMatchObject({ verification: 1, verifiedPlace: { name: "FreshCo" } });
  expect(errors).toEqual([]);
});

test("the playground finds places and the map shows imported boundaries", async ({ page }, info) => {
  const errors = consoleErrors(page);
  await signIn(page, "analyst");
  await openFromMenu(page, "Playground");
  await page.getByLabel("Coordinates").fill(near);
  await page.getByRole("button", { name: "Get context" }).click();
  const result = page.getByLabel("Context result");
  await expect(result).toContainText("Bean There");
  await expect(result).toContainText("Testland (XT)");
  await expect(result).toContainText("10001");
  // The imported house number is the address.
  await expect(result).toContainText("1 Main Street, Testville, 10001, XT · address");

  await page.getByLabel("Radius (m)").fill("100");
  await page.getByRole("button", { name: "Search places" }).click();
  const found = page.getByRole("list", { name: "Places found" });
  await expect(found.getByRole("listitem")).toHaveCount(2);
  await expect(found.getByRole("listitem").first()).toContainText("Bean There");
  await expect(found.getByRole("listitem").nth(1)).toContainText("FreshCo");
  await page.getByLabel("Categories").fill("nothing-like-this");
  await page.getByRole("button", { name: "Search places" }).click();
  await expect(found).toContainText("No places there.");
  await page.screenshot({ path: info.outputPath("playground-places.png") });

  await page.getByRole("link", { name: "Map", exact: true }).click();
  await page.getByRole("checkbox", { name: /Imported places and boundaries/ }).check();
  // The imports are listed; "Show" brings the map to Testland, with its places zoomed in.
  await page.getByRole("button", { name: "Show testland" }).click();
  // Testland's country, state and postal code outlines.
  await expect
    .poll(() => page.locator(".leaflet-overlay-pane path[stroke='#0f766e']").count())
    .toBeGreaterThanOrEqual(4);
  await expect
    .poll(() => page.locator(".leaflet-overlay-pane path[stroke='#b45309']").count())
    .toBeGreaterThan(3);
  await page.screenshot({ path: info.outputPath("map-imported.png") });
  expect(errors).toEqual([]);
});

test("without a tile server the map draws the imported streets with their names", async ({ page }, info) => {
  const errors = consoleErrors(page);
  await signIn(page, "analyst");
  // No internet here: the tile server cannot be reached, so the imported streets are the basemap.
  await page.goto(`/map?view=0.0195,0.021,17`);
  const map = page.getByRole("region", { name: "Map of geofences and users" });
  await expect(map.getByText(/Tiles unreachable: roads from the imported OpenStreetMap data/)).toBeVisible();
  const streets = page.locator(".leaflet-streets-pane path");
  await expect.poll(() => streets.count()).toBeGreaterThanOrEqual(1);
  await expect(map.locator(".street-label", { hasText: "Main Street" })).toBeVisible();
  await page.screenshot({ path: info.outputPath("map-offline-streets.png") });
  // Zoomed out beyond the main roads' zoom (10), no roads are read or drawn.
  await page.goto(`/map?view=0.0195,0.021,8`);
  await expect(map.getByText(/Tiles unreachable/)).toBeVisible();
  await expect(streets).toHaveCount(0);
  expect(errors).toEqual([]);
});
