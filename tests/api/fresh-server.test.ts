import { createServer } from "node:http";
import { describe, expect, inject, it } from "vitest";
import { freePort, serve } from "../../scripts/fresh-server";

/**
 * A server whose port another process holds says so and exits (an operator's service manager sees
 * it fail instead of a process that answers nothing), and the test servers never take it for
 * healthy because the other answers /healthz there (test files start servers side by side).
 */
describe("a server whose port was taken", () => {
  it("exits with a line saying so, and is not taken for healthy because another answers there", async () => {
    const port = await freePort();
    const impostor = createServer((_, res) => res.writeHead(200).end('{"status":"ok"}'));
    await new Promise<void>((r) => impostor.listen(port, "127.0.0.1", r));
    try {
      await expect(
        serve(inject("databaseUrl"), { port, env: { GEODATA_DIR: inject("geodataDir") } }),
      ).rejects.toThrow(
        new RegExp(`lost its port \\(it exited with code 1\\)[\\s\\S]*Port ${port} is already in use`),
      );
    } finally {
      impostor.close();
    }
  }, 60_000);
});
