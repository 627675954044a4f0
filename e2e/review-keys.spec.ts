import { type Page, expect, test } from "@playwright/test";
import { api, consoleErrors, serverKeys, signIn, unique } from "./support";

/**
 * The review queue acts on what the reviewer sees: the open event is tracked by id, A/R act on
 * the selection when there is one, quick key presses are queued, J/K keep the row in view, and
 * the filters and open event live in the address.
 */

let spot = 0;
/** A geofence of its own and `n` devices that entered it: the events' ids, newest first. */
async function entries(n: number): Promise<{ tag: string; ids: string[]; lat: number; lng: number }> {
  const tag = unique("keys");
  spot += 1;
  const lat = 20 + spot * 0.37 + Math.random() * 0.1;
  const lng = -40 - Math.random() * 10;
  await api("PUT", `/v1/geofences/${tag}/gate`, {
    description: `Gate ${tag}`,
    type: "circle",
    coordinates: [lng, lat],
    radius: 200,
  });
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.unshift(await enter(lat, lng));
  return { tag, ids, lat, lng };
}

async function enter(lat: number, lng: number): Promise<string> {
  const res = await api(
    "POST",
    "/v1/track",
    { deviceId: unique("phone"), latitude: lat, longitude: lng, accuracy: 10 },
    serverKeys().publishable,
  );
  const events = res.body.events as { _id: string }[];
  expect(events).toHaveLength(1);
  return events[0]!._id;
}

const verification = async (id: string) =>
  ((await api("GET", `/v1/events/${id}`)).body.event as { verification: number }).verification;

async function openQueue(page: Page, tag: string) {
  await signIn(page, "reviewer");
  await page.goto("/events");
  const queue = page.getByRole("region", { name: "Event queue" });
  // The page is interactive once the queue has been read (typing before that is not seen).
  await expect(queue.getByText("Loading events…")).toBeHidden();
  await page.getByRole("searchbox", { name: "Geofence, place or region" }).fill(tag);
  // Leave the text field, as a reviewer does with Esc, so the letters are shortcuts again.
  await page.keyboard.press("Escape");
  return queue;
}

const openId = (page: Page) =>
  page.getByRole("region", { name: "Event" }).locator("dt:text-is('Event ID') + dd");

test("a new event arriving while the reviewer presses A does not change what A acts on", async ({ page }) => {
  const errors = consoleErrors(page);
  const { tag, ids, lat, lng } = await entries(3);
  const queue = await openQueue(page, tag);
  await expect(queue.getByRole("listitem")).toHaveCount(3);
  await expect(openId(page)).toHaveText(ids[0]!);
  await page.keyboard.press("j");
  await expect(openId(page)).toHaveText(ids[1]!);

  // A new event arrives at the top of the queue (the queue refreshes every 10 seconds).
  const newest = await enter(lat, lng);
  await expect(queue.getByRole("listitem")).toHaveCount(4, { timeout: 20_000 });
  await expect(openId(page)).toHaveText(ids[1]!);
  await expect(queue.locator("[aria-current]")).toHaveCount(1);
  await page.keyboard.press("a");

  await expect(queue.getByRole("listitem")).toHaveCount(3);
  await expect.poll(() => verification(ids[1]!)).toBe(1);
  expect(await verification(newest)).toBe(0);
  expect(await verification(ids[0]!)).toBe(0);
  // The next event after the accepted one is open now.
  await expect(openId(page)).toHaveText(ids[2]!);
  expect(errors).toEqual([]);
});

test("quick key presses are all applied, in order, each to the event then open", async ({ page }) => {
  const errors = consoleErrors(page);
  const { tag, ids } = await entries(5);
  const queue = await openQueue(page, tag);
  await expect(queue.getByRole("listitem")).toHaveCount(5);
  await page.keyboard.press("a");
  await page.keyboard.press("r");
  await page.keyboard.press("a");
  await expect(queue.getByRole("listitem")).toHaveCount(2);
  await expect(page.getByRole("status")).toHaveText("Event accepted.");
  expect(await Promise.all(ids.map(verification))).toEqual([1, -1, 1, 0, 0]);
  await expect(openId(page)).toHaveText(ids[3]!);
  expect(errors).toEqual([]);
});

test("A with a selection verifies every selected event, and keys work after a checkbox click", async ({
  page,
}) => {
  const errors = consoleErrors(page);
  const { tag, ids } = await entries(4);
  const queue = await openQueue(page, tag);
  await expect(queue.getByRole("listitem")).toHaveCount(4);
  await queue.getByRole("checkbox", { name: "Select event 2" }).check();
  await queue.getByRole("checkbox", { name: "Select event 4" }).check();
  await expect(page.getByText("2 selected")).toBeVisible();
  // Focus is on the checkbox: the shortcut still works, and acts on both selected events.
  await page.keyboard.press("a");
  await expect(page.getByRole("status")).toHaveText("2 events accepted.");
  await expect(queue.getByRole("listitem")).toHaveCount(2);
  expect(await Promise.all(ids.map(verification))).toEqual([0, 1, 0, 1]);
  await expect(page.getByText("2 selected")).toBeHidden();
  // X selects the open event; R rejects the selection.
  await expect(openId(page)).toHaveText(ids[0]!);
  await page.keyboard.press("x");
  await page.keyboard.press("r");
  await expect(page.getByRole("status")).toHaveText("Event rejected.");
  expect(await verification(ids[0]!)).toBe(-1);
  await expect(openId(page)).toHaveText(ids[2]!);
  expect(errors).toEqual([]);
});

