import { beforeAll, describe, expect, inject, it } from "vitest";
import { FRESH_ACCOUNTS, FRESH_PASSWORD } from "../../scripts/fresh-server";
import { type Permission, type Role, ROLES, can } from "../../server/auth/roles";
import { api, expectError, keys, signIn, unique } from "../support/api";
import { routeFiles } from "../support/routes";

/**
 * Every route × method × caller: the three dashboard roles, and the two kinds of API key. The
 * expectations are written here by hand, independently of the routes' own declarations, and the
 * table must name every route file there is: a new route without a row fails this test.
 */

const baseUrl = inject("baseUrl");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

/** What a session's role needs; "signed-in": any role; null: no session may. */
type Need = Permission | Permission[] | "signed-in" | null;
/** Which API keys may call it ("session": none, the dashboard's own routes). */
type Access = "secret" | "publishable" | "search" | "session";
interface Rule {
  access: Access;
  need: Need;
}

const NONE = "000000000000000000000000";
const tag = unique("perm");

/** Route file (under app/) → the path to call → the methods it has, and who may call them. */
const ROUTES: Record<string, { path: string; methods: Partial<Record<Method, Rule>> }> = {
  "v1/config": { path: "/v1/config", methods: { GET: { access: "publishable", need: "signed-in" } } },
  "v1/context": { path: "/v1/context", methods: { GET: { access: "publishable", need: "context:read" } } },
  "v1/events": {
    path: "/v1/events",
    methods: { GET: { access: "secret", need: "events:read" }, POST: { access: "publishable", need: null } },
  },
  "v1/events/[id]": {
    path: `/v1/events/${NONE}`,
    methods: {
      GET: { access: "secret", need: "events:read" },
      DELETE: { access: "secret", need: "events:delete" },
    },
  },
  "v1/events/[id]/verification": {
    path: `/v1/events/${NONE}/verification`,
    methods: { PUT: { access: "secret", need: "events:verify" } },
  },
  "v1/addresses/validate": {
    path: "/v1/addresses/validate?countryCode=XG&number=1&street=Nowhere",
    methods: { GET: { access: "search", need: "context:read" } },
  },
  "v1/geocode/ip": { path: "/v1/geocode/ip", methods: { GET: { access: "search", need: "context:read" } } },
  "v1/geocode/forward": {
    path: "/v1/geocode/forward",
    methods: { GET: { access: "search", need: "context:read" } },
  },
  "v1/geocode/reverse": {
    path: "/v1/geocode/reverse",
    methods: { GET: { access: "search", need: "context:read" } },
  },
  "v1/beacons": {
    path: "/v1/beacons",
    methods: {
      GET: { access: "secret", need: "geofences:read" },
      POST: { access: "secret", need: "geofences:write" },
    },
  },
  "v1/beacons/[id]": {
    path: `/v1/beacons/${NONE}`,
    methods: {
      GET: { access: "secret", need: "geofences:read" },
      PUT: { access: "secret", need: "geofences:write" },
      DELETE: { access: "secret", need: "geofences:write" },
    },
  },
  "v1/beacons/[id]/[externalId]": {
    path: `/v1/beacons/${tag}/${NONE}`,
    methods: {
      GET: { access: "secret", need: "geofences:read" },
      PUT: { access: "secret", need: "geofences:write" },
      DELETE: { access: "secret", need: "geofences:write" },
    },
  },
  "v1/geofences": {
    path: "/v1/geofences",
    methods: {
      GET: { access: "secret", need: "geofences:read" },
      POST: { access: "secret", need: "geofences:write" },
    },
  },
  "v1/geofences/[id]": {
    path: `/v1/geofences/${NONE}`,
    methods: {
      GET: { access: "secret", need: "geofences:read" },
      PATCH: { access: "secret", need: "geofences:write" },
      DELETE: { access: "secret", need: "geofences:write" },
    },
  },
  // The path that once let reviewers write: a geofence whose externalId is "users".
  "v1/geofences/[id]/[externalId]": {
    path: `/v1/geofences/${tag}/users`,
    methods: {
      GET: { access: "secret", need: ["geofences:read", "users:list"] },
      PUT: { access: "secret", need: "geofences:write" },
      DELETE: { access: "secret", need: "geofences:write" },
    },
  },
  "v1/geofences/[id]/[externalId]/users": {
    path: `/v1/geofences/${tag}/x/users`,
    methods: { GET: { access: "secret", need: ["geofences:read", "users:list"] } },
  },
  "v1/search/geofences": {
    path: "/v1/search/geofences",
    methods: { GET: { access: "search", need: "geofences:read" } },
  },
  "v1/route/matrix": {
    path: "/v1/route/matrix",
    methods: { GET: { access: "search", need: "context:read" } },
  },
  "v1/route/optimize": {
    path: "/v1/route/optimize",
    methods: { GET: { access: "search", need: "context:read" } },
  },
  "v1/route/directions": {
    path: "/v1/route/directions",
    methods: { GET: { access: "search", need: "context:read" } },
  },
  "v1/route/match": {
    path: "/v1/route/match",
    methods: { POST: { access: "search", need: "context:read" } },
  },
  "v1/trips": {
    path: "/v1/trips",
    methods: {
      GET: { access: "secret", need: "trips:read" },
      POST: { access: "publishable", need: "trips:write" },
    },
  },
  "v1/trips/[ref]": {
    path: `/v1/trips/${NONE}`,
    methods: {
      GET: { access: "secret", need: "trips:read" },
      PATCH: { access: "publishable", need: "trips:write" },
      DELETE: { access: "secret", need: "trips:write" },
    },
  },
  "v1/trips/[ref]/update": {
    path: `/v1/trips/${NONE}/update`,
    methods: { PATCH: { access: "publishable", need: "trips:write" } },
  },
  "v1/trips/[ref]/legs": {
    path: `/v1/trips/${NONE}/legs`,
    methods: { PUT: { access: "publishable", need: "trips:write" } },
  },
  "v1/trips/[ref]/legs/[legId]": {
    path: `/v1/trips/${NONE}/legs/${NONE}`,
    methods: { PATCH: { access: "publishable", need: "trips:write" } },
  },
  "v1/route/isochrone": {
    path: "/v1/route/isochrone",
    methods: { GET: { access: "search", need: "context:read" } },
  },
  "v1/route/distance": {
    path: "/v1/route/distance",
    methods: { GET: { access: "search", need: "context:read" } },
  },
  "v1/search/autocomplete": {
    path: "/v1/search/autocomplete",
    methods: { GET: { access: "search", need: "context:read" } },
  },
  "v1/search/autocomplete/click": {
    path: "/v1/search/autocomplete/click",
    methods: { POST: { access: "search", need: "context:read" } },
  },
  "v1/search/places": {
    path: "/v1/search/places",
    methods: { GET: { access: "search", need: "context:read" } },
  },
  "v1/search/users": { path: "/v1/search/users", methods: { GET: { access: "secret", need: "users:list" } } },
  "v1/track": { path: "/v1/track", methods: { POST: { access: "publishable", need: null } } },
  "v1/logs": { path: "/v1/logs", methods: { POST: { access: "publishable", need: null } } },
  "v1/track/replay": { path: "/v1/track/replay", methods: { POST: { access: "publishable", need: null } } },
  "v1/sync/region": { path: "/v1/sync/region", methods: { POST: { access: "publishable", need: null } } },
  "v1/search/beacons": {
    path: "/v1/search/beacons?near=40.7,-74",
    methods: { GET: { access: "publishable", need: null } },
  },
  "v1/users": { path: "/v1/users", methods: { GET: { access: "secret", need: "users:list" } } },
  "v1/users/[id]": {
    path: `/v1/users/${unique("nobody")}`,
    methods: {
      GET: { access: "secret", need: "users:read" },
      DELETE: { access: "secret", need: "users:write" },
    },
  },
  "api/accounts": {
    path: "/api/accounts",
    methods: {
      GET: { access: "session", need: "accounts:manage" },
      POST: { access: "session", need: "accounts:manage" },
    },
  },
  "api/accounts/[id]": {
    path: `/api/accounts/${NONE}`,
    methods: {
      PATCH: { access: "session", need: "accounts:manage" },
      DELETE: { access: "session", need: "accounts:manage" },
    },
  },
  "api/events/[id]/prediction": {
    path: `/api/events/${NONE}/prediction`,
    methods: { GET: { access: "session", need: "events:read" } },
  },
  "api/users/[id]/trail": {
    path: `/api/users/${NONE}/trail`,
    methods: { GET: { access: "session", need: "users:read" } },
  },
  "api/beacons/export": {
    // An unknown format: a JSON 400 where the call is allowed (a file otherwise).
    path: "/api/beacons/export?format=kml",
    methods: { GET: { access: "session", need: "geofences:read" } },
  },
  "api/beacons/import": {
    path: "/api/beacons/import",
    methods: { POST: { access: "session", need: "geofences:write" } },
  },
  "api/geofences/export": {
    // An unknown format: a JSON 400 where the call is allowed (a file otherwise).
    path: "/api/geofences/export?format=kml",
    methods: { GET: { access: "session", need: "geofences:read" } },
  },
  "api/geofences/import": {
    path: "/api/geofences/import",
    methods: { POST: { access: "session", need: "geofences:write" } },
  },
  "api/events/conversions": {
    path: "/api/events/conversions?days=0",
    methods: { GET: { access: "session", need: "events:read" } },
  },
  "api/events/export": {
    path: "/api/events/export?verification=maybe",
    methods: { GET: { access: "session", need: "events:read" } },
  },
  "api/geofences/table": {
    path: "/api/geofences/table",
    methods: { GET: { access: "session", need: "geofences:read" } },
  },
  "api/trips": { path: "/api/trips", methods: { GET: { access: "session", need: "trips:read" } } },
  "api/overview": { path: "/api/overview", methods: { GET: { access: "session", need: "overview:read" } } },
  "api/trips/[id]/path": {
    path: `/api/trips/${NONE}/path`,
    methods: { GET: { access: "session", need: "trips:read" } },
  },
  "api/trips/[id]/events": {
    path: `/api/trips/${NONE}/events`,
    methods: { GET: { access: "session", need: "trips:read" } },
  },
  "api/users/table": {
    path: "/api/users/table",
    methods: { GET: { access: "session", need: "users:list" } },
  },
  "api/geodata": { path: "/api/geodata", methods: { GET: { access: "session", need: "signed-in" } } },
  "api/geodata/streets": {
    path: "/api/geodata/streets",
    methods: { GET: { access: "session", need: "signed-in" } },
  },
  "api/geodata/view": {
    path: "/api/geodata/view",
    methods: { GET: { access: "session", need: "signed-in" } },
  },
  "api/keys": {
    path: "/api/keys",
    methods: {
      GET: { access: "session", need: "keys:manage" },
      POST: { access: "session", need: "keys:manage" },
    },
  },
  "api/keys/[id]": {
    path: `/api/keys/${NONE}`,
    methods: { DELETE: { access: "session", need: "keys:manage" } },
  },
  "api/webhooks": {
    path: "/api/webhooks",
    methods: {
      GET: { access: "session", need: "webhooks:manage" },
      POST: { access: "session", need: "webhooks:manage" },
    },
  },
  "api/webhooks/[id]": {
    path: `/api/webhooks/${NONE}`,
    methods: {
      PATCH: { access: "session", need: "webhooks:manage" },
      DELETE: { access: "session", need: "webhooks:manage" },
    },
  },
  "api/webhooks/[id]/test": {
    path: `/api/webhooks/${NONE}/test`,
    methods: { POST: { access: "session", need: "webhooks:manage" } },
  },
  "api/webhooks/[id]/deliveries": {
    path: `/api/webhooks/${NONE}/deliveries`,
    methods: { GET: { access: "session", need: "webhooks:manage" } },
  },
  "api/webhooks/deliveries/[id]/redeliver": {
    path: `/api/webhooks/deliveries/${NONE}/redeliver`,
    methods: { POST: { access: "session", need: "webhooks:manage" } },
  },
  "api/users/[id]/logs": {
    path: `/api/users/${unique("nobody")}/logs`,
    methods: { GET: { access: "session", need: "users:read" } },
  },
  "api/settings/sdk": {
    path: "/api/settings/sdk",
    methods: {
      GET: { access: "session", need: "keys:manage" },
      PUT: { access: "session", need: "keys:manage" },
    },
  },
  "api/settings": {
    path: "/api/settings",
    methods: {
      GET: { access: "session", need: "keys:manage" },
      PATCH: { access: "session", need: "keys:manage" },
    },
  },
};

