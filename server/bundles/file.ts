import Database from "better-sqlite3";

/**
 * An import bundle (docs/data.md): one SQLite file per imported region or feed, apart from the
 * main database, read-only once written, on every app node whichever engine holds the rest.
 * This module is the only one that knows the file is SQLite; each layer of a bundle (the
 * features in `server/geodata/features.ts`, the text index in `server/geocode/text-index.ts`,
 * the road graph in `server/routing/graph-bundle.ts`, the timetable in
 * `server/transit/timetable-bundle.ts`) declares its tables and reads and writes them through
 * the statements below, with record types of its own.
 */

/** A layer of a bundle: its tables, and the bundle format that first has them. */
export interface BundleLayer {
  name: string;
  /** SQL that creates the layer's tables in a new bundle */
  schema: string;
  /** the first BUNDLE_FORMAT whose files have this layer; older files are read without it */
  since: number;
}

/**
 * The version of the bundle's layout, written into every finished file: 3 has the text index as
 * it is now, 4 the road graph too, 5 its contraction hierarchies (format 4 still routes, by the
 * slower A*), 6 the transit timetable (GTFS imports), 7 the addresses' own `addr:country`, 8 the
 * text index's streets, places and regions in an FTS table apart from the addresses. A reader
 * uses the layers a file's version has.
 */
export const BUNDLE_FORMAT = 8;

/** A prepared statement over a bundle's tables. */
export interface BundleStatement {
  all<T = Record<string, unknown>>(...params: unknown[]): T[];
  get<T = Record<string, unknown>>(...params: unknown[]): T | undefined;
  /** the first column of each row */
  column<T = unknown>(...params: unknown[]): T[];
  run(...params: unknown[]): { id: number };
}

/** What a bundle being written and an opened one both answer: statements over its tables. */
export interface BundleTables {
  statement(sql: string): BundleStatement;
}

function wrap(s: Database.Statement): BundleStatement {
  return {
    all: <T>(...params: unknown[]) => s.all(...params) as T[],
    get: <T>(...params: unknown[]) => s.get(...params) as T | undefined,
    column: <T>(...params: unknown[]) => {
      const rows = s.pluck(true).all(...params) as T[];
      s.pluck(false);
      return rows;
    },
    run: (...params: unknown[]) => ({ id: Number(s.run(...params).lastInsertRowid) }),
  };
}

/** Bytes as a blob, without copying. */
export const blobOf = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** Writes one bundle; rows go in large transactions, the file is unusable until finish(). */
export class BundleWriter implements BundleTables {
  private db: Database.Database;
  private pending = 0;
  private statements = new Map<string, BundleStatement>();

  constructor(
    readonly file: string,
    layers: readonly BundleLayer[],
  ) {
    this.db = new Database(file);
    // A crash leaves a partial file that is never served, so no journal is needed.
    this.db.pragma("journal_mode = OFF");
    this.db.pragma("synchronous = OFF");
    this.db.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`);
    for (const layer of layers) this.db.exec(layer.schema);
    this.db.exec("BEGIN");
  }

  statement(sql: string): BundleStatement {
    let s = this.statements.get(sql);
    if (!s) this.statements.set(sql, (s = wrap(this.db.prepare(sql))));
    return s;
  }

  /** Counts a row written: every 20,000 the transaction is committed and another begun. */
  step() {
    if (++this.pending >= 20_000) this.checkpoint();
  }

  /** Commits what was written, so that reading it back sees it (and memory stays flat). */
  checkpoint() {
    this.db.exec("COMMIT; BEGIN");
    this.pending = 0;
  }

  /**
   * The rows of a query over a table with an integer id, read 10,000 at a time: a layer is
   * written while another's rows are read, and a large import's rows do not fit in memory at once.
   */
  *pages<T extends { id: number }>(sql: string, id = "id"): Generator<T> {
    const page = this.db.prepare(`${sql} WHERE ${id} > ? ORDER BY ${id} LIMIT 10000`);
    for (let after = 0; ;) {
      const batch = page.all(after) as T[];
      if (!batch.length) return;
      yield* batch;
      after = batch[batch.length - 1]!.id;
    }
  }

  /** Stores named byte arrays (typed arrays of a graph or timetable) as blobs of `table`. */
  blobs(table: string, parts: Iterable<[string, ArrayBufferView]>) {
    const insert = this.db.prepare(`INSERT OR REPLACE INTO ${table} (part, data) VALUES (?, ?)`);
    for (const [part, bytes] of parts) insert.run(part, blobOf(bytes));
  }

  meta(key: string, value: string) {
    this.statement(`INSERT OR REPLACE INTO meta VALUES (?,?)`).run(key, value);
  }

  /** Stamps the format, commits, gathers planner statistics and closes the file. */
  finish() {
    this.meta("format", String(BUNDLE_FORMAT));
    this.db.exec("COMMIT");
    this.db.exec("ANALYZE");
    this.db.close();
  }

  /** Closes without finishing (the caller deletes the file). */
  abandon() {
    if (this.db.open) this.db.close();
  }
}

/** One finished bundle, opened read-only. */
export class Bundle implements BundleTables {
  private db: Database.Database;
  private statements = new Map<string, BundleStatement>();
  private derived = new Map<string, unknown>();

  constructor(readonly file: string) {
    this.db = new Database(file, { readonly: true, fileMustExist: true });
  }

  statement(sql: string): BundleStatement {
    let s = this.statements.get(sql);
    if (!s) this.statements.set(sql, (s = wrap(this.db.prepare(sql))));
    return s;
  }

  meta(): Record<string, string> {
    const rows = this.statement(`SELECT key, value FROM meta`).all<{ key: string; value: string }>();
    return Object.fromEntries(rows.map((r) => [r.key, r.value]));
  }

  /** Whether the file was written with the layer (files of older formats lack the newer ones). */
  has(layer: BundleLayer): boolean {
    return this.once(`format`, () => Number(this.meta().format ?? 1)) >= layer.since;
  }

  /** The named byte arrays of `table` (BundleWriter.blobs). */
  blobs(table: string): Map<string, Buffer> {
    const rows = this.statement(`SELECT part, data FROM ${table}`).all<{ part: string; data: Buffer }>();
    return new Map(rows.map((r) => [r.part, r.data]));
  }

  /**
   * A structure a layer derives from the file (a graph, a KD-tree, a vocabulary), made on first
   * use and kept while the file is open. `key` names it within the bundle.
   */
  once<T>(key: string, make: () => T): T {
    if (!this.derived.has(key)) this.derived.set(key, make());
    return this.derived.get(key) as T;
  }

  /** Runs SQL that changes only the connection's temporary schema (allowed read-only). */
  temporary(sql: string) {
    this.db.exec(sql);
  }

  close() {
    this.db.close();
  }
}
