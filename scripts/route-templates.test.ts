import path from "node:path";
import { describe, expect, it } from "vitest";
import { routeTemplates } from "./route-templates.mjs";

/** A request's route as its template, as the access log and the metrics label it. */

const routeOf = routeTemplates(path.resolve(import.meta.dirname, ".."));

describe("route templates", () => {
  it("name the route a path is answered by, fixed segments before dynamic ones", () => {
    expect(routeOf("/v1/track")).toBe("/v1/track");
    expect(routeOf("/v1/geofences/abc")).toBe("/v1/geofences/[id]");
    expect(routeOf("/v1/geofences/store/42")).toBe("/v1/geofences/[id]/[externalId]");
    expect(routeOf("/v1/geofences/store/42/users")).toBe("/v1/geofences/[id]/[externalId]/users");
    expect(routeOf("/v1/events/e1/verification")).toBe("/v1/events/[id]/verification");
    expect(routeOf("/v1/search/autocomplete/click")).toBe("/v1/search/autocomplete/click");
    expect(routeOf("/api/webhooks/deliveries/d1/redeliver")).toBe("/api/webhooks/deliveries/[id]/redeliver");
    expect(routeOf("/api/webhooks/w1/deliveries")).toBe("/api/webhooks/[id]/deliveries");
  });

  it("name pages without their (group) folders, and public files", () => {
    expect(routeOf("/")).toBe("/");
    expect(routeOf("/geofences")).toBe("/geofences");
    expect(routeOf("/login")).toBe("/login");
    expect(routeOf("/robots.txt")).toBe("/robots.txt");
    expect(routeOf("/_next/static/chunks/x.js")).toBe("/_next");
  });

  it("keep unknown paths to a few labels", () => {
    expect(routeOf("/v1/no/such/thing")).toBe("/v1/[[...path]]");
    expect(routeOf("/api/nothing")).toBe("/api/[[...path]]");
    expect(routeOf("/wp-admin/setup.php")).toBe("unmatched");
  });
});
