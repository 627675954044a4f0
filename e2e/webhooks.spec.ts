import { type Server, createServer } from "node:http";
import { expect, test } from "@playwright/test";
import { api, consoleErrors, serverKeys, signIn, openFromMenu } from "./support";

/**
 * An admin makes a webhook on the Webhooks page, sees the deliveries an entry made, sends one
 * again, and the receiver (a real HTTP server here) gets both.
 */

let rx: Server;
const got: { id: string; type: string }[] = [];
let hookUrl = "";

test.beforeAll(async () => {
  rx = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      got.push({ id: req.headers["webhook-id"] as string, type: JSON.parse(body).event.type });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => rx.listen(0, "127.0.0.1", r));
  hookUrl = `http://127.0.0.1:${(rx.address() as { port: number }).port}/hook`;
});
test.afterAll(() => rx.close());

test("an admin makes a webhook, sees its deliveries and sends one again", async ({ page }) => {
  const errors = consoleErrors(page);
  await signIn(page, "admin");
  await openFromMenu(page, "Webhooks");
  const form = page.getByRole("form", { name: "New webhook" });
  await form.getByLabel("URL").fill(hookUrl);
  // Live data, which no other test writes: the tests run side by side, and a test webhook would
  // get every entry theirs make.
  await form.getByLabel("Data").selectOption("live");
  await form.getByLabel("Entered geofence").check();
  await form.getByRole("button", { name: "Create webhook" }).click();
  await expect(page.getByLabel("Signing token")).toHaveText(/^whsec_/);
  await expect(page.getByRole("table").getByText(hookUrl)).toBeVisible();

  // An entry through the API, with a live key: the webhook gets it.
  const { live } = serverKeys();
  const center = [-40, -35];
  const fence = { description: "hooked", type: "circle", coordinates: center, radius: 300 };
  expect((await api("POST", "/v1/geofences", fence, live)).status).toBe(200);
  const track = await api(
    "POST",
    "/v1/track",
    { deviceId: "e2e-hook", latitude: center[1], longitude: center[0], accuracy: 5 },
    live,
  );
  expect(track.status).toBe(200);
  await expect.poll(() => got.length).toBe(1);
  expect(got[0]!.type).toBe("user.entered_geofence");

  await page.getByRole("button", { name: "Deliveries" }).click();
  const deliveries = page.getByRole("region", { name: "Deliveries" });
  await expect(deliveries.getByRole("cell", { name: "delivered" })).toBeVisible();
  await expect(deliveries.getByRole("cell", { name: "200" })).toBeVisible();
  await deliveries.getByRole("button", { name: "Redeliver" }).click();
  await expect.poll(() => got.length).toBe(2);
  // Sent again as a new delivery: a receiver dropping duplicates takes it.
  expect(got[1]!.id).not.toBe(got[0]!.id);
  await expect(deliveries.getByRole("cell", { name: "delivered" })).toHaveCount(2);

  // Disabled: the page says so.
  await page.getByRole("button", { name: "Disable" }).click();
  await expect(page.getByRole("cell", { name: "disabled" })).toBeVisible();
  expect(errors).toEqual([]);
});
