import { describe, expect, it } from "vitest";
import { FRESH_ACCOUNTS, FRESH_PASSWORD } from "../../scripts/fresh-server";
import { api, expectError, keys, signIn, unique } from "../support/api";

/** The SDKs' logs (POST /v1/logs), kept per device and read in the user panel. */

interface Line {
  level: string;
  message: string;
  type?: string;
  createdAt: string;
}

const as = (cookie: string) => ({ key: null, headers: { cookie } });

async function trackedDevice() {
  const deviceId = unique("logger");
  const res = await api("POST", "/v1/track", {
    key: keys.publishable,
    json: { deviceId, latitude: -10.5, longitude: -30.5, accuracy: 10 },
  });
  return { deviceId, userId: (res.body.user as { _id: string })._id };
}

const send = (body: Record<string, unknown>) =>
  api("POST", "/v1/logs", { key: keys.publishable, json: body });

describe("device logs", () => {
  it("keeps what Android and iOS send, and shows it newest first to support staff", async () => {
    const { deviceId, userId } = await trackedDevice();
    const t = Date.now() - 60_000;
    // radar-sdk-android: RadarLog.toJson (epoch ms, the enum's name).
    const android = await send({
      id: userId,
      deviceId,
      installId: "install-1",
      sessionId: "1764000000",
      logs: [
        { createdAt: t, level: "INFO", message: "📍 Radar initialized" },
        { createdAt: t + 1000, level: "ERROR", message: "Location permission denied" },
      ],
    });
    expect(android.status, JSON.stringify(android.body)).toBe(200);
    expect(android.body).toEqual({ meta: { code: 200 } });
    // radar-sdk-ios: lower-case levels, ISO times, a type.
    const ios = await send({
      deviceId,
      logs: [
        {
          createdAt: new Date(t + 2000).toISOString(),
          level: "debug",
          type: "SDK_CALL",
          message: "trackOnce()",
        },
      ],
    });
    expect(ios.status, JSON.stringify(ios.body)).toBe(200);

    const analyst = await signIn(FRESH_ACCOUNTS.analyst, FRESH_PASSWORD);
    const logs = await api("GET", `/api/users/${userId}/logs`, as(analyst));
    expect(logs.status).toBe(200);
    expect(logs.body.logs as Line[]).toMatchObject([
      {
        level: "debug",
        type: "SDK_CALL",
        message: "trackOnce()",
        createdAt: new Date(t + 2000).toISOString(),
      },
      { level: "error", message: "Location permission denied", createdAt: new Date(t + 1000).toISOString() },
      { level: "info", message: "📍 Radar initialized" },
    ]);
  });

  it("keeps a device's newest 1000 lines", async () => {
    const { deviceId, userId } = await trackedDevice();
    for (let batch = 0; batch < 3; batch++) {
      const res = await send({
        deviceId,
        logs: Array.from({ length: 500 }, (_, i) => ({ level: "DEBUG", message: `line ${batch * 500 + i}` })),
      });
      expect(res.status).toBe(200);
    }
    const admin = await signIn(FRESH_ACCOUNTS.admin, FRESH_PASSWORD);
    const lines = (await api("GET", `/api/users/${userId}/logs?limit=1000`, as(admin))).body.logs as Line[];
    expect(lines).toHaveLength(1000);
    expect(lines[0]!.message).toBe("line 1499");
    expect(lines.at(-1)!.message).toBe("line 500");
  });

  it("refuses what the SDKs never send, naming the field, and erases the logs with the user", async () => {
    const { deviceId, userId } = await trackedDevice();
    expectError(await send({ deviceId, logs: [] }), 400, "logs");
    expectError(await send({ deviceId, logs: [{ level: "verbose", message: "x" }] }), 400, "logs");
    expectError(await send({ logs: [{ level: "info", message: "x" }] }), 400, "deviceId");
    expectError(
      await send({ deviceId, logs: Array.from({ length: 501 }, () => ({ level: "info", message: "x" })) }),
      400,
      "logs",
    );
    expect((await send({ deviceId, logs: [{ level: "warning", message: "low battery" }] })).status).toBe(200);
    const admin = await signIn(FRESH_ACCOUNTS.admin, FRESH_PASSWORD);
    expect(((await api("GET", `/api/users/${userId}/logs`, as(admin))).body.logs as Line[]).length).toBe(1);

    // Erasing the user erases its device's logs: the same device tracked again has none.
    expect((await api("DELETE", `/v1/users/${userId}`)).status).toBe(200);
    const again = await api("POST", "/v1/track", {
      key: keys.publishable,
      json: { deviceId, latitude: -10.5, longitude: -30.5, accuracy: 10 },
    });
    const newId = (again.body.user as { _id: string })._id;
    expect((await api("GET", `/api/users/${newId}/logs`, as(admin))).body.logs).toEqual([]);
  });
});
