import { type Page, expect, test } from "@playwright/test";
import { api, consoleErrors, drawPolygon, signIn, unique } from "./support";

/** The map never overwrites a geofence it was not asked to change. */

type Geofence = Record<string, unknown> & { _id: string; updatedAt: string };

async function put(tag: string, externalId: string, extra: Record<string, unknown>): Promise<Geofence> {
  const res = await api("PUT", `/v1/geofences/${tag}/${externalId}`, {
    type: "circle",
    coordinates: [-73.97, 40.78],
    radius: 150,
    ...extra,
  });
  expect(res.status).toBe(200);
  return res.body.geofence as Geofence;
}

const get = async (id: string) => (await api("GET", `/v1/geofences/${id}`)).body.geofence as Geofence;

/** Opens a geofence from the list beside the map. */
async function open(page: Page, description: string) {
  const details = page.getByRole("region", { name: "Geofence", exact: true });
  if (await details.isVisible()) await details.getByRole("button", { name: "Close" }).click();
  await page.getByPlaceholder("Description or external ID").fill(description);
  await page
    .getByRole("region", { name: "Geofences on the map" })
    .getByRole("button", { name: description })
    .click();
  await expect(page.getByRole("heading", { name: description })).toBeVisible();
}

/**
 * Opens a geofence (which moves the map to it, so the shape drawn next is of a sensible size),
 * closes it, draws a new shape and tries to save it with these fields; the form.
 */
async function saveNewShapeBeside(
  page: Page,
  description: string,
  fields: { description: string; tag: string; externalId: string },
) {
  await open(page, description);
  await page.getByRole("button", { name: "Close" }).click();
  await drawPolygon(page, [
    [-100, -60],
    [100, -70],
    [90, 80],
  ]);
  const form = page.getByRole("form", { name: "New geofence" });
  await form.getByLabel("Description").fill(fields.description);
  await form.getByLabel("Tag").fill(fields.tag);
  await form.getByLabel("External ID").fill(fields.externalId);
  await form.getByRole("button", { name: "Save geofence" }).click();
  return form;
}

test("a new shape whose tag and external ID are taken is refused, and the map offers the one that has them", async ({
  page,
}, info) => {
  const errors = consoleErrors(page, /status of 409/);
  const tag = unique("taken");
  const existing = await put(tag, "store", {
    description: `Existing ${tag}`,
    dwellThreshold: 30,
    metadata: { floor: 2 },
  });
  await signIn(page, "analyst");
  await page.goto("/map");
  const form = await saveNewShapeBeside(page, `Existing ${tag}`, {
    description: "Would replace it",
    tag,
    externalId: "store",
  });
  await expect(form.getByRole("alert")).toContainText(`already used by “Existing ${tag}”`);
  await page.screenshot({ path: info.outputPath("identity-taken.png") });
  // Nothing was replaced.
  expect(await get(existing._id)).toEqual(existing);

  await form.getByRole("button", { name: `Open “Existing ${tag}”` }).click();
  const details = page.getByRole("region", { name: "Geofence", exact: true });
  await expect(details.getByRole("heading", { name: `Existing ${tag}` })).toBeVisible();
  await expect(details).toContainText("30 min");
  expect(errors).toEqual([]);
});

test("editing keeps what the form does not change, refuses another geofence's identity and a stale version", async ({
  page,
}, info) => {
  const errors = consoleErrors(page, /status of 40[09]|status of 412/);
  const tag = unique("edit");
  const x = await put(tag, "x", {
    description: `Keep ${tag}`,
    dwellThreshold: 45,
    metadata: { floor: 3 },
    enabled: false,
  });
  const y = await put(tag, "y", { description: `Other ${tag}`, coordinates: [-73.96, 40.77] });
  await signIn(page, "analyst");
  await page.goto("/map");

  // 1. A new description; everything else stays.
  await open(page, `Keep ${tag}`);
  await page.getByRole("button", { name: "Edit geofence" }).click();
  let edit = page.getByRole("form", { name: "Edit geofence" });
  await expect(edit.getByLabel("Dwell threshold (minutes)")).toHaveValue("45");
  await edit.getByLabel("Description").fill(`Kept ${tag}`);
  await edit.getByRole("button", { name: "Save geofence" }).click();
  await expect(page.getByRole("heading", { name: `Kept ${tag}` })).toBeVisible();
  const renamed = await get(x._id);
  expect(renamed).toMatchObject({
    description: `Kept ${tag}`,
    tag,
    externalId: "x",
    dwellThreshold: 45,
    metadata: { floor: 3 },
    enabled: false,
    type: "circle",
    geometryRadius: 150,
  });

  // 2. Another geofence's tag and external ID: refused, both unchanged.
  await open(page, `Other ${tag}`);
  await page.getByRole("button", { name: "Edit geofence" }).click();
  edit = page.getByRole("form", { name: "Edit geofence" });
  await edit.getByLabel("External ID").fill("x");
  await edit.getByRole("button", { name: "Save geofence" }).click();
  await expect(edit.getByRole("alert")).toContainText(`already used by “Kept ${tag}”`);
  await page.screenshot({ path: info.outputPath("identity-collision.png") });
  expect(await get(x._id)).toEqual(renamed);
  expect(await get(y._id)).toEqual(y);
  await edit.getByRole("button", { name: "Cancel" }).click();

  // 3. Changed by someone else while the form was open: refused, their change kept.
  await open(page, `Kept ${tag}`);
  await page.getByRole("button", { name: "Edit geofence" }).click();
  edit = page.getByRole("form", { name: "Edit geofence" });
  expect((await api("PATCH", `/v1/geofences/${x._id}`, { description: `Elsewhere ${tag}` })).status).toBe(
    200,
  );
  await edit.getByLabel("Dwell threshold (minutes)").fill("10");
  await edit.getByRole("button", { name: "Save geofence" }).click();
  await expect(edit.getByRole("alert")).toContainText(`Someone else saved this geofence at`);
  await expect(edit.getByRole("alert")).toContainText(
    `they changed the description (now “Elsewhere ${tag}”).`,
  );
  expect(await get(x._id)).toMatchObject({ description: `Elsewhere ${tag}`, dwellThreshold: 45 });
  // Reload shows their version; editing again starts from it.
  await edit.getByRole("button", { name: "Reload" }).click();
  await expect(page.getByRole("heading", { name: `Elsewhere ${tag}` })).toBeVisible();

  // 4. Clearing the dwell threshold returns it to the default.
  await open(page, `Elsewhere ${tag}`);
  await page.getByRole("button", { name: "Edit geofence" }).click();
  edit = page.getByRole("form", { name: "Edit geofence" });
  await edit.getByLabel("Dwell threshold (minutes)").fill("");
  await edit.getByRole("button", { name: "Save geofence" }).click();
  await expect(page.getByRole("region", { name: "Geofence", exact: true })).toContainText("5 min");
  expect(await get(x._id)).not.toHaveProperty("dwellThreshold");
  expect(errors).toEqual([]);
});

