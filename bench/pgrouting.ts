import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { Mode } from "../server/routing/profiles";

/**
 * pgRouting as the routing benchmark's peer (docs/performance.md#routing): PostgreSQL 15 with
 * PostGIS and pgRouting and osm2pgrouting from Debian, as a user would set them up. A private
 * cluster in a temporary folder, run by the `postgres` user on a Unix socket only; the extract
 * converted to OSM XML by osmium (osm2pgrouting reads no PBF) and imported once per mode with
 * osm2pgrouting's own configuration for cars, bicycles and pedestrians.
 */

const BIN = "/usr/lib/postgresql/15/bin";
const NEEDED: [string, string][] = [
  [`${BIN}/initdb`, "postgresql-15"],
  ["/usr/share/postgresql/15/extension/postgis.control", "postgresql-15-postgis-3"],
  ["/usr/share/postgresql/15/extension/pgrouting.control", "postgresql-15-pgrouting"],
  ["/usr/bin/osm2pgrouting", "osm2pgrouting"],
  ["/usr/bin/osmium", "osmium-tool"],
];
const PORT = 55432;
const CONFIG: Record<Mode, string> = {
  car: "mapconfig_for_cars.xml",
  bike: "mapconfig_for_bicycles.xml",
  foot: "mapconfig_for_pedestrian.xml",
};
/**
 * The edges pgr_dijkstra reads per mode, made once after the import: osm2pgrouting leaves access
 * tags to its user (its configuration says so), so the ways a mode may not use (`foot=no`,
 * `access=private`, …, read from the tags osm2pgrouting imports) are left out, as a user of
 * pgRouting would. Cars by osm2pgrouting's own travel times (its speeds per road class; one-ways
 * have a negative reverse cost), bicycles by length the ways' directions kept (one-ways both ways
 * where bicycles may ride against them), people by length either way.
 */
const CONTRAFLOW = `(COALESCE(o.tags->'oneway:bicycle', '') = 'no' OR COALESCE(o.tags->'cycleway', '') LIKE 'opposite%')`;
const EDGES: Record<Mode, string> = {
  car: `SELECT w.gid AS id, w.source, w.target, w.cost_s AS cost, w.reverse_cost_s AS reverse_cost, w.length_m
    FROM car_ways w JOIN osm_ways o USING (osm_id)
    WHERE COALESCE(o.tags->'motorcar', o.tags->'motor_vehicle', o.tags->'vehicle', o.tags->'access', 'yes')
      NOT IN ('no', 'private', 'agricultural', 'forestry', 'delivery')`,
  bike: `SELECT w.gid AS id, w.source, w.target,
      CASE WHEN w.cost < 0 AND NOT ${CONTRAFLOW} THEN -1 ELSE w.length_m END AS cost,
      CASE WHEN w.reverse_cost < 0 AND NOT ${CONTRAFLOW} THEN -1 ELSE w.length_m END AS reverse_cost,
      w.length_m
    FROM bike_ways w JOIN osm_ways o USING (osm_id)
    WHERE COALESCE(o.tags->'bicycle', o.tags->'vehicle', o.tags->'access', 'yes') NOT IN ('no', 'private')`,
  foot: `SELECT w.gid AS id, w.source, w.target, w.length_m AS cost, w.length_m AS reverse_cost, w.length_m
    FROM foot_ways w JOIN osm_ways o USING (osm_id)
    WHERE COALESCE(o.tags->'foot', o.tags->'access', 'yes') NOT IN ('no', 'private')`,
};

export interface PgRouting {
  /** junctions of the mode's network inside a box: [id, lng, lat] */
  vertices(mode: Mode, box: [number, number, number, number]): Promise<[number, number, number][]>;
  /** pgr_dijkstra between two junctions: the route's meters, or undefined when there is none */
  route(mode: Mode, from: number, to: number): Promise<number | undefined>;
  /**
   * the shortest route's meters: length as the cost on the same ways, cars keeping to one-ways,
   * bicycles (pushed) and people going either way
   */
  shortest(mode: Mode, from: number, to: number): Promise<number | undefined>;
  stop(): Promise<void>;
}

const run = (command: string, args: string[], asPostgres = false) =>
  execFileSync(
    asPostgres ? "runuser" : command,
    asPostgres ? ["-u", "postgres", "--", command, ...args] : args,
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  ).toString();

