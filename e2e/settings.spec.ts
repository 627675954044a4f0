import { expect, test } from "@playwright/test";
import { api, consoleErrors, serverKeys, signIn, openFromMenu } from "./support";

/** The SDK settings page: what GET /v1/config answers Radar's SDKs. */
test("an admin sets what the SDKs get at start, and is told which value they would refuse", async ({
  page,
}, info) => {
  // The refused save answers 400, which the browser logs.
  const errors = consoleErrors(page, /status of 400/);
  await signIn(page, "admin");
  await openFromMenu(page, "Settings");
  const form = page.getByRole("form", { name: "SDK settings" });
  await expect(form).toContainText("test environment");

  await form.getByLabel("Log level").selectOption("debug");
  await form.getByLabel("Start tracking on initialize").selectOption("true");
  await form.getByLabel("Default dwell threshold (minutes)").fill("10");
  const other = form.getByLabel(/Other SDK fields/);
  await other.fill('{"maxReplayBufferSize": 500}');
  await form.getByRole("button", { name: "Save" }).click();
  // The server's words, naming the field.
  await expect(form.getByRole("alert")).toContainText("maxReplayBufferSize");

  await other.fill(
    JSON.stringify({
      remoteTrackingOptions: [{ type: "default", trackingOptions: { desiredMovingUpdateInterval: 150 } }],
    }),
  );
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByRole("status")).toContainText("Saved");
  await page.screenshot({ path: info.outputPath("settings.png"), fullPage: true });

  const config = await api("GET", "/v1/config?installId=x&sessionId=1", undefined, serverKeys().publishable);
  expect(config.body).toEqual({
    meta: {
      code: 200,
      sdkConfiguration: {
        logLevel: "debug",
        startTrackingOnInitialize: true,
        defaultGeofenceDwellThreshold: 10,
        remoteTrackingOptions: [{ type: "default", trackingOptions: { desiredMovingUpdateInterval: 150 } }],
      },
    },
  });

  // Back to the SDKs' own defaults: nothing is sent.
  await page.reload();
  await form.getByLabel("Log level").selectOption("");
  await form.getByLabel("Start tracking on initialize").selectOption("");
  await form.getByLabel("Default dwell threshold (minutes)").fill("");
  await form.getByLabel(/Other SDK fields/).fill("");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByRole("status")).toContainText("Saved");
  const cleared = await api("GET", "/v1/config", undefined, serverKeys().publishable);
  expect(cleared.body).toEqual({ meta: { code: 200 } });
  expect(errors).toEqual([]);
});
