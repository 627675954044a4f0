import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { describe, expect, inject, it } from "vitest";
import { FRESH_ACCOUNTS, FRESH_PASSWORD } from "../../scripts/fresh-server";
import { api, expectError, keys, signIn } from "../support/api";

/** What reaches the server before any route runs: paths, Origin, cookies, the connection. */

const baseUrl = inject("baseUrl");
const { hostname, port } = new URL(baseUrl);

describe("the NUL character, which no text column can store", () => {
  it("is refused with a 400 naming where it is, in a path, a query or a body, and nothing is written", async () => {
    expectError(await api("GET", "/v1/users/a%00b"), 400, "id", /NUL/);
    expectError(await api("GET", "/v1/geofences?tag=a%00b"), 400, "tag", /NUL/);
    expectError(
      await api("POST", "/v1/geofences", {
        json: {
          description: "ok",
          type: "circle",
          coordinates: [2, 1],
          radius: 50,
          tag: "nul-test",
          metadata: { note: ["fine", "bad\u0000"] },
        },
      }),
      400,
      "metadata",
      /metadata\.note\[1\]: must not contain the NUL character/,
    );
    expect((await api("GET", "/v1/geofences?tag=nul-test")).body.geofences).toEqual([]);
    expectError(
      await api("POST", "/v1/track", {
        key: keys.publishable,
        json: { deviceId: "nul\u0000", latitude: 1, longitude: 2, accuracy: 5 },
      }),
      400,
      "deviceId",
    );
  });
});

describe("paths whose percent-encoding does not decode", () => {
  const bad = ["%ZZ", "%ED%A0%80", "%C0%AE%C0%AE", "%", "abc%E2%82"];
  const shapes = [
    (s: string) => `/v1/geofences/${s}`,
    (s: string) => `/v1/geofences/tag/${s}`,
    (s: string) => `/v1/geofences/${s}/x/users`,
    (s: string) => `/v1/users/${s}`,
    (s: string) => `/v1/events/${s}`,
    (s: string) => `/v1/events/${s}/verification`,
    (s: string) => `/v1/${s}`,
    (s: string) => `/api/keys/${s}`,
    (s: string) => `/api/events/${s}/prediction`,
  ];
  it("answer 400 in the JSON envelope on every dynamic route, whatever the method", async () => {
    for (const shape of shapes) {
      for (const s of bad) {
        for (const method of ["GET", "PUT", "DELETE"]) {
          const res = await api(method, `${shape(s)}?limit=1`, { json: method === "PUT" ? {} : undefined });
          expectError(res, 400, "path", /malformed percent-encoding/);
        }
      }
    }
  });

  it("still decode when valid", async () => {
    expectError(await api("GET", "/v1/geofences/caf%C3%A9/%E2%82%AC"), 404, undefined, /café.*€/);
  });
});

describe("the API's root", () => {
  it("answers in the JSON envelope, with and without the slash", async () => {
    for (const path of ["/v1", "/v1/"]) {
      const res = await api("GET", path);
      expectError(res, 404, undefined, /no such endpoint/);
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
    }
  });
});

describe("slashes in API paths", () => {
  /** As sent: fetch would resolve `%2e%2e` itself and follow redirects. */
  const raw = (path: string) =>
    new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      const req = httpRequest(
        { host: hostname, port, path, headers: { authorization: keys.secret } },
        (res) => {
          let body = "";
          res.on("data", (d: Buffer) => (body += d.toString()));
          res.on("end", () =>
            resolve({ status: res.statusCode!, type: String(res.headers["content-type"]), body }),
          );
        },
      );
      req.on("error", reject);
      req.end();
    });

  it("are answered, never redirected or resolved: a trailing slash is dropped; an empty or dot segment is no endpoint", async () => {
    const list = await raw("/v1/geofences/?limit=1");
    expect(list.status).toBe(200);
    expect((JSON.parse(list.body) as { geofences: unknown[] }).geofences).toBeInstanceOf(Array);
    for (const path of [
      "/v1/",
      "/v1/geofences//x",
      "/v1//geofences",
      "/api//keys",
      "/api/nothing",
      "/api/",
      "/v1/geofences/%2e%2e/%2e%2e",
      "/api/accounts/%2E",
    ]) {
      const res = await raw(path);
      expect(res.status, path).toBe(404);
      expect(res.type, path).toMatch(/application\/json/);
      expect((JSON.parse(res.body) as { meta: { code: number } }).meta.code).toBe(404);
    }
  });
});

describe("Origin and session cookies that are not what a browser sends", () => {
  const body = { description: "x", type: "circle", coordinates: [1, 1], radius: 50 };
  it("refuses a null or malformed Origin with a session as cross-site: 403, never 500", async () => {
    const cookie = await signIn(FRESH_ACCOUNTS.admin, FRESH_PASSWORD);
    for (const origin of ["null", "not a url", "http://", "://x", "http://[::1"]) {
      const res = await api("POST", "/v1/geofences", { key: null, json: body, headers: { cookie, origin } });
      expectError(res, 403, undefined, /cross-site/);
      const signInRes = await api("POST", "/api/session", {
        key: null,
        json: { email: FRESH_ACCOUNTS.admin, password: FRESH_PASSWORD },
        headers: { origin },
      });
      expectError(signInRes, 403, undefined, /cross-site/);
    }
  });

  it("treats a malformed session cookie as no session: 401", async () => {
    for (const cookie of ["session=%zz", "session=%", "session=a b", "session=\u00ff", "session="]) {
      expectError(await api("GET", "/v1/events", { key: null, headers: { cookie } }), 401);
      expectError(await api("GET", "/api/session", { key: null, headers: { cookie } }), 401);
    }
  });
});

