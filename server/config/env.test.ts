import { describe, expect, it } from "vitest";
import { environmentProblems } from "./env";

describe("the environment", () => {
  it("is fine unset or empty: the defaults", () => {
    expect(environmentProblems({})).toBe("");
    expect(environmentProblems({ PORT: "", MAX_BODY_BYTES: "", TRUST_PROXY: "" })).toBe("");
    expect(
      environmentProblems({ PORT: "8080", MAX_BODY_BYTES: "2048", TRUST_PROXY: "yes", PG_POOL_SIZE: "4" }),
    ).toBe("");
  });

  it.each([
    ["MAX_BODY_BYTES", "abc", /whole number of bytes/],
    ["MAX_BODY_BYTES", "10", /from 1024/],
    ["MAX_BODY_BYTES", "1e6", /whole number of bytes/],
    ["PORT", "70000", /port number/],
    ["PG_POOL_SIZE", "-1", /connections/],
    ["ROUTING_WORKERS", "two", /threads/],
    ["TRUST_PROXY", "maybe", /true, false or a number of proxies/],
    ["COOKIE_SECURE", "on?", /true or false/],
    ["PRELOAD_DATASETS", "lazy", /true or false/],
    ["DATABASE_URL", "mysql://x", /file:PATH|postgres/],
    ["TILE_URL", "https://tiles.example/{z}.png", /\{z\}, \{x\} and \{y\}/],
  ])("names %s=%s and says what it must be", (name, value, message) => {
    const problems = environmentProblems({ [name]: value });
    expect(problems).toContain(`${name}=${JSON.stringify(value)}`);
    expect(problems).toMatch(message);
  });
});