const PROBES = ["healthz", "readyz"];

/** Routes outside the matrix, each tested on its own elsewhere. */
const ELSEWHERE: Record<string, string> = {
  "v1/[[...path]]": "unknown /v1 paths: 404 for everyone (geofences.test.ts, unknown routes)",
  "api/[[...path]]": "unknown /api paths: 404 for everyone (http-edges.test.ts)",
  "api/session": "sign-in and sign-out, before any role (dashboard-auth.test.ts)",
  healthz: "the liveness probe, open to all",
  readyz: "the readiness probe, open to all (probes.test.ts)",
};

const allows = (role: Role, need: Need) =>
  need === "signed-in" || (need !== null && [need].flat().every((p) => can(role, p as Permission)));

/** A body that passes no validation where the call is allowed: nothing is ever written. */
const bodyFor = (file: string, method: Method) =>
  method === "GET" || method === "DELETE"
    ? undefined
    : file === "v1/events/[id]/verification"
      ? { verification: 1 }
      : file === "api/settings"
        ? {}
        : file === "v1/geofences/[id]"
          ? {}
          : { description: "" };

const cookies = {} as Record<Role, string>;
beforeAll(async () => {
  for (const role of ROLES) cookies[role] = await signIn(FRESH_ACCOUNTS[role], FRESH_PASSWORD);
});

