import { expect, test } from "@playwright/test";
import { api, consoleErrors, drawPolygon, openFromMenu, serverKeys, signIn, unique } from "./support";

test("sign-in refuses a wrong password in words, then lets the analyst in", async ({ page }, info) => {
  const errors = consoleErrors(page, /status of 401/);
  await page.goto("/map");
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel("Email").fill("analyst@example.test");
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: /wrong email or password/ })).toBeVisible();
  await page.screenshot({ path: info.outputPath("sign-in.png") });
  await signIn(page, "analyst");
  // Analysts land on the overview.
  await expect(page.getByRole("link", { name: "Overview", exact: true })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(page.getByRole("link", { name: "Keys & accounts" })).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("an analyst draws a polygon on the map, finds it through the API, edits and deletes it", async ({
  page,
}, info) => {
  const errors = consoleErrors(page);
  const tag = unique("drawn");
  // A geofence nearby, so the map opens over this area.
  await api("PUT", `/v1/geofences/${tag}/anchor`, {
    description: "Anchor",
    type: "circle",
    coordinates: [-73.97, 40.78],
    radius: 150,
  });
  await signIn(page, "analyst");
  await page.goto("/map?view=40.78,-73.97,15");
  await expect(page.getByText(/geofences? in view · \d+ users? on the map/)).toBeVisible();
  await drawPolygon(page, [
    [-120, -80],
    [120, -90],
    [100, 90],
    [-110, 70],
  ]);
  const form = page.getByRole("form", { name: "New geofence" });
  await expect(form).toBeVisible();
  await form.getByLabel("Description").fill("Drawn in the browser");
  await form.getByLabel("Tag").fill(tag);
  await form.getByLabel("External ID").fill("shape-1");
  await form.getByLabel("Metadata (JSON)").fill('{"floor": 3}');
  await page.screenshot({ path: info.outputPath("map-drawing.png") });
  await form.getByRole("button", { name: "Save geofence" }).click();
  await expect(page.getByRole("region", { name: "Geofence", exact: true })).toBeVisible();

  const saved = await api("GET", `/v1/geofences/${tag}/shape-1`);
  expect(saved.status).toBe(200);
  const geofence = saved.body.geofence as {
    type: string;
    metadata: unknown;
    geometry: { coordinates: number[][][] };
  };
  expect(geofence.type).toBe("polygon");
  expect(geofence.metadata).toEqual({ floor: 3 });
  expect(geofence.geometry.coordinates[0]).toHaveLength(5);

  await page.getByRole("button", { name: "Edit geofence" }).click();
  const edit = page.getByRole("form", { name: "Edit geofence" });
  await edit.getByLabel("Description").fill("Renamed in the browser");
  await edit.getByRole("button", { name: "Save geofence" }).click();
  await expect(page.getByRole("heading", { name: "Renamed in the browser" })).toBeVisible();
  expect((await api("GET", `/v1/geofences/${tag}/shape-1`)).body.geofence).toMatchObject({
    description: "Renamed in the browser",
  });
  await page.screenshot({ path: info.outputPath("map.png") });

  await page.getByRole("button", { name: "Delete geofence" }).click();
  await page.getByRole("button", { name: "Yes, delete" }).click();
  await expect(page.getByRole("region", { name: "Geofences on the map" })).toBeVisible();
  expect((await api("GET", `/v1/geofences/${tag}/shape-1`)).status).toBe(404);
  expect(errors).toEqual([]);
});

test("a self-intersecting shape is refused with the API's message next to it", async ({ page }, info) => {
  const errors = consoleErrors(page, /status of 400/);
  await signIn(page, "analyst");
  await page.goto("/map");
  // A bow tie: its edges cross.
  await drawPolygon(page, [
    [-100, -80],
    [100, 80],
    [100, -80],
    [-100, 80],
  ]);
  const form = page.getByRole("form", { name: "New geofence" });
  await form.getByLabel("Description").fill("Bow tie");
  await form.getByLabel("Tag").fill(unique("bad"));
  await form.getByLabel("External ID").fill("x");
  await form.getByRole("button", { name: "Save geofence" }).click();
  await expect(form.getByRole("alert")).toHaveText(/intersect/);
  // What was typed stays, to fix the shape and save again.
  await expect(form.getByLabel("Description")).toHaveValue("Bow tie");
  await expect(page.locator(".leaflet-tooltip", { hasText: /intersect/ })).toBeVisible();
  await page.screenshot({ path: info.outputPath("map-refused.png") });
  expect(errors).toEqual([]);
});

test("drawing over a geofence draws a new one and does not open the one under it", async ({ page }) => {
  const errors = consoleErrors(page);
  const tag = unique("under");
  const saved = await api("PUT", `/v1/geofences/${tag}/pond`, {
    description: `Pond ${tag}`,
    type: "circle",
    coordinates: [147.31, -42.88],
    radius: 3000,
  });
  const id = (saved.body.geofence as { _id: string })._id;
  const opened: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes(`/v1/geofences/${id}`)) opened.push(r.url());
  });
  await signIn(page, "analyst");
  await page.goto(`/map?view=-42.88,147.31,15&tag=${tag}`);
  await expect(
    page.getByRole("region", { name: "Map of geofences and users" }).locator("path.leaflet-interactive"),
  ).toHaveCount(1);
  // Every vertex lands inside the pond.
  await drawPolygon(page, [
    [-60, -60],
    [60, -60],
    [60, 60],
    [-60, 60],
  ]);
  await expect(page.getByRole("form", { name: "New geofence" })).toBeVisible();
  await expect(page.getByRole("heading", { name: `Pond ${tag}` })).toHaveCount(0);
  expect(opened).toEqual([]);
  // Outside drawing, a click on it opens it.
  await page.getByRole("button", { name: "Cancel" }).click();
  const box = (await page.getByLabel("Map of geofences and users").boundingBox())!;
  await page.mouse.click(box.x + box.width / 2 + 100, box.y + box.height / 2);
  await expect(page.getByRole("heading", { name: `Pond ${tag}` })).toBeVisible();
  expect(errors).toEqual([]);
});

