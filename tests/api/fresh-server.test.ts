import { createServer } from "node:http";
import { describe, expect, inject, it } from "vitest";
import { freePort, serve } from "../../scripts/fresh-server";

/**
 * The test servers: one that lost its port to another process is never taken for healthy because
 * the other answers /healthz there (test files start servers side by side).
 */
describe("a test server whose port was taken", () => {
  it("is not healthy because another server answers on that port", async () => {
    const port = await freePort();
    const impostor = createServer((_, res) => res.writeHead(200).end('{"status":"ok"}'));
    await new Promise<void>((r) => impostor.listen(port, "127.0.0.1", r));
    try {
      await expect(
        serve(inject("databaseUrl"), { port, env: { GEODATA_DIR: inject("geodataDir") } }),
      ).rejects.toThrow(/lost its port[\s\S]*EADDRINUSE/);
    } finally {
      impostor.close();
    }
  }, 60_000);
});
