import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { api, consoleErrors, serverKeys, signIn, unique } from "./support";

/** Tables searched, sorted and paged by the server; geofences in and out as files; events out as CSV. */

test("an analyst imports 1,000 geofences from a GeoJSON file, finds and sorts them, and exports them", async ({
  page,
}, info) => {
  test.setTimeout(120_000);
  const errors = consoleErrors(page, /status of 400/);
  const tag = unique("imp");
  const features = Array.from({ length: 1000 }, (_, i) => ({
    type: "Feature",
    geometry: { type: "Point", coordinates: [-20 + (i % 40) * 0.002, 60 + Math.floor(i / 40) * 0.002] },
    properties: {
      description: `Kiosk ${String(i).padStart(4, "0")} ${tag}`,
      tag,
      externalId: `k${i}`,
      radius: 60,
    },
  }));
  await signIn(page, "analyst");
  await page.goto("/geofences");
  const table = page.getByRole("region", { name: "Geofences" });

  // A file with one bad feature is refused, naming it; nothing is written.
  const bad = structuredClone(features.slice(0, 3));
  bad[2]!.properties.radius = 1;
  await page.getByLabel("Geofence file to import").setInputFiles({
    name: "bad.geojson",
    mimeType: "application/geo+json",
    buffer: Buffer.from(JSON.stringify({ type: "FeatureCollection", features: bad })),
  });
  await expect(page.getByRole("alert").filter({ hasText: "Nothing was imported" })).toContainText(
    "Nothing was imported: features[2]: radius",
  );
  expect((await api("GET", `/v1/geofences?tag=${tag}`)).body.geofences).toEqual([]);

  await page.getByLabel("Geofence file to import").setInputFiles({
    name: "kiosks.geojson",
    mimeType: "application/geo+json",
    buffer: Buffer.from(JSON.stringify({ type: "FeatureCollection", features })),
  });
  // What the import will do is shown first; nothing is written until it is confirmed.
  const preview = page.getByRole("region", { name: "Import preview" });
  await expect(preview).toContainText("kiosks.geojson: 1,000 to create, 0 to replace, 0 unchanged.");
  expect((await api("GET", `/v1/geofences?tag=${tag}`)).body.geofences).toEqual([]);
  await preview.getByRole("button", { name: "Import 1,000 geofences" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Imported kiosks.geojson" })).toHaveText(
    "Imported kiosks.geojson: 1000 created, 0 replaced, 0 unchanged.",
    { timeout: 60_000 },
  );

  // A CSV of a few columns changes only what it has: the preview names the fields, Cancel
  // writes nothing, and the import then replaces the one that changes.
  const csvFile = {
    name: "renamed.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(
      [
        "tag,externalId,description",
        `${tag},k7,Kiosk 0007 renamed ${tag}`,
        `${tag},k8,Kiosk 0008 ${tag}`,
      ].join("\n"),
    ),
  };
  await page.getByLabel("Geofence file to import").setInputFiles(csvFile);
  await expect(preview).toContainText("renamed.csv: 0 to create, 1 to replace, 1 unchanged.");
  await expect(preview.getByRole("listitem")).toHaveText([`Kiosk 0007 ${tag} (line 2): description`]);
  await page.screenshot({ path: info.outputPath("import-preview.png") });
  await preview.getByRole("button", { name: "Cancel" }).click();
  expect((await api("GET", `/v1/geofences/${tag}/k7`)).body.geofence).toMatchObject({
    description: `Kiosk 0007 ${tag}`,
  });
  await page.getByLabel("Geofence file to import").setInputFiles(csvFile);
  await preview.getByRole("button", { name: "Import 1 geofence" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Imported renamed.csv" })).toHaveText(
    "Imported renamed.csv: 0 created, 1 replaced, 1 unchanged.",
  );
  expect((await api("GET", `/v1/geofences/${tag}/k7`)).body.geofence).toMatchObject({
    description: `Kiosk 0007 renamed ${tag}`,
    geometryRadius: 60,
  });
  await page.getByLabel("Geofence file to import").setInputFiles(csvFile);
  await expect(preview).toContainText("0 to replace, 2 unchanged.");
  await preview.getByRole("button", { name: "Close: nothing to import" }).click();

  // Search and sort on the server: the oldest-named kiosk first, then the last one.
  await table.getByRole("searchbox").fill(tag);
  await expect(table.getByRole("status", { name: "Rows shown" })).toHaveText("1–50 of 1,000 · page 1 of 20");
  await table.getByRole("button", { name: "Description" }).click();
  await expect(table.getByRole("row").nth(1)).toContainText(`Kiosk 0000 ${tag}`);
  await table.getByRole("button", { name: "Description" }).click();
  await expect(table.getByRole("row").nth(1)).toContainText(`Kiosk 0999 ${tag}`);
  await table.getByRole("button", { name: "Next" }).click();
  await expect(table.getByRole("status", { name: "Rows shown" })).toHaveText(
    "51–100 of 1,000 · page 2 of 20",
  );
  await expect(table.getByRole("row").nth(1)).toContainText(`Kiosk 0949 ${tag}`);
  await expect(page).toHaveURL(/sort=description&dir=desc&page=2|q=.*sort=description/);
  await page.screenshot({ path: info.outputPath("geofences-table.png") });
  // The address holds search, sort and page: a reload shows the same page.
  await page.reload();
  await expect(table.getByRole("row").nth(1)).toContainText(`Kiosk 0949 ${tag}`);

  // Export: all of them, as GeoJSON and CSV files.
  const [geojson] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export GeoJSON" }).click(),
  ]);
  const exported = JSON.parse(readFileSync((await geojson.path())!, "utf8")) as {
    features: { properties: { tag?: string } }[];
  };
  expect(exported.features.filter((f) => f.properties.tag === tag)).toHaveLength(1000);
  const [csv] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export CSV" }).click(),
  ]);
  expect(csv.suggestedFilename()).toMatch(/^geofences-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(
    readFileSync((await csv.path())!, "utf8")
      .split("\n")
      .filter((l) => l.includes(tag)),
  ).toHaveLength(1000);
  expect(errors).toEqual([]);
});

test("a reviewer cannot import, and exports the events the queue's filters match", async ({ page }) => {
  const errors = consoleErrors(page);
  const tag = unique("csv");
  await api("PUT", `/v1/geofences/${tag}/gate`, {
    description: `Gate ${tag}`,
    type: "circle",
    coordinates: [-25.5, 62.2],
    radius: 200,
  });
  for (let i = 0; i < 3; i++) {
    await api(
      "POST",
      "/v1/track",
      { deviceId: unique("p"), latitude: 62.2, longitude: -25.5, accuracy: 10 },
      serverKeys().publishable,
    );
  }
  await signIn(page, "reviewer");
  await page.goto("/geofences");
  await expect(page.getByRole("link", { name: "Export GeoJSON" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Import file…" })).toHaveCount(0);

  await page.goto("/events");
  await page.getByRole("combobox", { name: "Type" }).selectOption("user.entered_geofence");
  const [file] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export CSV" }).click(),
  ]);
  const lines = readFileSync((await file.path())!, "utf8")
    .trim()
    .split("\n");
  expect(lines[0]).toMatch(/^_id,type,createdAt,actualCreatedAt/);
  const mine = lines.filter((l) => l.includes(`Gate ${tag}`));
  expect(mine).toHaveLength(3);
  expect(lines.slice(1).every((l) => l.split(",")[1] === "user.entered_geofence")).toBe(true);
  expect(errors).toEqual([]);
});