test("the map stays where the analyst started drawing when its data arrives late", async ({ page }) => {
  const errors = consoleErrors(page);
  // Data far from the map's first view, where the map would open once it knows of it.
  await api("PUT", `/v1/geofences/${unique("late")}/far`, {
    description: "Far away",
    type: "circle",
    coordinates: [151.2, -33.86],
    radius: 500,
  });
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route(/\/v1\/geofences\?limit=200$/, async (route) => {
    await held;
    await route.continue();
  });
  await signIn(page, "analyst");
  await page.goto("/map");
  await page.getByRole("button", { name: "Draw Polygons" }).click();
  const box = (await page.getByLabel("Map of geofences and users").boundingBox())!;
  const at = (dx: number, dy: number) => [box.x + box.width / 2 + dx, box.y + box.height / 2 + dy] as const;
  await page.mouse.click(...at(-80, -60));
  await page.mouse.click(...at(80, -60));
  const viewBefore = new URL(page.url()).searchParams.get("view");
  // The map's data arrives with the shape half drawn.
  const arrived = page.waitForResponse(/\/v1\/geofences\?limit=200$/);
  release();
  await arrived;
  // Two frames: what the answer changes is drawn.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.mouse.click(...at(80, 60));
  await page.mouse.click(...at(-80, -60));
  await expect(page.getByRole("form", { name: "New geofence" })).toBeVisible();
  expect(new URL(page.url()).searchParams.get("view")).toBe(viewBefore);
  expect(errors).toEqual([]);
});

