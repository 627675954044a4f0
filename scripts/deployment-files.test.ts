import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { environmentProblems } from "../server/config/env";

/**
 * The deployment files (Dockerfile, compose.yaml, the systemd unit, the proxies' examples) are
 * not run on these machines (no container engine, no systemd): this holds them to what is run
 * here. They install and build with the commands CI runs, start with the README's command, probe
 * /readyz, keep data in a volume as a user without privileges, and set only settings the server
 * accepts.
 */

const root = path.resolve(import.meta.dirname, "..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const scripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts;

/** The Dockerfile's instructions, continuation lines joined: [instruction, arguments]. */
function dockerfile(): { stage: number; op: string; args: string }[] {
  const lines = read("Dockerfile")
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  let stage = -1;
  return lines.map((l) => {
    const [op, ...rest] = l.split(/\s+/);
    if (op === "FROM") stage++;
    return { stage, op: op!, args: rest.join(" ") };
  });
}

/** The words of an exec-form (["npm", "start"]) or shell-form instruction. */
const words = (args: string) => (args.startsWith("[") ? (JSON.parse(args) as string[]) : args.split(/\s+/));

describe("the Dockerfile", () => {
  const steps = dockerfile();
  const last = Math.max(...steps.map((s) => s.stage));

  it("builds in one stage with CI's install and the build script, and runs another", () => {
    expect(last).toBeGreaterThanOrEqual(1);
    const runs = steps.filter((s) => s.stage === 0 && s.op === "RUN").map((s) => s.args);
    expect(runs.some((r) => /\bnpm ci\b/.test(r))).toBe(true);
    expect(read(".ci/run")).toMatch(/^npm ci\b/m);
    expect(runs.some((r) => /\bnpm run build\b/.test(r))).toBe(true);
    expect(scripts.build).toBeDefined();
    // The Node.js of the image satisfies the project's engines.
    const node = /^node:(\d+)/.exec(steps.find((s) => s.op === "FROM" && s.stage === last)!.args)?.[1];
    expect(Number(node)).toBeGreaterThanOrEqual(20);
  });

  it("starts with the README's command, as a user without privileges, data in a volume", () => {
    const final = steps.filter((s) => s.stage === last);
    expect(words(final.find((s) => s.op === "CMD")!.args)).toEqual(["npm", "start"]);
    expect(read("README.md")).toMatch(/^npm start\b/m);
    const user = final.filter((s) => s.op === "USER").at(-1)?.args;
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)$/);
    expect(final.find((s) => s.op === "VOLUME")?.args).toBe("/data");
    const env = Object.fromEntries(
      final
        .filter((s) => s.op === "ENV")
        .flatMap((s) => s.args.split(/\s+/))
        .map((pair) => pair.split("=") as [string, string]),
    );
    expect(env.DATABASE_URL).toBe("file:/data/location.db");
    expect(env.GEODATA_DIR).toBe("/data/geodata");
    expect(environmentProblems(env)).toBe("");
  });

  it("checks its health on /readyz", () => {
    const check = steps.find((s) => s.op === "HEALTHCHECK")!.args;
    expect(check).toMatch(/\/readyz/);
  });
});

interface Service {
  build?: string;
  image?: string;
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, unknown> | string[];
}

describe("compose.yaml", () => {
  const compose = parse(read("compose.yaml"), { merge: true }) as {
    services: Record<string, Service>;
    volumes: Record<string, unknown>;
  };
  const apps = Object.entries(compose.services).filter(([, s]) => s.build === ".");

  it("runs two app processes of the image on PostgreSQL with PostGIS, data in volumes", () => {
    expect(apps.length).toBe(2);
    const db = compose.services.db!;
    expect(db.image).toMatch(/^postgis\/postgis:1[5-9]/);
    expect(db.volumes?.some((v) => v.endsWith(":/var/lib/postgresql/data"))).toBe(true);
    for (const [name, app] of apps) {
      const env = app.environment!;
      expect(env.DATABASE_URL, name).toMatch(/^postgres:\/\/location:.*@db:5432\/location$/);
      // The settings parse as the server parses them (the variables compose fills in, filled).
      const filled = Object.fromEntries(
        Object.entries(env).map(([k, v]) => [k, v.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, "$1")]),
      );
      expect(environmentProblems(filled), name).toBe("");
      expect(env.TRUST_PROXY, name).toBe("1");
      expect(
        app.volumes?.some((v) => v.endsWith(`:${env.GEODATA_DIR}`)),
        name,
      ).toBe(true);
    }
    for (const volume of [...apps.flatMap(([, a]) => a.volumes ?? []), ...(db.volumes ?? [])]) {
      expect(Object.keys(compose.volumes)).toContain(volume.split(":")[0]);
    }
  });

  it("puts them behind one port, balanced over both", () => {
    const exposed = Object.entries(compose.services).filter(([, s]) => s.ports?.length);
    expect(exposed.map(([name]) => name)).toEqual(["proxy"]);
    const conf = compose.services.proxy!.volumes![0]!.split(":")[0]!;
    const nginx = read(conf);
    for (const [name] of apps) expect(nginx).toMatch(new RegExp(`server ${name}:3000`));
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
  });
});

describe("the systemd unit and the TLS proxy", () => {
  it("runs npm start in the project's folder and restarts it when it fails", () => {
    const unit = read("deploy/location-platform.service");
    expect(unit).toMatch(/^ExecStart=\/usr\/bin\/npm start$/m);
    expect(unit).toMatch(/^WorkingDirectory=\S+$/m);
    expect(unit).toMatch(/^Restart=on-failure$/m);
    expect(unit).toMatch(/^User=(?!root)\w+$/m);
    const env = Object.fromEntries(
      /^Environment=(.*)$/m
        .exec(unit)![1]!
        .split(/\s+/)
        .map((p) => p.split("=") as [string, string]),
    );
    expect(environmentProblems(env)).toBe("");
  });

  it("terminates TLS and forwards the caller's address and scheme", () => {
    const nginx = read("deploy/nginx-tls.conf");
    expect(nginx).toMatch(/listen 443 ssl;/);
    expect(nginx).toMatch(/ssl_certificate \S+;/);
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-Proto https;/);
  });
});
