import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The log as an operator reads it: JSON lines on standard output, each line of a request with the
 * request's id, errors with their stack, LOG_LEVEL obeyed. Run in a process of its own, whose
 * output is what is tested.
 */

const logger = path.resolve(import.meta.dirname, "logger.mjs");

function run(script: string, env: Record<string, string> = {}): Record<string, unknown>[] {
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    env: { ...process.env, LOG_FORMAT: "json", LOG_LEVEL: "", ...env },
    encoding: "utf8",
  });
  return out
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("the log", () => {
  it("writes JSON lines carrying the request's id inside a request, errors with their stack", () => {
    const lines = run(`
      const { log, requestContext, noteCaller } = await import(${JSON.stringify(logger)});
      log.info("outside");
      requestContext.run({ reqId: "r-1" }, () => {
        noteCaller("key-1");
        log.error({ err: new Error("boom") }, "unexpected error");
        console.log(JSON.stringify(requestContext.getStore()));
      });
    `);
    expect(lines[0]).toMatchObject({ level: "info", msg: "outside" });
    expect(lines[0]).not.toHaveProperty("reqId");
    expect(lines[1]).toMatchObject({ level: "error", reqId: "r-1", msg: "unexpected error" });
    expect((lines[1]!.err as { stack: string }).stack).toMatch(/^Error: boom\n\s+at /);
    expect(typeof lines[1]!.time).toBe("string");
    expect(lines[2]).toEqual({ reqId: "r-1", keyId: "key-1" });
  });

  it("says only what LOG_LEVEL lets through", () => {
    const script = `
      const { log } = await import(${JSON.stringify(logger)});
      log.debug("d"); log.info("i"); log.warn("w");
    `;
    expect(run(script, { LOG_LEVEL: "warn" }).map((l) => l.msg)).toEqual(["w"]);
    expect(run(script, { LOG_LEVEL: "debug" }).map((l) => l.msg)).toEqual(["d", "i", "w"]);
    expect(run(script).map((l) => l.msg)).toEqual(["i", "w"]);
  });
});
