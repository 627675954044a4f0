import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";
import { PbfWriter as Pbf } from "pbf";

/**
 * Writes small .osm.pbf files for tests: the OSM PBF format (fileformat.proto, osmformat.proto)
 * with dense nodes, ways and relations, one block each. Only what the import reads.
 */

export type Tags = Record<string, string>;
export interface TestNode {
  id: number;
  lon: number;
  lat: number;
  tags?: Tags;
}
export interface TestWay {
  id: number;
  refs: number[];
  tags?: Tags;
}
export interface TestRelation {
  id: number;
  members: { type: "node" | "way" | "relation"; ref: number; role: string }[];
  tags?: Tags;
}
export interface TestOsm {
  nodes: TestNode[];
  ways: TestWay[];
  relations: TestRelation[];
}

function fileBlock(type: string, data: Uint8Array, compress = true): Buffer {
  const blob = new Pbf();
  if (compress) {
    blob.writeVarintField(2, data.length);
    blob.writeBytesField(3, deflateSync(data));
  } else {
    blob.writeBytesField(1, data);
  }
  const blobBytes = blob.finish();
  const header = new Pbf();
  header.writeStringField(1, type);
  header.writeVarintField(3, blobBytes.length);
  const headerBytes = header.finish();
  const length = Buffer.alloc(4);
  length.writeUInt32BE(headerBytes.length);
  return Buffer.concat([length, headerBytes, blobBytes]);
}

const delta = (values: number[]) => values.map((v, i) => (i === 0 ? v : v - values[i - 1]!));

function primitiveBlock(
  strings: string[],
  writeGroup: (pbf: Pbf, s: (x: string) => number) => void,
): Uint8Array {
  const table = new Map<string, number>([["", 0]]);
  const s = (x: string) => {
    let i = table.get(x);
    if (i === undefined) table.set(x, (i = table.size));
    return i;
  };
  strings.forEach(s);
  const group = new Pbf();
  writeGroup(group, s);
  const groupBytes = group.finish();
  const block = new Pbf();
  block.writeMessage(
    1,
    (_: unknown, p: Pbf) => {
      for (const str of table.keys()) p.writeBytesField(1, Buffer.from(str, "utf8"));
    },
    null,
  );
  block.writeBytesField(2, groupBytes);
  return block.finish();
}

function writeTags(p: Pbf, s: (x: string) => number, tags: Tags | undefined) {
  const entries = Object.entries(tags ?? {});
  p.writePackedVarint(
    2,
    entries.map(([k]) => s(k)),
  );
  p.writePackedVarint(
    3,
    entries.map(([, v]) => s(v)),
  );
}

/** A file block (OSMHeader or OSMData) as it is written: length, header, blob (zlib unless not `compress`). */
export { fileBlock };

/** The header block: the features the import needs, and optionally the extract's box and sort order. */
export function headerBlock(
  options: {
    bbox?: { minLng: number; minLat: number; maxLng: number; maxLat: number };
    sorted?: boolean;
  } = {},
): Buffer {
  const header = new Pbf();
  const b = options.bbox;
  if (b) {
    const nano = (deg: number) => Math.round(deg * 1e9);
    header.writeMessage(
      1,
      (_: unknown, p: Pbf) => {
        p.writeSVarintField(1, nano(b.minLng));
        p.writeSVarintField(2, nano(b.maxLng));
        p.writeSVarintField(3, nano(b.maxLat));
        p.writeSVarintField(4, nano(b.minLat));
      },
      null,
    );
  }
  header.writeStringField(4, "OsmSchema-V0.6");
  header.writeStringField(4, "DenseNodes");
  if (options.sorted) header.writeStringField(5, "Sort.Type_then_ID");
  return fileBlock("OSMHeader", header.finish(), false);
}

/** One data block of dense nodes (in the order given). */
export function nodesBlock(nodes: TestNode[]): Buffer {
  return fileBlock(
    "OSMData",
    primitiveBlock([], (g, s) => {
      g.writeMessage(
        2,
        (_: unknown, d: Pbf) => {
          d.writePackedSVarint(1, delta(nodes.map((n) => n.id)));
          d.writePackedSVarint(8, delta(nodes.map((n) => Math.round(n.lat * 1e7))));
          d.writePackedSVarint(9, delta(nodes.map((n) => Math.round(n.lon * 1e7))));
          const kv: number[] = [];
          for (const n of nodes) {
            for (const [k, v] of Object.entries(n.tags ?? {})) kv.push(s(k), s(v));
            kv.push(0);
          }
          d.writePackedVarint(10, kv);
        },
        null,
      );
    }),
  );
}

/** One data block of ways. */
export function waysBlock(ways: TestWay[]): Buffer {
  return fileBlock(
    "OSMData",
    primitiveBlock([], (g, s) => {
      for (const w of ways) {
        g.writeMessage(
          3,
          (_: unknown, p: Pbf) => {
            p.writeVarintField(1, w.id);
            writeTags(p, s, w.tags);
            p.writePackedSVarint(8, delta(w.refs));
          },
          null,
        );
      }
    }),
  );
}

const MEMBER_TYPES = { node: 0, way: 1, relation: 2 };

/** One data block of relations. */
export function relationsBlock(relations: TestRelation[]): Buffer {
  return fileBlock(
    "OSMData",
    primitiveBlock([], (g, s) => {
      for (const r of relations) {
        g.writeMessage(
          4,
          (_: unknown, p: Pbf) => {
            p.writeVarintField(1, r.id);
            writeTags(p, s, r.tags);
            p.writePackedVarint(
              8,
              r.members.map((m) => s(m.role)),
            );
            p.writePackedSVarint(9, delta(r.members.map((m) => m.ref)));
            p.writePackedVarint(
              10,
              r.members.map((m) => MEMBER_TYPES[m.type]),
            );
          },
          null,
        );
      }
    }),
  );
}

export function osmPbf(data: TestOsm): Buffer {
  const blocks = [headerBlock()];
  const nodes = [...data.nodes].sort((a, b) => a.id - b.id);
  if (nodes.length) blocks.push(nodesBlock(nodes));
  if (data.ways.length) blocks.push(waysBlock(data.ways));
  if (data.relations.length) blocks.push(relationsBlock(data.relations));
  return Buffer.concat(blocks);
}

export function writeOsmPbf(file: string, data: TestOsm): void {
  writeFileSync(file, osmPbf(data));
}
