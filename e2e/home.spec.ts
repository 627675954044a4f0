import { expect, test } from "@playwright/test";

test("the home page says what the service is and how to call it", async ({ page }, testInfo) => {
  const errors: string[] = [];
  page.on("console", (msg) => msg.type() === "error" && errors.push(msg.text()));
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Location platform" })).toBeVisible();
  await expect(page.getByText("curl -X POST http://localhost:3000/v1/geofences")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Track a device" })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("home.png"), fullPage: true });
  expect(errors).toEqual([]);
});