describe("who may call what", () => {
  it("has a row for every route file", () => {
    const files = routeFiles().filter((f) => f.startsWith("v1") || f.startsWith("api") || PROBES.includes(f));
    expect(files.sort()).toEqual([...Object.keys(ROUTES), ...Object.keys(ELSEWHERE)].sort());
  });

  for (const [file, { path: url, methods }] of Object.entries(ROUTES)) {
    for (const method of METHODS) {
      const rule = methods[method];
      it(`${method} ${file}`, async () => {
        const json = bodyFor(file, method);
        const call = (auth: { key: string | null; cookie?: string }) =>
          api(method, url, {
            key: auth.key,
            json,
            headers: auth.cookie ? { cookie: auth.cookie, origin: baseUrl } : {},
          });
        for (const role of ROLES) {
          const res = await call({ key: null, cookie: cookies[role] });
          const label = `${role}: ${JSON.stringify(res.body.meta)}`;
          if (!rule) expect(res.status, label).toBe(405);
          else if (allows(role, rule.need)) expect([401, 403, 405], label).not.toContain(res.status);
          else expectError(res, 403, undefined, new RegExp(`the ${role} role cannot do this`));
        }
        const secret = await call({ key: keys.secret });
        const publishable = await call({ key: keys.publishable });
        if (!rule) {
          expect(secret.status).toBe(405);
          expect(publishable.status).toBe(405);
        } else if (rule.access === "session") {
          expectError(secret, 401);
          expectError(publishable, 401);
        } else {
          expect([401, 403, 405], JSON.stringify(secret.body)).not.toContain(secret.status);
          if (rule.access === "publishable") expect([401, 403]).not.toContain(publishable.status);
          else expectError(publishable, 403, undefined, /needs a secret key/);
        }
      });
    }
  }
});

describe("no URL lets a reviewer write a geofence", () => {
  it("refuses PUT and DELETE on a geofence whose externalId is 'users', and changes nothing", async () => {
    const t = unique("users-tag");
    const as = { key: null, headers: { cookie: cookies.reviewer, origin: baseUrl } };
    const body = { description: "by reviewer", type: "circle", coordinates: [1, 1], radius: 50 };
    expectError(await api("PUT", `/v1/geofences/${t}/users`, { ...as, json: body }), 403);
    expectError(await api("GET", `/v1/geofences/${t}/users`), 404);

    const created = await api("PUT", `/v1/geofences/${t}/users`, { json: { ...body, description: "kept" } });
    expect(created.status).toBe(200);
    expectError(await api("PUT", `/v1/geofences/${t}/users`, { ...as, json: body }), 403);
    expectError(await api("DELETE", `/v1/geofences/${t}/users`, as), 403);
    const after = await api("GET", `/v1/geofences/${t}/users`);
    expect(after.body.geofence).toEqual(created.body.geofence);
  });
});
