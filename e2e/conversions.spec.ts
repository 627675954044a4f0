import { expect, test } from "@playwright/test";
import { api, consoleErrors, serverKeys, signIn, unique } from "./support";

test.use({ timezoneId: "UTC", locale: "en-US" });

/**
 * Conversions (POST /v1/events, the SDKs' logConversion) show on the Events page as a chart per
 * day and a table per name with revenue; they stay out of the review queue (not verified).
 */
test("a reviewer sees the day's conversions and their revenue, and none of them in the queue", async ({
  page,
}, info) => {
  const errors = consoleErrors(page);
  const { publishable } = serverKeys();
  const deviceId = unique("shopper");
  // A shop in the South Atlantic (no region events there): the update enters it.
  const shop = unique("Shop");
  await api("PUT", `/v1/geofences/${shop}/main`, {
    description: shop,
    type: "circle",
    coordinates: [-26, -21.5],
    radius: 200,
  });
  await api("POST", "/v1/track", { deviceId, latitude: -21.5, longitude: -26, accuracy: 10 }, publishable);
  const purchase = unique("purchase");
  const signup = unique("signed_up");
  for (const [type, revenue] of [
    [purchase, 10],
    [purchase, 11.5],
    [signup, undefined],
  ] as const) {
    const res = await api(
      "POST",
      "/v1/events",
      { deviceId, type, ...(revenue !== undefined && { metadata: { revenue } }) },
      publishable,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  await signIn(page, "reviewer");
  await page.goto("/events");
  const chart = page.getByRole("region", { name: "Conversions" });
  await expect(chart.getByRole("row", { name: `${purchase} 2 21.50` })).toBeVisible();
  await expect(chart.getByRole("row", { name: `${signup} 1 —` })).toBeVisible();
  const today = new Date().toISOString().slice(0, 10);
  await expect(
    chart.getByRole("listitem", { name: new RegExp(`^${today}: \\d+ conversions$`) }),
  ).toBeVisible();
  await chart.screenshot({ path: info.outputPath("conversions.png") });

  // The queue holds what was decided from locations only, verified or not.
  await page.getByLabel("Show").selectOption("all");
  const queue = page.getByRole("region", { name: "Event queue" });
  await expect(queue).toContainText(shop);
  await expect(queue).not.toContainText(purchase);
  await expect(queue).not.toContainText(signup);
  expect(errors).toEqual([]);
});
