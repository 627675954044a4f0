import { expect, test } from "@playwright/test";
import { api, consoleErrors, serverKeys, signIn, unique } from "./support";

// Times are shown in the browser's zone and language: fixed here so the test reads them.
test.use({ timezoneId: "UTC", locale: "en-US" });

/**
 * The review queue asks the server for unverified events (GET /v1/events?verification=…), so an
 * unverified event stays reachable behind more than a page of newer, verified ones.
 */
test("an unverified event older than a page of verified ones is still in the queue", async ({ page }) => {
  test.setTimeout(240_000);
  const errors = consoleErrors(page);
  const tag = unique("old");
  await api("PUT", `/v1/geofences/${tag}/gate`, {
    description: `Gate ${tag}`,
    type: "circle",
    coordinates: [-60.5, 35.2],
    radius: 200,
  });
  // A scripted drive (each phone goes in and out as fast as it is answered): a server's secret
  // key, as a device's publishable key would be rate-limited past its burst.
  const { secret } = serverKeys();
  const track = (deviceId: string, lat: number) =>
    api("POST", "/v1/track", { deviceId, latitude: lat, longitude: -60.5, accuracy: 10 }, secret);
  // The old event: an entry nobody has verified.
  const old = (await track(unique("old-phone"), 35.2)).body.events as { _id: string }[];
  expect(old).toHaveLength(1);
  // Then 1,200 newer events, more than the queue's page of 1,000 (PAGE in
  // components/events/event-review.tsx): 20 phones going in and out 60 times each, side by side,
  // each event verified.
  let made = 0;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      const phone = unique("busy-phone");
      for (let i = 0; i < 60; i++) {
        const events = (await track(phone, i % 2 === 0 ? 35.2 : 35.3)).body.events as { _id: string }[];
        for (const e of events) await api("PUT", `/v1/events/${e._id}/verification`, { verification: 1 });
        made += events.length;
      }
    }),
  );
  expect(made).toBe(1200);

  await signIn(page, "reviewer");
  await page.goto("/events");
  await page.getByRole("searchbox", { name: "Geofence" }).fill(tag);
  const queue = page.getByRole("region", { name: "Event queue" });
  await expect(queue.getByRole("listitem")).toHaveCount(1);
  await expect(queue.getByRole("listitem")).toContainText("Entered geofence");
  expect(errors).toEqual([]);
});

test("the queue shows when the user was there, with the date, and when it was received", async ({ page }) => {
  const errors = consoleErrors(page);
  const tag = unique("late");
  await api("PUT", `/v1/geofences/${tag}/dock`, {
    description: `Dock ${tag}`,
    type: "circle",
    coordinates: [-61.5, 36.2],
    radius: 200,
  });
  // A location recorded on 20 November at 09:15 UTC, sent only now (the phone was offline).
  const made = await api(
    "POST",
    "/v1/track",
    {
      deviceId: unique("offline"),
      latitude: 36.2,
      longitude: -61.5,
      accuracy: 10,
      updatedAt: "2026-11-20T09:15:00Z",
    },
    serverKeys().publishable,
  );
  expect((made.body.events as unknown[]).length).toBe(1);
  await signIn(page, "reviewer");
  await page.goto("/events");
  await page.getByRole("searchbox", { name: "Geofence" }).fill(tag);
  const queue = page.getByRole("region", { name: "Event queue" });
  await expect(queue.getByRole("listitem")).toHaveCount(1);
  const there = new Date("2026-11-20T09:15:00Z").toLocaleString("en-US", { timeZone: "UTC" });
  await expect(queue.getByRole("listitem")).toContainText(there);
  await expect(page.getByText("Received")).toBeVisible();
  expect(errors).toEqual([]);
});
