import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { importOsm } from "../server/imports/osm-import";
import { writeOsmPbf } from "../tests/support/osm-pbf";
import { importGtfs } from "../server/imports/gtfs-import";
import { roadland, roadlandOsm } from "../tests/support/road-fixture";
import { writeShoreLine } from "../tests/support/transit-fixture";
import { api, consoleErrors, serverKeys, signIn } from "./support";

/** The playground's route section on Roadland (tests/support/road-fixture.ts). */

const point = (node: number, towards: number) => {
  const [p, q] = [roadland(node), roadland(towards)];
  return `${(p.lat + 0.02 * (q.lat - p.lat)).toFixed(6)},${(p.lng + 0.02 * (q.lng - p.lng)).toFixed(6)}`;
};

test.beforeAll(async () => {
  const pbf = path.join(mkdtempSync(path.join(tmpdir(), "roadland-")), "roadland.osm.pbf");
  writeOsmPbf(pbf, roadlandOsm());
  await importOsm(pbf, { dir: serverKeys().geodataDir });
  await importGtfs(writeShoreLine(path.join(path.dirname(pbf), "shore-line")), {
    dir: serverKeys().geodataDir,
  });
  await expect
    .poll(async () => {
      const res = await api(
        "GET",
        `/v1/route/distance?origin=${point(1, 2)}&destination=${point(4, 3)}&modes=car`,
      );
      return (res.body.routes as { car?: { distance?: unknown } } | undefined)?.car?.distance !== undefined;
    })
    .toBe(true);
});

test("an analyst routes by car and on foot in the playground and sees both lines", async ({ page }) => {
  const errors = consoleErrors(page);
  await signIn(page, "analyst");
  await page.getByRole("link", { name: "Playground", exact: true }).click();
  await page.getByLabel("Origin", { exact: true }).fill(point(4, 3));
  await page.getByLabel("Destination", { exact: true }).fill(point(3, 4));
  await page.getByRole("button", { name: "Route", exact: true }).click();
  const results = page.getByLabel("Routes");
  // By car round the one-way block (about 555 m), on foot straight down (about 111 m).
  await expect(results).toContainText(/car\s*5\d\d m · \d+ min/);
  await expect(results).toContainText(/foot\s*1\d\d m · \d+ min/);
  await expect(page.locator(".leaflet-overlay-pane path.leaflet-interactive")).toHaveCount(2);
  // The map shows the lines where they are.
  await page.getByRole("region", { name: "Playground map" }).evaluate(() => undefined);
  await page.screenshot({ path: "test-results/e2e/routing-playground.png" });
  expect(errors).toEqual([]);
});

test("an analyst plans a transit trip and sees its legs with their times on the map", async ({ page }) => {
  const errors = consoleErrors(page);
  await signIn(page, "analyst");
  await page.getByRole("link", { name: "Playground", exact: true }).click();
  // The Shore Line (tests/support/transit-fixture.ts): A to M at 8:00, two minutes.
  await page.getByLabel("Origin", { exact: true }).fill(`${roadland(1).lat},${roadland(1).lng}`);
  await page.getByLabel("Destination", { exact: true }).fill(`${roadland(8).lat},${roadland(8).lng}`);
  await page.getByRole("checkbox", { name: "car" }).uncheck();
  await page.getByRole("checkbox", { name: "foot" }).uncheck();
  await page.getByRole("checkbox", { name: "transit" }).check();
  await page.getByLabel("Leave at").fill("2026-06-01T07:58");
  await page.getByRole("button", { name: "Route", exact: true }).click();
  const results = page.getByLabel("Routes");
  // Asked for 07:58: leave at 08:00, from the stop, when the ride goes (no waiting there).
  await expect(results).toContainText("leave 08:00, arrive 08:02");
  const legs = page.getByRole("list", { name: "Transit legs" });
  await expect(legs).toContainText(/08:00–08:02\s*1 to M from Shore A to Bollard M \(1 stop\)/);
  // The ride in violet and its two stops with their times.
  await expect(page.locator('.leaflet-overlay-pane path[stroke="#7c3aed"]')).toHaveCount(3);
  await page.screenshot({ path: "test-results/e2e/transit-playground.png" });
  // Later than the day's only trip: walking, marked as such.
  await page.getByLabel("Leave at").fill("2026-06-01T08:01");
  await page.getByRole("button", { name: "Route", exact: true }).click();
  await expect(results).toContainText("walking is sooner than any trip");
  // Far from any feed: said so, not invented.
  await page.getByLabel("Origin", { exact: true }).fill("48.8566,2.3522");
  await page.getByLabel("Destination", { exact: true }).fill("48.8606,2.3376");
  await page.getByRole("button", { name: "Route", exact: true }).click();
  await expect(results).toContainText(/no imported transit timetables serve/);
  expect(errors).toEqual([]);
});