test("a geofence changed or deleted by someone else says so on the map, opened from a link, from the map or open", async ({
  page,
}) => {
  const errors = consoleErrors(page, /status of 404/);
  const tag = unique("gone");
  const put = (id: string) =>
    api("PUT", `/v1/geofences/${tag}/${id}`, {
      description: `Kiosk ${id} ${tag}`,
      type: "circle",
      coordinates: [-16.25, 28.46],
      radius: 3000,
    }).then((r) => (r.body.geofence as { _id: string })._id);
  const linked = await put("linked");
  await api("DELETE", `/v1/geofences/${tag}/linked`);
  await signIn(page, "analyst");
  await page.goto(`/map?geofence=${linked}`);
  const panel = page.getByRole("region", { name: "Geofence", exact: true });
  await expect(panel.getByRole("heading", { name: "Geofence not found" })).toBeVisible();
  await panel.getByRole("button", { name: "Close" }).click();
  await expect(page.getByRole("region", { name: "Geofences on the map" })).toBeVisible();

  // On the map when another analyst deletes it: opened, it says so, and leaves the map.
  await put("shown");
  await page.goto(`/map?view=28.46,-16.25,14&tag=${tag}`);
  const shapes = page
    .getByRole("region", { name: "Map of geofences and users" })
    .locator("path.leaflet-interactive");
  await expect(shapes).toHaveCount(1);
  await api("DELETE", `/v1/geofences/${tag}/shown`);
  const box = (await page.getByLabel("Map of geofences and users").boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(panel.getByRole("heading", { name: "Geofence not found" })).toBeVisible();
  await expect(shapes).toHaveCount(0);

  // Open on the map while another analyst renames it, then deletes it: the panel follows both
  // with no click (it read the geofence once, when opened, and showed it until closed).
  const open = await put("open");
  await page.goto(`/map?view=28.46,-16.25,14&tag=${tag}&geofence=${open}`);
  await expect(panel.getByRole("heading", { name: `Kiosk open ${tag}` })).toBeVisible();
  await expect(shapes).toHaveCount(1);
  await api("PATCH", `/v1/geofences/${open}`, { description: `Kiosk renamed ${tag}` });
  await expect(panel.getByRole("heading", { name: `Kiosk renamed ${tag}` })).toBeVisible({ timeout: 15_000 });
  await api("DELETE", `/v1/geofences/${open}`);
  await expect(panel.getByRole("heading", { name: "Geofence not found" })).toBeVisible({ timeout: 15_000 });
  await expect(shapes).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("a reviewer verifies events from the queue with the keyboard", async ({ page }, info) => {
  const errors = consoleErrors(page);
  const tag = unique("review");
  await api("PUT", `/v1/geofences/${tag}/door`, {
    description: `Door ${tag}`,
    type: "circle",
    coordinates: [-70.5, 41.2],
    radius: 200,
  });
  const deviceId = unique("phone");
  const { publishable } = (await import("./support")).serverKeys();
  const track = (lat: number) =>
    api("POST", "/v1/track", { deviceId, latitude: lat, longitude: -70.5, accuracy: 10 }, publishable);
  await track(41.2);
  await track(41.3);
  const events = (await api("GET", "/v1/events?limit=100")).body.events as {
    _id: string;
    type: string;
    geofence?: { tag?: string };
  }[];
  const mine = events.filter((e) => e.geofence?.tag === tag);
  expect(mine.map((e) => e.type).sort()).toEqual(["user.entered_geofence", "user.exited_geofence"]);

  await signIn(page, "reviewer");
  await page.goto("/events");
  await page.getByRole("searchbox", { name: "Geofence" }).fill(tag);
  await page.getByRole("searchbox", { name: "Geofence" }).blur();
  const queue = page.getByRole("region", { name: "Event queue" });
  await expect(queue.getByRole("listitem")).toHaveCount(2);
  // The small map shows the geofence, the accuracy circle and the location.
  const drawn = page
    .getByRole("region", { name: "Event location" })
    .locator(".leaflet-overlay-pane path:not([d='M0 0'])");
  await expect(drawn).toHaveCount(3);
  await page.screenshot({ path: info.outputPath("events.png") });
  // The newest (the exit) is first: reject it, then accept the entry.
  await page.keyboard.press("r");
  await expect(page.getByRole("status")).toHaveText("Event rejected.");
  // What the model predicts for later events like the one now shown.
  await expect(page.getByRole("note", { name: "Predicted confidence" })).toContainText("if accepted");
  await expect(queue.getByRole("listitem")).toHaveCount(1);
  await page.keyboard.press("a");
  await expect(page.getByRole("status")).toHaveText("Event accepted.");
  await expect(queue.getByText("Nothing to review")).toBeVisible();

  const after = async (id: string) =>
    (await api("GET", `/v1/events/${id}`)).body.event as { verification: number };
  const exit = mine.find((e) => e.type === "user.exited_geofence")!;
  const entry = mine.find((e) => e.type === "user.entered_geofence")!;
  expect((await after(exit._id)).verification).toBe(-1);
  expect((await after(entry._id)).verification).toBe(1);

  // Reviewers cannot draw: no drawing tools, and the API refuses their session too.
  await page.goto("/map");
  await expect(page.getByText(/users on the map/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Draw Polygons" })).toHaveCount(0);
  const refused = await page.request.post("/v1/geofences", {
    data: { description: "x", type: "circle", coordinates: [-70, 41], radius: 100 },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { meta: { message: string } }).meta.message).toMatch(/reviewer/);
  expect(errors).toEqual([]);
});

test("an admin creates a key, sees it once, and revokes it", async ({ page }, info) => {
  const errors = consoleErrors(page);
  await signIn(page, "admin");
  await openFromMenu(page, "Keys & accounts");
  const name = unique("ci-key");
  await page.getByLabel("Kind").selectOption("secret");
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Create key" }).click();
  const shown = page.getByLabel("New key");
  await expect(shown).toHaveText(/^prj_test_sk_/);
  const key = (await shown.textContent())!;
  expect((await api("GET", "/v1/geofences", undefined, key)).status).toBe(200);
  await page.screenshot({ path: info.outputPath("keys.png"), fullPage: true });
  await page.getByRole("button", { name: "Done" }).click();
  await page.getByRole("button", { name: `Revoke ${name}` }).click();
  await page.getByRole("button", { name: "Confirm revoke" }).click();
  await expect(page.getByRole("row", { name: new RegExp(name) })).toContainText("revoked");
  expect((await api("GET", "/v1/geofences", undefined, key)).status).toBe(401);
  expect(errors).toEqual([]);
});

test("the geofences and users pages list what the API has, with paging", async ({ page }, info) => {
  const errors = consoleErrors(page);
  await signIn(page, "analyst");
  await openFromMenu(page, "Geofences");
  await expect(page.getByRole("heading", { name: "Geofences", exact: true })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Description" })).toBeVisible();
  await page.screenshot({ path: info.outputPath("geofences.png") });
  await openFromMenu(page, "Users");
  await expect(page.getByRole("heading", { name: "Users", exact: true })).toBeVisible();
  await page.screenshot({ path: info.outputPath("users.png") });
  expect(errors).toEqual([]);
});

test("an analyst opens a geofence from the table: its fields, events and users, then the map on it", async ({
  page,
}, info) => {
  const errors = consoleErrors(page);
  const tag = unique("table");
  await api("PUT", `/v1/geofences/${tag}/dock`, {
    description: `Dock ${tag}`,
    type: "circle",
    coordinates: [-61.5, 12.4],
    radius: 150,
  });
  const deviceId = unique("docked");
  await api(
    "POST",
    "/v1/track",
    { deviceId, latitude: 12.4, longitude: -61.5, accuracy: 10 },
    serverKeys().publishable,
  );
  await signIn(page, "analyst");
  await page.goto("/geofences");
  const table = page.getByRole("region", { name: "Geofences" });
  await table.getByRole("searchbox").fill(tag);
  // From the keyboard: the row is reached with Tab and opened with Enter, and stays marked.
  const row = table.getByRole("row", { name: new RegExp(`Dock ${tag}`) });
  await expect(row).toHaveAttribute("aria-selected", "false");
  await row.focus();
  await page.keyboard.press("Enter");
  const details = page.getByRole("complementary", { name: "Geofence details" });
  await expect(details.getByRole("heading", { name: `Dock ${tag}` })).toBeVisible();
  await expect(row).toHaveAttribute("aria-selected", "true");
  await page.screenshot({ path: info.outputPath("geofences-table.png") });
  await expect(details).toContainText("circle, 150 m");
  await expect(details.getByRole("region", { name: "Recent events" })).toContainText(
    `entered geofence · ${deviceId}`,
  );
  await expect(details.getByRole("listitem").filter({ hasText: deviceId })).toHaveCount(2);
  await expect(details.getByText(`"externalId": "dock"`)).toBeHidden();
  await details.getByText("The API's document").click();
  await expect(details.getByText(`"externalId": "dock"`)).toBeVisible();
  await details.getByRole("link", { name: "Show on the map" }).click();
  await expect(page).toHaveURL(/\/map\?.*geofence=/);
  const onMap = page.getByRole("region", { name: "Geofence", exact: true });
  await expect(onMap.getByRole("heading", { level: 2 })).toHaveText(`Dock ${tag}`);
  // The map opened on it: the geofence and its one user, counted in words.
  await onMap.getByRole("button", { name: "Close" }).click();
  await expect(page.getByRole("region", { name: "Geofences on the map" })).toContainText(
    "1 geofence in view · 1 user on the map",
  );
  expect(errors).toEqual([]);
});

test("the map and the review queue work at tablet width", async ({ page }, info) => {
  const errors = consoleErrors(page);
  await page.setViewportSize({ width: 820, height: 1180 });
  await signIn(page, "admin");
  await page.goto("/map");
  const map = page.getByRole("region", { name: "Map of geofences and users" });
  await expect(map).toBeVisible();
  expect((await map.boundingBox())!.height).toBeGreaterThan(500);
  await expect(page.getByRole("button", { name: "Draw Polygons" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Geofences on the map" })).toBeInViewport();
  await page.screenshot({ path: info.outputPath("map-tablet.png") });
  await page.goto("/events");
  await expect(page.getByRole("region", { name: "Event queue" })).toBeInViewport();
  await page.screenshot({ path: info.outputPath("events-tablet.png") });
  expect(errors).toEqual([]);
});

test("a reviewer accepts a selection of events at once, and an analyst sees a user's details", async ({
  page,
}) => {
  const errors = consoleErrors(page);
  const tag = unique("bulk");
  await api("PUT", `/v1/geofences/${tag}/shop`, {
    description: `Shop ${tag}`,
    type: "circle",
    coordinates: [-60.5, 11.2],
    radius: 200,
  });
  const { publishable } = (await import("./support")).serverKeys();
  const devices = [unique("a"), unique("b")];
  for (const deviceId of devices) {
    await api("POST", "/v1/track", { deviceId, latitude: 11.2, longitude: -60.5, accuracy: 10 }, publishable);
  }
  await signIn(page, "reviewer");
  await page.goto("/events");
  await page.getByRole("searchbox", { name: "Geofence" }).fill(tag);
  const queue = page.getByRole("region", { name: "Event queue" });
  await expect(queue.getByRole("listitem")).toHaveCount(2);
  await queue.getByRole("checkbox", { name: "Select event 1" }).check();
  await queue.getByRole("checkbox", { name: "Select event 2" }).check();
  await page.getByRole("button", { name: "Accept selected" }).click();
  await expect(page.getByRole("status")).toHaveText("2 events accepted.");
  const events = (await api("GET", "/v1/events?limit=100")).body.events as {
    verification: number;
    geofence?: { tag?: string };
  }[];
  expect(events.filter((e) => e.geofence?.tag === tag).map((e) => e.verification)).toEqual([1, 1]);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, "analyst");
  await openFromMenu(page, "Users");
  await page.getByRole("cell", { name: devices[0]! }).click();
  // As the map shows a user: where it is, what it is inside, its events and its device's log.
  const details = page.getByRole("complementary", { name: "User details" });
  await expect(details.getByRole("heading", { name: devices[0]! })).toBeVisible();
  // Its row stays marked; the other user's is not.
  await expect(page.getByRole("row", { name: new RegExp(devices[0]!) })).toHaveAttribute(
    "aria-selected",
    "true",
  );
  await expect(page.getByRole("row", { name: new RegExp(devices[1]!) })).toHaveAttribute(
    "aria-selected",
    "false",
  );
  await expect(details).toContainText("11.20000, -60.50000 (±10 m)");
  await expect(details).toContainText(`Shop ${tag}`);
  await expect(details.getByRole("listitem").filter({ hasText: `entered geofence Shop ${tag}` })).toHaveCount(
    1,
  );
  await expect(details.getByRole("region", { name: "Device log" })).toContainText("has sent no logs");
  // The API's document, on demand.
  await expect(details.getByText(`"deviceId": "${devices[0]}"`)).toBeHidden();
  await details.getByText("The API's document").click();
  await expect(details.getByText(`"deviceId": "${devices[0]}"`)).toBeVisible();
  // And the user on the map, where it last was.
  await details.getByRole("link", { name: "Show on the map" }).click();
  await expect(page).toHaveURL(/\/map\?.*user=/);
  const onMap = page.getByRole("region", { name: "User", exact: true });
  await expect(onMap.getByRole("heading", { name: devices[0]! })).toBeVisible();
  await expect(onMap.getByLabel("Trail")).toContainText("Trail: 1 recent location since");
  expect(errors).toEqual([]);
});

test("the playground answers context and IP lookups and draws them on the map", async ({ page }, info) => {
  const errors = consoleErrors(page);
  await signIn(page, "analyst");
  await openFromMenu(page, "Playground");
  await page.getByLabel("Coordinates").fill("48.8566, 2.3522");
  await page.getByRole("button", { name: "Get context" }).click();
  await expect(page.getByLabel("Context result")).toContainText("France (FR)");
  // Reverse geocoding from the embedded cities names the city.
  await expect(page.getByLabel("Context result")).toContainText("Paris, FR · locality");
  await page.getByLabel("IP address").fill("8.8.8.8");
  await page.getByRole("button", { name: "Look up" }).click();
  await expect(page.getByLabel("IP result")).toContainText('"countryCode": "US"');
  // The clicked point and the IP's point are on the map.
  await expect(
    page.getByRole("region", { name: "Playground map" }).locator(".leaflet-overlay-pane path"),
  ).toHaveCount(2);
  await page.screenshot({ path: info.outputPath("playground.png") });

  // The map page can show the region borders those answers come from.
  await page.getByRole("link", { name: "Map", exact: true }).click();
  await page.getByRole("checkbox", { name: "Region borders (countries, US states)" }).check();
  await expect
    .poll(() => page.locator(".leaflet-overlay-pane path[stroke='#7c3aed']").count())
    .toBeGreaterThan(50);
  await page.screenshot({ path: info.outputPath("map-borders.png") });
  expect(errors).toEqual([]);
});
