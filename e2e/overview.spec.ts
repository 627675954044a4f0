import { expect, test } from "@playwright/test";
import { api, consoleErrors, serverKeys, signIn } from "./support";

/** The overview page: where admins and analysts land, with figures that follow what happens. */
test("an admin lands on the overview, which follows new tracking by itself", async ({ page }, info) => {
  const errors = consoleErrors(page);
  await signIn(page, "admin");
  await expect(page).toHaveURL(/\/overview$/);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  const users = page.getByRole("region", { name: "Users tracked" });
  await expect(users).toContainText("last hour");
  const lastHour = async () =>
    Number((await users.getByTestId("figure-value").innerText()).split(" ")[0]!.replace(/,/g, ""));
  const before = await lastHour();

  // A device enters a geofence: a user tracked, an event in this hour's bar, one more to review.
  const lat = 10 + Math.random();
  const fence = await api("POST", "/v1/geofences", {
    description: "Overview fence",
    type: "circle",
    coordinates: [30, lat],
    radius: 200,
  });
  expect(fence.status).toBe(200);
  const deviceId = `overview-${Date.now()}`;
  const tracked = await api(
    "POST",
    "/v1/track",
    { deviceId, latitude: lat, longitude: 30, accuracy: 10 },
    serverKeys().publishable,
  );
  expect(tracked.status).toBe(200);
  // The page asks again every 15 s: no reload.
  await expect.poll(lastHour, { timeout: 30_000 }).toBeGreaterThan(before);
  const chart = page.getByRole("list", { name: "Events per hour" });
  await expect(chart.getByRole("listitem")).toHaveCount(24);
  await expect(chart.getByRole("listitem").last()).toHaveAccessibleName(/: [1-9][\d,]* events?$/);
  await expect(page.getByRole("table", { name: "Events by type" })).toContainText("Entered geofence");
  const system = page.getByRole("region", { name: "System" });
  await expect(system).toContainText(/SQLite|PostgreSQL/);
  await expect(system).toContainText("App processes");
  await expect(system).toContainText(/\d+\.\d\/s over/);
  await page.screenshot({ path: info.outputPath("overview.png"), fullPage: true });

  await page.getByRole("region", { name: "Review queue" }).getByRole("link").click();
  await expect(page).toHaveURL(/\/events/);
  expect(errors).toEqual([]);
});

test("a reviewer has no overview", async ({ page }) => {
  await signIn(page, "reviewer");
  await expect(page).toHaveURL(/\/events/);
  await expect(
    page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Overview" }),
  ).toHaveCount(0);
  await page.goto("/overview");
  await expect(page).toHaveURL(/\/forbidden/);
});