test("an analyst draws an isochrone geofence from a point and minutes, previewed on the map before saving", async ({
  page,
}, info) => {
  const errors = consoleErrors(page);
  await signIn(page, "analyst");
  const a = roadland(1);
  await page.goto(`/map?view=${a.lat},${a.lng + 0.002},16`);
  await page.getByRole("button", { name: "Draw Isochrone (reachable area)" }).click();
  const box = (await page.getByLabel("Map of geofences and users").boundingBox())!;
  // Node A sits 0.002° (about 220 m) west of the map's centre.
  const perDegree = (256 * 2 ** 16) / 360;
  await page.mouse.click(box.x + box.width / 2 - 0.002 * perDegree, box.y + box.height / 2);
  const form = page.getByRole("form", { name: "New geofence" });
  const reach = form.getByRole("group", { name: "Reachable area (isochrone)" });
  await reach.getByLabel("Minutes of travel").fill("5");
  await reach.getByLabel("Mode").selectOption("foot");
  // The preview: the area reachable in 5 minutes on foot, dashed, before anything is saved.
  await expect(page.locator('.leaflet-overlay-pane path[stroke="#7c3aed"]')).toHaveCount(1);
  await page.screenshot({ path: info.outputPath("isochrone-preview.png") });
  const description = `Five minutes' walk ${Math.random().toString(16).slice(2, 8)}`;
  await form.getByLabel("Description").fill(description);
  await form.getByRole("button", { name: "Save geofence" }).click();
  const details = page.getByRole("region", { name: "Geofence", exact: true });
  await expect(details.getByRole("heading", { name: description })).toBeVisible();
  await expect(details).toContainText("isochrone, 5 min by foot");
  await page.screenshot({ path: info.outputPath("isochrone-saved.png") });
  const saved = await api("GET", `/v1/geofences?limit=5`);
  const g = (saved.body.geofences as { description: string; type: string; geometry: unknown }[]).find(
    (x) => x.description === description,
  );
  expect(g?.type).toBe("isochrone");
  expect(errors).toEqual([]);
});

test("an analyst gets directions step by step, optimizes stops and matches an uploaded trace in the playground", async ({
  page,
}, info) => {
  const errors = consoleErrors(page);
  await signIn(page, "analyst");
  await page.getByRole("link", { name: "Playground", exact: true }).click();
  const trip = page.getByRole("region", { name: "Directions, optimize, match" });
  // Round Roadland's one-way block: from Up Street to Up Street.
  await trip.getByLabel("Stops").fill(`${point(4, 3)}\n${point(3, 4)}`);
  await trip.getByRole("button", { name: "Directions" }).click();
  const steps = trip.getByLabel("Directions");
  await expect(steps).toContainText("Turn left onto Back Lane");
  await expect(steps).toContainText("Turn left onto Shore Road");
  await trip.getByLabel("Language").selectOption("de");
  await trip.getByRole("button", { name: "Directions" }).click();
  await expect(steps).toContainText("Links abbiegen auf Back Lane");
  // A step flies the map to its maneuver, ringed.
  await steps.getByRole("button", { name: /Shore Road/ }).click();
  await expect(page.locator('.leaflet-overlay-pane path[stroke="#f59e0b"]')).toHaveCount(1);
  await page.screenshot({ path: info.outputPath("directions.png") });

  // Four stops: A, then C and B in the wrong order, then D; the order found visits B before C.
  await trip.getByLabel("Stops").fill([point(1, 2), point(3, 2), point(2, 3), point(4, 5)].join("\n"));
  await trip.getByLabel("Trip mode").selectOption("foot");
  await trip.getByRole("button", { name: "Optimize order" }).click();
  await expect(trip.getByLabel("Optimized order")).toContainText("Order: 1 → 3 → 2 → 4");
  await expect(page.locator(".leaflet-marker-pane .bg-violet-700")).toHaveCount(4);
  await page.screenshot({ path: info.outputPath("optimize.png") });

  // A CSV trace along Shore Road and up Up Street, a few meters off the roads.
  const csv = [
    "latitude,longitude,accuracy",
    "0.50007,2.0002,10",
    "0.49992,2.0009,10",
    "0.50006,2.0016,10",
    "0.5004,2.00205,10",
    "0.5008,2.00196,10",
  ].join("\n");
  await trip
    .getByLabel("Trace file")
    .setInputFiles({ name: "drive.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await expect(trip.getByLabel("Matched trace")).toContainText("5 of 5 fixes matched");
  await page.screenshot({ path: info.outputPath("match.png") });
  expect(errors).toEqual([]);
});
