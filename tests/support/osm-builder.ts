import type { TestNode, TestOsm } from "./osm-pbf";

type Tags = NonNullable<TestNode["tags"]>;

/**
 * Builds a synthetic OSM extract for tests (written with osm-pbf.ts): nodes, named streets,
 * rectangular administrative boundaries and addresses, numbered on from what `base` holds (node
 * ids from 1, ways from 100, relations from 1000 in a new extract).
 */
export function osmBuilder(base: TestOsm = { nodes: [], ways: [], relations: [] }) {
  const osm = base;
  const next = (ids: number[], first: number) => ids.reduce((m, id) => Math.max(m, id + 1), first);
  let nextNode = next(
    osm.nodes.map((n) => n.id),
    1,
  );
  let nextWay = next(
    osm.ways.map((w) => w.id),
    100,
  );
  let nextRelation = next(
    osm.relations.map((r) => r.id),
    1000,
  );
  const node = (lon: number, lat: number, tags?: Tags) => {
    const id = nextNode++;
    osm.nodes.push({ id, lon, lat, ...(tags && { tags }) });
    return id;
  };
  /** An administrative boundary around a box. */
  const boundary = (minLng: number, minLat: number, maxLng: number, maxLat: number, tags: Tags) => {
    const a = node(minLng, minLat);
    const way = nextWay++;
    osm.ways.push({
      id: way,
      refs: [a, node(maxLng, minLat), node(maxLng, maxLat), node(minLng, maxLat), a],
    });
    osm.relations.push({
      id: nextRelation++,
      tags: { type: "boundary", boundary: "administrative", ...tags },
      members: [{ type: "way", ref: way, role: "outer" }],
    });
  };
  /** A residential street through the points. */
  const street = (name: string, points: [number, number][]) =>
    osm.ways.push({
      id: nextWay++,
      refs: points.map(([lng, lat]) => node(lng, lat)),
      tags: { highway: "residential", name },
    });
  /** An address node: its number and street, and its postcode and town when given. */
  const house = (
    at: { lng: number; lat: number },
    streetName: string,
    number: string,
    postcode?: string,
    city?: string,
  ) =>
    node(at.lng, at.lat, {
      "addr:housenumber": number,
      "addr:street": streetName,
      ...(postcode && { "addr:postcode": postcode }),
      ...(city && { "addr:city": city }),
    });
  return { osm, node, boundary, street, house };
}
