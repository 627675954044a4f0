import { readFileSync } from "node:fs";
import { type Page, expect } from "@playwright/test";
import { FRESH_ACCOUNTS, FRESH_PASSWORD } from "../scripts/fresh-server";

/**
 * The fresh server's address and keys, written by the webServer command (playwright.config.ts):
 * secret and publishable keys of test data, and `live`, a secret key of live data.
 */
export function serverKeys(): {
  url: string;
  geodataDir: string;
  secret: string;
  publishable: string;
  live: string;
} {
  return JSON.parse(readFileSync("test-results/e2e-keys.json", "utf8")) as ReturnType<typeof serverKeys>;
}

/** A real API call with a key, to check what the dashboard did or to prepare data. */
export async function api(method: string, path: string, body?: unknown, key = serverKeys().secret) {
  const res = await fetch(`${serverKeys().url}${path}`, {
    method,
    headers: { authorization: key, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export async function signIn(page: Page, role: keyof typeof FRESH_ACCOUNTS) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(FRESH_ACCOUNTS[role]);
  await page.getByLabel("Password").fill(FRESH_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
}

/** Opens a dashboard page from the menu (pages link to each other too, under longer names). */
export async function openFromMenu(page: Page, label: string) {
  await page
    .getByRole("navigation", { name: "Dashboard" })
    .getByRole("link", { name: label, exact: true })
    .click();
}

/**
 * Collects console errors; tile requests that cannot leave this machine are expected, and so
 * are the answers a test provokes on purpose (`expected`, such as a 401 for a wrong password).
 */
export function consoleErrors(page: Page, expected?: RegExp): string[] {
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    const text = msg.text();
    if (/tile\.openstreetmap\.org|net::ERR_/.test(text + (msg.location().url ?? ""))) return;
    if (expected?.test(text)) return;
    errors.push(text);
  });
  return errors;
}

export const unique = (prefix: string) => `${prefix}-${Math.random().toString(16).slice(2, 10)}`;

/**
 * Draws a polygon with the map's polygon tool: clicks at these offsets (pixels) from the map's
 * centre, then on the first point again to close it.
 */
export async function drawPolygon(page: Page, offsets: [number, number][]) {
  await page.getByRole("button", { name: "Draw Polygons" }).click();
  const box = (await page.getByLabel("Map of geofences and users").boundingBox())!;
  const points = offsets.map(
    ([dx, dy]) => [box.x + box.width / 2 + dx, box.y + box.height / 2 + dy] as const,
  );
  for (const [x, y] of points) await page.mouse.click(x, y);
  await page.mouse.click(points[0]![0], points[0]![1]);
}