test("the form sets whom a geofence is for, entries only when stopped, and when it is disabled and deleted", async ({
  page,
}, info) => {
  const errors = consoleErrors(page);
  const tag = unique("fields");
  const g = await put(tag, "z", { description: `Depot ${tag}`, userIds: ["courier-0"] });
  await signIn(page, "analyst");
  await page.goto("/map");
  await open(page, `Depot ${tag}`);
  await page.getByRole("button", { name: "Edit geofence" }).click();
  let edit = page.getByRole("form", { name: "Edit geofence" });
  await expect(edit.getByLabel("Only these users (user IDs, comma-separated)")).toHaveValue("courier-0");
  await edit.getByLabel("Only these users (user IDs, comma-separated)").fill("courier-1, courier-2");
  await edit.getByLabel("Enter only when the user is stopped").check();
  // Tomorrow at 09:30 in the browser's time zone.
  const tomorrow = new Date(Date.now() + 86_400_000);
  const day = tomorrow.toISOString().slice(0, 10);
  await edit.getByLabel("Delete at").fill(`${day}T09:30`);
  await page.screenshot({ path: info.outputPath("geofence-fields.png") });
  await edit.getByRole("button", { name: "Save geofence" }).click();
  const details = page.getByRole("region", { name: "Geofence", exact: true });
  await expect(details).toContainText("courier-1, courier-2");
  await expect(details).toContainText("only when stopped");
  await expect(details).toContainText("Deleted at");
  const saved = await get(g._id);
  expect(saved).toMatchObject({ userIds: ["courier-1", "courier-2"], stopDetection: true });
  const local = await page.evaluate((d) => new Date(`${d}T09:30`).toISOString(), day);
  expect(saved.deleteAfter).toBe(local);
  expect(saved).not.toHaveProperty("disableAfter");

  // Emptied again: everyone, entries whether stopped or not, never deleted.
  await page.getByRole("button", { name: "Edit geofence" }).click();
  edit = page.getByRole("form", { name: "Edit geofence" });
  await expect(edit.getByLabel("Delete at")).toHaveValue(`${day}T09:30`);
  await edit.getByLabel("Only these users (user IDs, comma-separated)").fill("");
  await edit.getByLabel("Enter only when the user is stopped").uncheck();
  await edit.getByLabel("Delete at").fill("");
  await edit.getByRole("button", { name: "Save geofence" }).click();
  await expect(details).toContainText("everyone");
  const cleared = await get(g._id);
  for (const k of ["userIds", "stopDetection", "deleteAfter"]) expect(cleared).not.toHaveProperty(k);
  expect(errors).toEqual([]);
});

test("a geofence's words are shown as text everywhere on the map, never run as HTML", async ({ page }) => {
  const tag = unique("xss");
  const planted = `<img src=x onerror="window.__planted=1"> Depot ${tag}`;
  await put(tag, "<img src=x onerror=window.__planted=2>", { description: planted });
  await signIn(page, "analyst");
  await page.goto("/map");
  // A new shape that clashes with it: the refusal names it in a tooltip on the shape.
  await saveNewShapeBeside(page, planted, {
    description: "Clashes",
    tag,
    externalId: "<img src=x onerror=window.__planted=2>",
  });
  const tooltip = page.locator(".leaflet-tooltip");
  await expect(tooltip).toContainText(`already used by “${planted}”`);
  expect(await page.locator(".leaflet-container img[src='x']").count()).toBe(0);
  expect(await page.evaluate(() => (window as { __planted?: number }).__planted)).toBeUndefined();
});
