import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { importOsm } from "../server/imports/osm-import";
import { geoland } from "../tests/support/geocode-fixture";
import { writeOsmPbf } from "../tests/support/osm-pbf";
import { api, consoleErrors, serverKeys, signIn } from "./support";

/** The search box on the map and in the playground: suggestions while typing, forward results. */

test.beforeAll(async () => {
  const pbf = path.join(mkdtempSync(path.join(tmpdir(), "geoland-")), "geoland.osm.pbf");
  writeOsmPbf(pbf, geoland());
  await importOsm(pbf, { dir: serverKeys().geodataDir });
  await expect
    .poll(
      async () =>
        (
          (await api("GET", "/v1/geocode/forward?query=Hauptstrasse%203%20Neustadt")).body.addresses as {
            layer: string;
          }[]
        )?.[0]?.layer,
    )
    .toBe("address");
});

test("an analyst finds a street while typing and the map goes there", async ({ page }) => {
  const errors = consoleErrors(page);
  await signIn(page, "analyst");
  await page.getByRole("link", { name: "Map", exact: true }).click();
  const box = page.getByRole("combobox", { name: "Address or place" });
  await box.fill("Hauptst");
  const suggestions = page.getByRole("listbox", { name: "Suggestions" });
  // The map starts in New York: both Hauptstraßen are far, among the towns named Hauptst…
  await expect(
    suggestions.getByRole("option", { name: /Hauptstraße, Neustadt.*street · fallback/ }),
  ).toBeVisible();
  // Keyboard: down to the Neustadt street, Enter chooses it.
  const options = await suggestions.getByRole("option").allTextContents();
  const index = options.findIndex((o) => o.includes("Neustadt"));
  for (let i = 0; i <= index; i++) await box.press("ArrowDown");
  await box.press("Enter");
  // The chosen answer is drawn with its label, and the map has moved to it (street zoom).
  const map = page.getByRole("region", { name: "Map of geofences and users" });
  await expect(
    map.getByRole("tooltip", { name: /Hauptstraße, Neustadt.*\(street, fallback\)/ }),
  ).toBeVisible();
  // The map moved there: the label sits inside the map, near its middle (it started in New York).
  const label = map.getByRole("tooltip", { name: /Hauptstraße, Neustadt/ });
  await expect
    .poll(async () => {
      const [m, t] = [(await map.boundingBox())!, (await label.boundingBox())!];
      return (
        Math.abs(t.x + t.width / 2 - (m.x + m.width / 2)) < 100 && Math.abs(t.y - (m.y + m.height / 2)) < 100
      );
    })
    .toBe(true);
  await page.screenshot({ path: "test-results/e2e/geocoding-map.png" });
  expect(errors).toEqual([]);
});

test("forward geocoding in the playground lists every answer with its layer and confidence", async ({
  page,
}) => {
  const errors = consoleErrors(page);
  await signIn(page, "analyst");
  await page.getByRole("link", { name: "Playground", exact: true }).click();
  // The map page has a search box of the same name, shown until the playground has rendered:
  // the playground's own box is the one inside its map (typing into the other, while the
  // navigation was under way, was what looked like the playground emptying its box).
  await expect(page).toHaveURL(/\/playground$/);
  const box = page
    .getByRole("region", { name: "Playground map" })
    .getByRole("combobox", { name: "Address or place" });
  const results = page.getByRole("listbox", { name: "Search results" });
  await box.fill("Hauptstrasse 7, Neustadt");
  await box.press("Enter");
  await expect(results.getByRole("option").first()).toContainText("7 Hauptstraße, Neustadt");
  await expect(results.getByRole("option").first()).toContainText("address · interpolated");
  await expect(page.getByRole("tooltip", { name: /7 Hauptstraße.*interpolated/ })).toBeVisible();
  await page.screenshot({ path: "test-results/e2e/geocoding-playground.png" });
  // Clicking the map reverse geocodes the point (the map now shows Neustadt at street zoom): a
  // little beside the chosen address, once the map has flown there.
  const map = page.getByRole("region", { name: "Playground map" });
  await page.waitForTimeout(1000);
  const size = (await map.boundingBox())!;
  await map.click({ position: { x: size.width / 2 - 40, y: size.height / 2 + 30 } });
  await expect(
    page
      .getByRole("definition")
      .filter({ hasText: /Neustadt|Geoland|XG/ })
      .first(),
  ).toBeVisible();
  expect(errors).toEqual([]);
});

test("a reviewer, who may not geocode, has no search box", async ({ page }) => {
  await signIn(page, "reviewer");
  await page.getByRole("link", { name: "Map", exact: true }).click();
  await expect(page.getByRole("region", { name: "Map of geofences and users" })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Address or place" })).toHaveCount(0);
});
