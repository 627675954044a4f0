import { afterAll, describe, expect, it } from "vitest";
import {
  FRESH_ACCOUNTS,
  FRESH_PASSWORD,
  type FreshServer,
  startFreshServer,
} from "../../scripts/fresh-server";
import { api, expectError, signIn, unique } from "../support/api";

/** Dashboard accounts as an admin manages them: roles, disabling and enabling, the last admin. */

const as = (cookie: string) => ({ key: null, headers: { cookie } });

async function newAccount(admin: string, role: string) {
  const email = `${unique("acct")}@example.test`;
  const res = await api("POST", "/api/accounts", {
    ...as(admin),
    json: { email, role, password: FRESH_PASSWORD },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: (res.body.account as { id: string }).id, email };
}

describe("accounts", () => {
  it("an admin changes a role, which applies to the account's next request", async () => {
    const admin = await signIn(FRESH_ACCOUNTS.admin, FRESH_PASSWORD);
    const { id, email } = await newAccount(admin, "reviewer");
    const own = await signIn(email, FRESH_PASSWORD);
    // Drawing a geofence needs geofences:write, which analysts have and reviewers do not (an
    // empty body: allowed is a 400, and nothing is written).
    const draw = () => api("POST", "/v1/geofences", { ...as(own), json: {} });
    expectError(await draw(), 403, undefined, /reviewer/);
    const changed = await api("PATCH", `/api/accounts/${id}`, { ...as(admin), json: { role: "analyst" } });
    expect(changed.status).toBe(200);
    expect(changed.body.account).toMatchObject({ email, role: "analyst", disabled: false });
    expectError(await draw(), 400, "description");
  });

  it("disables an account (signed out everywhere, no sign-in) and enables it again", async () => {
    const admin = await signIn(FRESH_ACCOUNTS.admin, FRESH_PASSWORD);
    const { id, email } = await newAccount(admin, "analyst");
    const own = await signIn(email, FRESH_PASSWORD);
    const disabled = await api("PATCH", `/api/accounts/${id}`, { ...as(admin), json: { disabled: true } });
    expect(disabled.body.account).toMatchObject({ disabled: true });
    expectError(await api("GET", "/api/session", as(own)), 401);
    expectError(
      await api("POST", "/api/session", { key: null, json: { email, password: FRESH_PASSWORD } }),
      401,
    );
    const enabled = await api("PATCH", `/api/accounts/${id}`, { ...as(admin), json: { disabled: false } });
    expect(enabled.body.account).toMatchObject({ disabled: false });
    expect((await api("GET", "/api/session", as(await signIn(email, FRESH_PASSWORD)))).status).toBe(200);
  });

  it("refuses changing one's own account, an unknown role, an empty change and an unknown account", async () => {
    const admin = await signIn(FRESH_ACCOUNTS.admin, FRESH_PASSWORD);
    const me = ((await api("GET", "/api/session", as(admin))).body.account as { id: string }).id;
    expectError(
      await api("PATCH", `/api/accounts/${me}`, { ...as(admin), json: { role: "reviewer" } }),
      400,
      "id",
      /own role/,
    );
    expectError(await api("DELETE", `/api/accounts/${me}`, as(admin)), 400, "id", /own account/);
    const { id } = await newAccount(admin, "reviewer");
    expectError(
      await api("PATCH", `/api/accounts/${id}`, { ...as(admin), json: { role: "owner" } }),
      400,
      "role",
    );
    expectError(await api("PATCH", `/api/accounts/${id}`, { ...as(admin), json: {} }), 400);
    expectError(
      await api("PATCH", `/api/accounts/${id}`, { ...as(admin), json: { disabled: "yes" } }),
      400,
      "disabled",
    );
    expectError(await api("PATCH", "/api/accounts/nobody", { ...as(admin), json: { role: "admin" } }), 404);
  });
});

describe("the last admin", () => {
  let fresh: FreshServer | undefined;
  afterAll(() => fresh?.stop());

  it("stays one when two admins demote each other at the same moment", async () => {
    fresh = await startFreshServer();
    const call = async (method: string, path: string, cookie: string | null, json?: unknown) => {
      const res = await fetch(`${fresh!.url}${path}`, {
        method,
        headers: { ...(cookie && { cookie }), "content-type": "application/json", origin: fresh!.url },
        body: json === undefined ? undefined : JSON.stringify(json),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown>, res };
    };
    const signInHere = async (email: string) => {
      const r = await call("POST", "/api/session", null, { email, password: FRESH_PASSWORD });
      expect(r.status).toBe(200);
      return r.res.headers.get("set-cookie")!.split(";")[0]!;
    };
    const first = await signInHere(FRESH_ACCOUNTS.admin);
    const made = [];
    for (const name of ["x", "y"]) {
      const r = await call("POST", "/api/accounts", first, {
        email: `${name}@example.test`,
        role: "admin",
        password: FRESH_PASSWORD,
      });
      made.push((r.body.account as { id: string }).id);
    }
    const [x, y] = [await signInHere("x@example.test"), await signInHere("y@example.test")];
    const accounts = (await call("GET", "/api/accounts", x)).body.accounts as { id: string; email: string }[];
    const original = accounts.find((a) => a.email === FRESH_ACCOUNTS.admin)!.id;
    expect((await call("PATCH", `/api/accounts/${original}`, x, { role: "analyst" })).status).toBe(200);
    // Now x and y are the only admins: each demotes the other at once.
    const answers = await Promise.all([
      call("PATCH", `/api/accounts/${made[1]}`, x, { role: "reviewer" }),
      call("PATCH", `/api/accounts/${made[0]}`, y, { role: "reviewer" }),
    ]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const refused = answers.find((a) => a.status === 409);
    if (refused) expect((refused.body.meta as { message: string }).message).toMatch(/last enabled admin/);
    const after = (await call("GET", "/api/accounts", answers[0]!.status === 200 ? x : y)).body.accounts as {
      role: string;
      disabled: boolean;
    }[];
    expect(after.filter((a) => a.role === "admin" && !a.disabled)).toHaveLength(1);
  }, 60_000);
});