/**
 * Sends raw bytes on one connection and collects what comes back until it closes, `idleMs` pass,
 * or what came back is `enough`.
 */
function rawExchange(
  write: (send: (s: string) => void) => void,
  idleMs = 3000,
  enough: (text: string) => boolean = () => false,
) {
  return new Promise<{ text: string; closedAfterMs: number }>((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const t0 = Date.now();
    let text = "";
    // Ended here, not by the server.
    const stop = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closedAfterMs: Infinity });
    };
    const timer = setTimeout(stop, idleMs);
    socket.on("data", (d) => {
      text += d.toString("latin1");
      if (enough(text)) stop();
    });
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ text, closedAfterMs: Date.now() - t0 });
    });
    socket.on("error", (e: NodeJS.ErrnoException) => {
      // The server may reset the rest of an upload it refused; what it answered still counts.
      if (e.code !== "ECONNRESET" && e.code !== "EPIPE") reject(e);
    });
    socket.on("connect", () => write((s) => socket.write(s)));
  });
}

describe("a chunked body over the limit", () => {
  it("gets its 413 once it is read, and the connection answers the next request", async () => {
    const chunk = "x".repeat(16 * 1024);
    const { text } = await rawExchange((send) => {
      send(
        `POST /v1/geofences HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: ${keys.secret}\r\n` +
          "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
      );
      send(`${(1).toString(16)}\r\n{\r\n`);
      // 1 MB, four times the test server's limit.
      for (let i = 0; i < 64; i++) send(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      send("0\r\n\r\n");
      send(`GET /v1/config HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: ${keys.secret}\r\n\r\n`);
    }, 1500);
    expect(text).toMatch(/^HTTP\/1\.1 413/);
    expect(text).toContain('"code":413');
    expect(text).toMatch(/HTTP\/1\.1 200/);
  });

  it("keeps the connection open after an ordinary request", async () => {
    // Both answers on the one connection (a server that closed it after the first ends it early).
    const answers = (text: string) => text.match(/HTTP\/1\.1 200/g)?.length ?? 0;
    const { text } = await rawExchange(
      (send) => {
        send(`GET /v1/config HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: ${keys.secret}\r\n\r\n`);
        setTimeout(
          () => send(`GET /v1/config HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: ${keys.secret}\r\n\r\n`),
          100,
        );
      },
      20_000,
      (text) => answers(text) >= 2,
    );
    expect(answers(text)).toBe(2);
  });
});

/**
 * Sends a request head and then `size` bytes of body on a raw socket, as fast as the connection
 * takes them (chunked when `chunked`), and says what came back and how the connection ended.
 */
function rawUpload(head: string, size: number, chunked: boolean) {
  return new Promise<{ text: string; error: string | null }>((resolve) => {
    const socket = connect(Number(port), hostname);
    let text = "";
    let error: string | null = null;
    socket.on("data", (d) => (text += d.toString("latin1")));
    socket.on("error", (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on("close", () => resolve({ text, error }));
    socket.on("connect", async () => {
      const piece = "x".repeat(64 * 1024);
      socket.write(head);
      for (let sent = 0; sent < size && !socket.destroyed; sent += piece.length) {
        const ok = socket.write(chunked ? `${piece.length.toString(16)}\r\n${piece}\r\n` : piece);
        if (!ok) await new Promise((r) => socket.once("drain", r));
      }
      if (!socket.destroyed) socket.end(chunked ? "0\r\n\r\n" : "");
    });
  });
}

describe("a body over the limit, as real clients send it", () => {
  const big = JSON.stringify({
    description: "x".repeat(5 * 1024 * 1024),
    type: "circle",
    coordinates: [1, 2],
  });
  const stream = (bytes: number) => {
    let sent = 0;
    return new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent >= bytes) return c.close();
        sent += 64 * 1024;
        c.enqueue(new Uint8Array(64 * 1024).fill(97));
      },
    });
  };

  it("reaches Node's fetch as a 413, with a Content-Length or chunked, never as a broken pipe", async () => {
    for (let i = 0; i < 8; i++) {
      const fixed = await fetch(`${baseUrl}/v1/geofences`, {
        method: "POST",
        headers: { authorization: keys.secret, "content-type": "application/json" },
        body: big,
      });
      expect(fixed.status).toBe(413);
      expect(((await fixed.json()) as { meta: { param: string } }).meta.param).toBe("body");
      const chunked = await fetch(`${baseUrl}/v1/events/0123456789abcdef01234567/verification`, {
        method: "PUT",
        headers: { authorization: keys.secret, "content-type": "application/json" },
        body: stream(1024 * 1024 + 1),
        duplex: "half",
      } as RequestInit);
      expect(chunked.status).toBe(413);
      const keyless = await fetch(`${baseUrl}/v1/geofences`, { method: "POST", body: big });
      expect(keyless.status).toBe(401);
      await keyless.text();
    }
  });

  it("is answered on a raw socket, which then ends without a reset once the client has sent it all", async () => {
    const head = (extra: string) =>
      `POST /v1/geofences HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: ${keys.secret}\r\n` +
      `Content-Type: application/json\r\n${extra}\r\n`;
    const fixed = await rawUpload(head(`Content-Length: ${5 * 1024 * 1024}\r\n`), 5 * 1024 * 1024, false);
    expect(fixed.text).toMatch(/^HTTP\/1\.1 413/);
    expect(fixed.text).toContain('"code":413');
    expect(fixed.error).toBeNull();
    const chunked = await rawUpload(head("Transfer-Encoding: chunked\r\n"), 3 * 1024 * 1024, true);
    expect(chunked.text).toMatch(/^HTTP\/1\.1 413/);
    expect(chunked.error).toBeNull();
  });
});
