import { describe, expect, it } from "vitest";
import type { Storage } from "../../server/storage/port";
import type { DeviceLogLine } from "../../server/storage/logs";
import { T0, at, unique } from "./engine";

const line = (message: string, ms: number, type: string | null = null): DeviceLogLine => ({
  level: "info",
  message,
  type,
  createdAt: at(ms),
});

/** SDK log lines: kept per device and world, newest first, the oldest dropped past the bounds. */
export function logsContract(store: () => Storage): void {
  describe("device logs", () => {
    it("lists a device's lines newest first, in the order sent, with their times, in its own world", async () => {
      const deviceId = unique("logs-device");
      const device = { live: false, deviceId, installId: "install-1" };
      const bounds = { keep: 100, before: at(-3_600_000) };
      await store().logs.append(device, [line("one", 1), line("two", 2, "SDK_CALL")], at(10), bounds);
      await store().logs.append(device, [line("three", 3)], at(20), bounds);
      await store().logs.append({ ...device, live: true }, [line("live", 4)], at(20), bounds);
      expect(await store().logs.list(false, deviceId, 10)).toEqual([
        { level: "info", message: "three", type: null, createdAt: at(3), receivedAt: at(20) },
        { level: "info", message: "two", type: "SDK_CALL", createdAt: at(2), receivedAt: at(10) },
        { level: "info", message: "one", type: null, createdAt: at(1), receivedAt: at(10) },
      ]);
      expect((await store().logs.list(false, deviceId, 2)).map((l) => l.message)).toEqual(["three", "two"]);
      expect((await store().logs.list(true, deviceId, 10)).map((l) => l.message)).toEqual(["live"]);
    });

    it("keeps a device's newest `keep` lines, and drops every device's lines received before the bound", async () => {
      const deviceId = unique("logs-device");
      const other = unique("logs-device");
      const device = { live: false, deviceId, installId: null };
      const old = T0.getTime() - 86_400_000;
      await store().logs.append(
        { ...device, deviceId: other },
        [line("other's old line", -1)],
        new Date(old),
        {
          keep: 100,
          before: new Date(old - 1),
        },
      );
      await store().logs.append(
        device,
        Array.from({ length: 5 }, (_, i) => line(`first ${i}`, i)),
        at(0),
        { keep: 3, before: new Date(old - 1) },
      );
      expect((await store().logs.list(false, deviceId, 10)).map((l) => l.message)).toEqual([
        "first 4",
        "first 3",
        "first 2",
      ]);
      await store().logs.append(device, [line("second", 10)], at(10), { keep: 3, before: new Date(old + 1) });
      expect((await store().logs.list(false, deviceId, 10)).map((l) => l.message)).toEqual([
        "second",
        "first 4",
        "first 3",
      ]);
      expect(await store().logs.list(false, other, 10)).toEqual([]);
    });
  });
}
