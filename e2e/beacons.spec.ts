import { expect, test } from "@playwright/test";
import { api, consoleErrors, openFromMenu, serverKeys, signIn, unique } from "./support";

/**
 * An analyst places a beacon by clicking the map, sees it listed, changes it, and a device that
 * ranges it enters it; then deletes it. A file of beacons is imported from the dashboard (a bad
 * row refuses it whole). A reviewer sees beacons but cannot change them.
 */

test("an analyst places, changes and deletes a beacon, and a device ranging it enters it", async ({
  page,
}) => {
  const errors = consoleErrors(page);
  await signIn(page, "analyst");
  await openFromMenu(page, "Beacons");
  await expect(page.getByRole("heading", { name: "Beacons" })).toBeVisible();
  const name = unique("Front door");
  const form = page.getByRole("form", { name: "New beacon" });
  await form.getByLabel("Description").fill(name);
  await form.getByLabel("UUID").fill("F7826DA6-4FA2-4E98-8024-BC5B71E0893E");
  await form.getByLabel("Major").fill("100");
  await form.getByLabel("Minor").fill("1");
  // No position yet: it cannot be made.
  await expect(form.getByRole("button", { name: "Create beacon" })).toBeDisabled();
  const map = page.getByLabel("Beacons map");
  // The map loads after the page: a click on "Loading the map…" places nothing.
  await expect(map.getByRole("button", { name: "Zoom in" })).toBeVisible();
  await map.click({ position: { x: 200, y: 150 } });
  await expect(form.getByText(/^Position: /)).toBeVisible();
  await form.getByRole("button", { name: "Create beacon" }).click();

  const listed = page.getByRole("list", { name: "Beacons" }).getByRole("button", { name: new RegExp(name) });
  await expect(listed).toBeVisible();
  await expect(listed).toContainText("f7826da6-4fa2-4e98-8024-bc5b71e0893e · 100 · 1");

  // Opened, it is edited in place.
  const edit = page.getByRole("form", { name: "Beacon" });
  await expect(edit.getByLabel("Description")).toHaveValue(name);
  await edit.getByLabel("Minor").fill("2");
  await edit.getByRole("button", { name: "Save beacon" }).click();
  await expect(listed).toContainText("· 100 · 2");

  // A device ranging it (the API, as an SDK sends it) enters it.
  const { beacons } = (await api("GET", "/v1/beacons?limit=1000")).body as {
    beacons: { _id: string; description: string; geometry: { coordinates: [number, number] } }[];
  };
  const made = beacons.find((b) => b.description === name)!;
  const [lng, lat] = made.geometry.coordinates;
  const device = unique("ranger");
  const tracked = await api(
    "POST",
    "/v1/track",
    {
      deviceId: device,
      latitude: lat,
      longitude: lng,
      accuracy: 10,
      beacons: [{ uuid: "f7826da6-4fa2-4e98-8024-bc5b71e0893e", major: 100, minor: 2, rssi: -70 }],
    },
    serverKeys().publishable,
  );
  expect((tracked.body.events as { type: string }[]).map((e) => e.type)).toContain("user.entered_beacon");

  await edit.getByRole("button", { name: "Delete" }).click();
  await expect(listed).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("an analyst imports beacons from a CSV file; a bad row refuses the file", async ({ page }) => {
  // The refused file is a 400 the browser logs.
  const errors = consoleErrors(page, /status of 400/);
  await signIn(page, "analyst");
  await openFromMenu(page, "Beacons");
  const name = unique("Imported door");
  const header = "description,uuid,major,minor,coordinates";
  const row = (major: string) => `${name},f7826da6-4fa2-4e98-8024-bc5b71e0893e,${major},7,"[2.35,48.85]"`;
  const file = (major: string) => ({
    name: "beacons.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`${header}\n${row(major)}\n`),
  });
  await page.getByLabel("Beacon file to import").setInputFiles(file("not-a-number"));
  // Nothing written, and the row and field named (Next's route announcer is an alert too).
  await expect(page.getByRole("alert").filter({ hasText: "Nothing was imported" })).toContainText(
    "Nothing was imported: line 2.major: must be a whole number",
  );

  await page.getByLabel("Beacon file to import").setInputFiles(file("300"));
  await expect(page.getByRole("status").filter({ hasText: "Imported" })).toHaveText(
    "Imported beacons.csv: 1 created, 0 replaced.",
  );
  const listed = page.getByRole("list", { name: "Beacons" }).getByRole("button", { name: new RegExp(name) });
  await expect(listed).toContainText("f7826da6-4fa2-4e98-8024-bc5b71e0893e · 300 · 7");
  expect(errors).toEqual([]);
});

test("a reviewer sees the beacons but has no form to change them", async ({ page }) => {
  await signIn(page, "reviewer");
  await openFromMenu(page, "Beacons");
  await expect(page.getByRole("heading", { name: "Beacons" })).toBeVisible();
  await expect(page.getByRole("form", { name: "New beacon" })).toHaveCount(0);
});
