import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Page, expect, test } from "@playwright/test";
import { importOsm } from "../server/imports/osm-import";
import { FRESH_ACCOUNTS, FRESH_PASSWORD, type FreshServer, startFreshServer } from "../scripts/fresh-server";
import type { TestOsm } from "../tests/support/osm-pbf";
import { writeOsmPbf } from "../tests/support/osm-pbf";
import { consoleErrors, serverKeys, signIn } from "./support";

/**
 * The map when the tile server hangs (accepts connections, never answers): the offline basemap
 * within seconds, no request to the dead host on every pan, the main roads when zoomed out, and
 * a first map that opens on the imported data.
 */

/** Ringland: a ring road (primary) and a side street, at sea off West Africa, about 0.4° E. */
const RINGLAND = { lng: 0.4, lat: 0.3 };
function ringland(): TestOsm {
  const { lng, lat } = RINGLAND;
  return {
    nodes: [
      { id: 1, lon: lng - 0.02, lat },
      { id: 2, lon: lng, lat: lat + 0.001 },
      { id: 3, lon: lng + 0.02, lat },
      { id: 4, lon: lng, lat: lat - 0.004 },
      { id: 5, lon: lng + 0.002, lat: lat - 0.004 },
    ],
    ways: [
      { id: 10, refs: [1, 2, 3], tags: { highway: "primary", name: "Ring Road" } },
      { id: 11, refs: [4, 5], tags: { highway: "residential", name: "Side Street" } },
    ],
    relations: [],
  };
}

async function importRingland(geodataDir: string) {
  const pbf = path.join(mkdtempSync(path.join(tmpdir(), "ringland-")), "ringland.osm.pbf");
  writeOsmPbf(pbf, ringland());
  await importOsm(pbf, { dir: geodataDir });
}

/** Tile requests hang: counted, never answered. */
async function hangTiles(page: Page): Promise<() => number> {
  let asked = 0;
  await page.route(/tile\.openstreetmap\.org/, () => {
    asked++;
  });
  return () => asked;
}

test("a tile server that never answers: roads from the import within seconds, and no request on every pan", async ({
  page,
}, info) => {
  const errors = consoleErrors(page);
  await importRingland(serverKeys().geodataDir);
  const asked = await hangTiles(page);
  await signIn(page, "analyst");
  await page.goto(`/map?view=${RINGLAND.lat},${RINGLAND.lng},12`);
  const map = page.getByRole("region", { name: "Map of geofences and users" });
  const started = Date.now();
  await expect(map.getByText(/Tiles unreachable: roads from the imported OpenStreetMap data/)).toBeVisible({
    timeout: 8000,
  });
  expect(Date.now() - started).toBeLessThan(8000);
  // Zoomed out (12): the ring road is drawn, the side street is not.
  const roads = page.locator(".leaflet-streets-pane path");
  await expect.poll(() => roads.count()).toBe(1);
  await page.screenshot({ path: info.outputPath("offline-main-roads.png") });

  // Panning asks the dead host nothing more.
  const before = asked();
  await map.locator(".leaflet-container").focus();
  for (const key of ["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp", "ArrowRight"]) {
    await page.keyboard.press(key);
    await page.waitForTimeout(200);
  }
  await page.waitForTimeout(1000);
  expect(asked()).toBe(before);

  // At street zoom, every street, with names.
  await page.goto(`/map?view=${RINGLAND.lat - 0.003},${RINGLAND.lng},16`);
  await expect(map.getByText(/Tiles unreachable/)).toBeVisible();
  await expect(map.locator(".street-label", { hasText: "Side Street" })).toBeVisible();
  expect(errors).toEqual([]);
});

test.describe("a service with imported data and no geofences or users yet", () => {
  let fresh: FreshServer | undefined;
  test.afterAll(async () => {
    await fresh?.stop();
  });

  test("opens the map and the playground on the imported data", async ({ page }) => {
    test.setTimeout(120_000);
    fresh = await startFreshServer();
    await importRingland(fresh.geodataDir);
    await hangTiles(page);
    await page.goto(`${fresh.url}/login`);
    await page.getByLabel("Email").fill(FRESH_ACCOUNTS.analyst);
    await page.getByLabel("Password").fill(FRESH_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/overview/);
    await page.getByRole("link", { name: "Map", exact: true }).click();
    await expect(page).toHaveURL(/\/map/);
    // The map opens over Ringland: its roads are drawn (offline) once it is there.
    await expect(page.locator(".leaflet-streets-pane path").first()).toBeVisible({ timeout: 15_000 });
    await page.goto(`${fresh.url}/playground`);
    await expect(page.locator(".leaflet-streets-pane path").first()).toBeVisible({ timeout: 15_000 });
  });
});
