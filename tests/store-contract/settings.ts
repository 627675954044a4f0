import { describe, expect, it } from "vitest";
import type { Storage } from "../../server/storage/port";
import { T0, at } from "./engine";

export function settingsContract(store: () => Storage): void {
  describe("settings", () => {
    it("answers null for a setting never set, and sets several in one change", async () => {
      expect(await store().settings.get("contract.a")).toBeNull();
      await store().settings.set({ "contract.a": "1", "contract.b": "two" }, T0);
      expect(await store().settings.get("contract.a")).toBe("1");
      expect(await store().settings.get("contract.b")).toBe("two");
      await store().settings.set({ "contract.a": "3" }, at(1));
      expect(await store().settings.get("contract.a")).toBe("3");
      expect(await store().settings.get("contract.b")).toBe("two");
    });
  });
}
