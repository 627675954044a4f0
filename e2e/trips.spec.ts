import { expect, test } from "@playwright/test";
import { api, consoleErrors, serverKeys, signIn, unique, openFromMenu } from "./support";

/**
 * The Trips page: a dispatcher sees a trip under way with its ETA, follows it live as
 * its driver moves (no reload), reads its timeline and completes it; a reviewer may only look.
 */

const center = { lat: -33.2, lng: -50.3 };

async function track(userId: string, lat: number, lng: number) {
  const res = await api(
    "POST",
    "/v1/track",
    { deviceId: `device-${userId}`, userId, latitude: lat, longitude: lng, accuracy: 10 },
    serverKeys().publishable,
  );
  expect(res.status).toBe(200);
}

test("a dispatcher follows a trip live, reads its timeline and completes it", async ({ page }) => {
  const errors = consoleErrors(page);
  const tag = unique("depot");
  const userId = unique("driver");
  const externalId = unique("delivery");
  await api("PUT", `/v1/geofences/${tag}/gate`, {
    description: "Gate",
    type: "circle",
    coordinates: [center.lng, center.lat],
    radius: 80,
  });
  await track(userId, center.lat - 0.03, center.lng);
  const created = await api("POST", "/v1/trips", {
    externalId,
    userId,
    destinationGeofenceTag: tag,
    destinationGeofenceExternalId: "gate",
    mode: "car",
  });
  expect(created.status).toBe(200);

  await signIn(page, "analyst");
  await openFromMenu(page, "Trips");
  const list = page.getByRole("list", { name: "Trips" });
  const row = list.getByRole("button", { name: new RegExp(externalId) });
  await expect(row).toContainText("started");
  await expect(row).toContainText("(straight line)");
  await row.click();
  const details = page.getByRole("region", { name: `Trip ${externalId}` });
  await expect(details.getByRole("list", { name: "Timeline" })).toContainText("Started trip");

  // The driver moves closer: the page shows the new ETA without a reload.
  const before = await details.getByText(/min ·/).first().textContent();
  await track(userId, center.lat - 0.01, center.lng);
  await expect(details.getByText(/min ·/).first()).not.toHaveText(before!);
  await expect(details.getByRole("list", { name: "Timeline" })).toContainText("Approaching trip destination");
  await page.screenshot({ path: "test-results/trips-page.png" });

  await details.getByRole("button", { name: "Complete" }).click();
  await expect(list.getByRole("button", { name: new RegExp(externalId) })).toHaveCount(0);
  const after = await api("GET", `/v1/trips/${externalId}`);
  expect((after.body.trip as { status: string }).status).toBe("completed");
  await page.getByRole("combobox", { name: "Status" }).selectOption({ label: "Completed" });
  await expect(list.getByRole("button", { name: new RegExp(externalId) })).toContainText("completed");
  expect(errors).toEqual([]);
});

test("a reviewer sees trips but cannot end them", async ({ page }) => {
  const userId = unique("rider");
  const externalId = unique("ride");
  await track(userId, center.lat + 0.02, center.lng + 0.02);
  expect((await api("POST", "/v1/trips", { externalId, userId, mode: "foot" })).status).toBe(200);
  await signIn(page, "reviewer");
  await openFromMenu(page, "Trips");
  await page
    .getByRole("list", { name: "Trips" })
    .getByRole("button", { name: new RegExp(externalId) })
    .click();
  const details = page.getByRole("region", { name: `Trip ${externalId}` });
  await expect(details).toContainText("started");
  await expect(details.getByRole("button", { name: "Complete" })).toHaveCount(0);
});