/** Installs what is missing from Debian (as root, as `.ci/run` does); the reason when it cannot. */
function install(log: (line: string) => void): string | undefined {
  const missing = NEEDED.filter(([file]) => !existsSync(file)).map(([, pkg]) => pkg);
  if (!missing.length) return undefined;
  if (process.getuid?.() !== 0)
    return `pgRouting is not installed (apt-get install ${missing.join(" ")}, as root)`;
  log(`installing ${missing.join(", ")} from Debian…`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  try {
    execFileSync("apt-get", ["install", "-y", "-q", ...missing], { stdio: "ignore", env });
  } catch {
    execFileSync("apt-get", ["update", "-q"], { stdio: "ignore", env });
    execFileSync("apt-get", ["install", "-y", "-q", ...missing], { stdio: "ignore", env });
  }
  return undefined;
}

/** Starts the peer on `extract` (PBF), or says why it cannot. */
export async function startPgRouting(
  extract: string,
  log: (line: string) => void,
): Promise<PgRouting | string> {
  const reason = install(log);
  if (reason) return reason;
  const dir = mkdtempSync(path.join(tmpdir(), "pgrouting-"));
  chmodSync(dir, 0o755);
  const pgUser = Number(run("id", ["-u", "postgres"]).trim());
  chownSync(dir, pgUser, Number(run("id", ["-g", "postgres"]).trim()));
  const data = path.join(dir, "data");
  log("starting PostgreSQL as the postgres user…");
  run(`${BIN}/initdb`, ["-D", data, "-A", "trust", "-U", "postgres"], true);
  run(
    `${BIN}/pg_ctl`,
    [
      "-D",
      data,
      "-l",
      path.join(dir, "log"),
      "-w",
      "-o",
      `-p ${PORT} -k ${dir} -c listen_addresses=''`,
      "start",
    ],
    true,
  );
  const stop = async () => {
    try {
      run(`${BIN}/pg_ctl`, ["-D", data, "-m", "fast", "-w", "stop"], true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    const admin = new pg.Client({ host: dir, port: PORT, user: "postgres", database: "postgres" });
    await admin.connect();
    await admin.query("CREATE DATABASE routing");
    await admin.end();
    const db = new pg.Client({ host: dir, port: PORT, user: "postgres", database: "routing" });
    await db.connect();
    await db.query("CREATE EXTENSION postgis; CREATE EXTENSION pgrouting; CREATE EXTENSION hstore");
    const xml = path.join(dir, "extract.osm");
    run("osmium", ["cat", extract, "-o", xml]);
    for (const mode of ["car", "bike", "foot"] as Mode[]) {
      log(`osm2pgrouting (${mode})…`);
      // Debian's pedestrian configuration ends in comments holding "--", which XML forbids.
      const config = path.join(dir, CONFIG[mode]);
      const text = readFileSync(`/usr/share/osm2pgrouting/${CONFIG[mode]}`, "utf8");
      let conf = text.slice(0, text.indexOf("</configuration>")) + "</configuration>\n";
      // Our bicycles are pushed up steps (server/routing/profiles.ts); the bicycle configuration
      // has no steps, so they are added, as a user matching the profile would.
      if (mode === "bike" && !conf.includes('name="steps"')) {
        conf = conf.replace(
          /(<tag_name name="highway"[^>]*>)/,
          '$1\n    <tag_value name="steps" priority="5.0" id="599" />',
        );
      }
      writeFileSync(config, conf);
      run("osm2pgrouting", [
        "-f",
        xml,
        "-c",
        config,
        "--prefix",
        `${mode}_`,
        "-d",
        "routing",
        "-U",
        "postgres",
        "-h",
        dir,
        "-p",
        String(PORT),
        // The ways' tags, once (a table of its own, shared by the three imports).
        ...(mode === "car" ? ["--addnodes", "--tags"] : []),
      ]);
    }
    for (const mode of ["car", "bike", "foot"] as Mode[]) {
      await db.query(`CREATE TABLE ${mode}_edges AS ${EDGES[mode]}`);
      await db.query(`ALTER TABLE ${mode}_edges ADD PRIMARY KEY (id); ANALYZE ${mode}_edges`);
    }
    const meters = async (mode: Mode, from: number, to: number, edges: string) => {
      const { rows } = await db.query<{ meters: number | null }>(
        `SELECT sum(e.length_m) AS meters FROM pgr_dijkstra($1, $2::bigint, $3::bigint, true) d
         JOIN ${mode}_edges e ON e.id = d.edge`,
        [edges, from, to],
      );
      return rows[0]?.meters ?? undefined;
    };
    return {
      async vertices(mode, [minLng, minLat, maxLng, maxLat]) {
        const { rows } = await db.query<{ id: string; lng: number; lat: number }>(
          `SELECT id, lon AS lng, lat FROM ${mode}_ways_vertices_pgr v
           WHERE lon BETWEEN $1 AND $2 AND lat BETWEEN $3 AND $4
             AND EXISTS (SELECT 1 FROM ${mode}_edges e WHERE e.source = v.id OR e.target = v.id)
           ORDER BY id`,
          [minLng, maxLng, minLat, maxLat],
        );
        return rows.map((r) => [Number(r.id), Number(r.lng), Number(r.lat)]);
      },
      route: (mode, from, to) =>
        meters(mode, from, to, `SELECT id, source, target, cost, reverse_cost FROM ${mode}_edges`),
      shortest: (mode, from, to) =>
        meters(
          mode,
          from,
          to,
          mode === "car"
            ? `SELECT id, source, target, CASE WHEN cost < 0 THEN -1 ELSE length_m END AS cost,
                 CASE WHEN reverse_cost < 0 THEN -1 ELSE length_m END AS reverse_cost FROM car_edges`
            : // Bicycles may be pushed against one-ways (server/routing/profiles.ts), people walk both ways.
              `SELECT id, source, target, length_m AS cost, length_m AS reverse_cost FROM ${mode}_edges`,
        ),
      async stop() {
        await db.end();
        await stop();
      },
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