test("J and K keep the open row in view; the filters and open event are in the address", async ({ page }) => {
  const errors = consoleErrors(page);
  await page.setViewportSize({ width: 1280, height: 600 });
  const { tag, ids } = await entries(40);
  const queue = await openQueue(page, tag);
  await expect(queue.getByRole("listitem")).toHaveCount(40);
  for (let i = 0; i < 35; i++) await page.keyboard.press("j");
  await expect(openId(page)).toHaveText(ids[35]!);
  await expect(queue.locator("[aria-current]")).toBeInViewport();
  for (let i = 0; i < 30; i++) await page.keyboard.press("k");
  await expect(openId(page)).toHaveText(ids[5]!);
  await expect(queue.locator("[aria-current]")).toBeInViewport();

  await page.getByRole("combobox", { name: "Confidence" }).selectOption("high");
  await expect(page).toHaveURL(new RegExp(`confidence=high.*q=${tag}.*event=${ids[5]}`));
  // A shared link opens the same queue and event.
  await page.goto(page.url());
  await expect(page.getByRole("searchbox", { name: "Geofence, place or region" })).toHaveValue(tag);
  await expect(page.getByRole("combobox", { name: "Confidence" })).toHaveValue("high");
  await expect(openId(page)).toHaveText(ids[5]!);
  await expect(queue.locator("[aria-current]")).toBeInViewport();
  expect(errors).toEqual([]);
});

test("a key press that cannot act says why", async ({ page }) => {
  const errors = consoleErrors(page);
  await signIn(page, "reviewer");
  await page.goto(`/events?q=${unique("nothing")}`);
  const queue = page.getByRole("region", { name: "Event queue" });
  await expect(queue.getByText("Nothing to review: no unverified event matches.")).toBeVisible();
  await page.keyboard.press("a");
  await expect(page.getByRole("status")).toHaveText("Nothing to verify: no event is open.");
  expect(errors).toEqual([]);
});

test("the queue can keep to recent events, asked of the server, and a geofence links to its events", async ({
  page,
}) => {
  const errors = consoleErrors(page);
  const { tag, ids } = await entries(2);
  const queue = await openQueue(page, tag);
  await expect(queue.getByRole("listitem")).toHaveCount(2);
  const asked = page.waitForRequest((r) => /\/v1\/events\?.*createdAfter=/.test(r.url()));
  await page.getByRole("combobox", { name: "Since" }).selectOption("1");
  await asked;
  await expect(queue.getByRole("listitem")).toHaveCount(2);
  await expect(page).toHaveURL(/since=1/);

  // From the map: the geofence's recent events, each a link into the queue.
  const geofence = (await api("GET", `/v1/geofences/${tag}/gate`)).body.geofence as { _id: string };
  await signIn(page, "analyst");
  await page.goto(`/map?geofence=${geofence._id}`);
  const recent = page.getByRole("region", { name: "Recent events" });
  await expect(recent.getByRole("link")).toHaveCount(2);
  await recent.getByRole("link").first().click();
  await expect(openId(page)).toHaveText(ids[0]!);
  expect(errors).toEqual([]);
});

test("region events can be picked by type, named in words, and an untagged geofence's event shows its name", async ({
  page,
}) => {
  const errors = consoleErrors(page);
  const deviceId = unique("border");
  // Strasbourg, then Kehl across the Rhine: the second update leaves France and enters Germany.
  for (const [latitude, longitude] of [
    [48.5734, 7.7521],
    [48.5724, 7.8156],
  ]) {
    await api("POST", "/v1/track", { deviceId, latitude, longitude, accuracy: 20 }, serverKeys().publishable);
  }
  const zipDevice = unique("zip");
  await api(
    "POST",
    "/v1/track",
    { deviceId: zipDevice, latitude: 40.7829, longitude: -73.9754, accuracy: 20 },
    serverKeys().publishable,
  );
  const pier = unique("Pier");
  const lat = 31 + Math.random();
  const lng = -30 - Math.random();
  await api("POST", "/v1/geofences", {
    description: pier,
    type: "circle",
    coordinates: [lng, lat],
    radius: 200,
  });
  await enter(lat, lng);

  await signIn(page, "reviewer");
  await page.goto("/events");
  const queue = page.getByRole("region", { name: "Event queue" });
  await expect(queue.getByText("Loading events…")).toBeHidden();
  await page.getByRole("combobox", { name: "Type" }).selectOption({ label: "Exited country" });
  await page.getByRole("searchbox", { name: "Geofence, place or region" }).fill("France");
  await expect(queue.getByRole("listitem").filter({ hasText: deviceId })).toHaveText(/Exited country France/);
  // A region is named with its code, once when the code is its name (a US ZIP code).
  await queue.getByRole("listitem").filter({ hasText: deviceId }).getByRole("button").click();
  const details = page.getByRole("region", { name: "Event" });
  await expect(details.locator("dt:text-is('Region') + dd")).toHaveText("France (FR)");
  await page.getByRole("combobox", { name: "Type" }).selectOption({ label: "Entered postal code" });
  await page.getByRole("searchbox", { name: "Geofence, place or region" }).fill("10024");
  await queue.getByRole("listitem").filter({ hasText: zipDevice }).getByRole("button").click();
  await expect(details.locator("dt:text-is('Region') + dd")).toHaveText("10024");

  await page.getByRole("combobox", { name: "Type" }).selectOption({ label: "Entered geofence" });
  await page.getByRole("searchbox", { name: "Geofence, place or region" }).fill(pier);
  await queue.getByRole("listitem").first().getByRole("button").click();
  await expect(details.locator("dt:text-is('Geofence') + dd")).toHaveText(pier);
  expect(errors).toEqual([]);
});
