import { createReadStream } from "node:fs";
import { OSMTransform } from "osm-pbf-parser-node";
async function main() {
  const REL = Number(process.argv[2] ?? 1124039);
  let members: any[] = [];
  const ways = new Map<number, number[]>();
  const nodes = new Map<number, [number, number]>();
  let minLng = 180, minLat = 90, maxLng = -180, maxLat = -90;
  const stream = createReadStream("/work/shared/data/osm/monaco-2016.osm.pbf").pipe(new OSMTransform({ withTags: true, withInfo: false }));
  for await (const batch of stream) {
    for (const item of batch as any[]) {
      if (item.type === "node") { nodes.set(item.id, [item.lon, item.lat]); minLng = Math.min(minLng, item.lon); maxLng = Math.max(maxLng, item.lon); minLat = Math.min(minLat, item.lat); maxLat = Math.max(maxLat, item.lat); }
      if (item.type === "way") ways.set(item.id, item.refs);
      if (item.type === "relation" && item.id === REL) members = item.members;
    }
  }
  console.log("bbox", minLng, minLat, maxLng, maxLat);
  for (const m of members) {
    if (m.type === "way") {
      const refs = ways.get(m.ref);
      if (!refs) { console.log("way", m.ref, m.role, "MISSING"); continue; }
      const have = refs.filter((r) => nodes.has(r));
      const a = nodes.get(refs[0]), b = nodes.get(refs[refs.length - 1]);
      console.log("way", m.ref, m.role, refs.length, "nodes", have.length, "present; ends", a, b);
    } else console.log(m.type, m.ref, m.role, m.type === "node" ? nodes.get(m.ref) : "");
  }
}
void main();
