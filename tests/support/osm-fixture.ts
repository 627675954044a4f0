import type { TestNode, TestOsm, TestRelation, TestWay } from "./osm-pbf";

/**
 * Testland: a tiny synthetic OSM extract off the coast of West Africa (at sea in the embedded
 * data, so every region found there comes from the import). 0.001° ≈ 111 m here.
 *
 * - country "Testland" (XT): a 0.1° square made of two open ways joined into one ring
 * - state "Northern" (XT-NO): the square's upper half, one closed way
 * - postal code 10001: the lower-left quarter with a hole (postal code 10002 fills the hole)
 * - county "Lower County": the lower half; city "Testville": the square around the cafe and mall
 * - a boundary whose member way is missing from the extract: left out
 * - places: a cafe of a chain, a supermarket 55 m east of it, a mall (area) with a shoe shop
 *   mapped as a point inside it, an airport with an IATA code, a park (multipolygon relation),
 *   an unnamed cafe (not a place), a bench (not a place)
 * - addresses on a node and a building; a named street, an unnamed one and a named footway
 * - in the north, where no postal-code boundary is mapped, two villages whose addresses carry
 *   postcodes 20001 (with one address mistagged 29999) and 20002
 */

export const TESTLAND = {
  cafe: { lng: 0.02, lat: 0.02 },
  supermarket: { lng: 0.0205, lat: 0.02 },
  mall: { minLng: 0.03, minLat: 0.03, maxLng: 0.032, maxLat: 0.032 },
  shoeShop: { lng: 0.0311, lat: 0.0311 },
  north: { lng: 0.05, lat: 0.08 },
  hole: { lng: 0.025, lat: 0.025 },
  postal: { lng: 0.01, lat: 0.01 },
  /** village 20001's addresses sit around here; one of them says 29999 */
  village1: { lng: 0.01, lat: 0.06 },
  /** village 20002 */
  village2: { lng: 0.09, lat: 0.095 },
};

export function testland(): TestOsm {
  const nodes: TestNode[] = [];
  const ways: TestWay[] = [];
  const relations: TestRelation[] = [];
  let nextNode = 1;
  const node = (lon: number, lat: number, tags?: TestNode["tags"]) => {
    const id = nextNode++;
    nodes.push({ id, lon, lat, ...(tags && { tags }) });
    return id;
  };
  const ring = (minLng: number, minLat: number, maxLng: number, maxLat: number) => {
    const a = node(minLng, minLat);
    return [a, node(maxLng, minLat), node(maxLng, maxLat), node(minLng, maxLat), a];
  };

  // Country: two open halves of the square's outline.
  const sw = node(0, 0);
  const se = node(0.1, 0);
  const ne = node(0.1, 0.1);
  const nw = node(0, 0.1);
  ways.push({ id: 100, refs: [sw, se, ne] }, { id: 101, refs: [ne, nw, sw] });
  relations.push({
    id: 1000,
    tags: {
      type: "boundary",
      boundary: "administrative",
      admin_level: "2",
      name: "Testlandia",
      "name:en": "Testland",
      "ISO3166-1:alpha2": "XT",
    },
    members: [
      { type: "way", ref: 100, role: "outer" },
      { type: "way", ref: 101, role: "outer" },
    ],
  });
  // State: upper half.
  ways.push({ id: 102, refs: ring(0, 0.05, 0.1, 0.1) });
  relations.push({
    id: 1001,
    tags: {
      type: "boundary",
      boundary: "administrative",
      admin_level: "4",
      name: "Northern",
      "ISO3166-2": "XT-NO",
    },
    members: [{ type: "way", ref: 102, role: "outer" }],
  });
  // Postal codes: 10001 with a hole that 10002 fills.
  ways.push({ id: 103, refs: ring(0, 0, 0.05, 0.05) }, { id: 104, refs: ring(0.022, 0.022, 0.028, 0.028) });
  relations.push(
    {
      id: 1002,
      tags: { type: "boundary", boundary: "postal_code", postal_code: "10001" },
      members: [
        { type: "way", ref: 103, role: "outer" },
        { type: "way", ref: 104, role: "inner" },
      ],
    },
    {
      id: 1003,
      tags: { type: "boundary", boundary: "postal_code", postal_code: "10002" },
      members: [{ type: "way", ref: 104, role: "outer" }],
    },
    {
      id: 1004,
      tags: {
        type: "boundary",
        boundary: "administrative",
        admin_level: "4",
        name: "Cut Off",
        "ISO3166-2": "XT-CO",
      },
      members: [{ type: "way", ref: 999, role: "outer" }],
    },
  );

  // County and city.
  ways.push({ id: 105, refs: ring(0, 0, 0.1, 0.05) }, { id: 106, refs: ring(0.015, 0.015, 0.035, 0.035) });
  relations.push(
    {
      id: 1006,
      tags: { type: "boundary", boundary: "administrative", admin_level: "6", name: "Lower County" },
      members: [{ type: "way", ref: 105, role: "outer" }],
    },
    {
      id: 1007,
      tags: { type: "boundary", boundary: "administrative", admin_level: "8", name: "Testville" },
      members: [{ type: "way", ref: 106, role: "outer" }],
    },
  );

  // Places.
  const { cafe, supermarket, mall, shoeShop } = TESTLAND;
  node(cafe.lng, cafe.lat, {
    amenity: "cafe",
    name: "Bean There",
    brand: "Bean There",
    "brand:wikidata": "Q000001",
    "addr:housenumber": "1",
    "addr:street": "Main Street",
    "addr:postcode": "10001",
  });
  node(supermarket.lng, supermarket.lat, { shop: "supermarket", name: "FreshCo" });
  ways.push({
    id: 200,
    refs: ring(mall.minLng, mall.minLat, mall.maxLng, mall.maxLat),
    tags: { shop: "mall", name: "Central Mall", building: "retail" },
  });
  node(shoeShop.lng, shoeShop.lat, { shop: "shoes", name: "Shoe Hut" });
  node(0.06, 0.02, { aeroway: "aerodrome", name: "Testland International", iata: "TLX" });
  node(0.021, 0.021, { amenity: "cafe" });
  node(0.0201, 0.0201, { amenity: "bench", name: "Memorial Bench" });
  ways.push(
    { id: 201, refs: ring(0.07, 0.07, 0.08, 0.08) },
    { id: 202, refs: ring(0.074, 0.074, 0.076, 0.076) },
  );
  relations.push({
    id: 1005,
    tags: { type: "multipolygon", leisure: "park", name: "Testland Park" },
    members: [
      { type: "way", ref: 201, role: "outer" },
      { type: "way", ref: 202, role: "inner" },
    ],
  });

  // Addresses and streets.
  ways.push({
    id: 203,
    refs: ring(0.0202, 0.0202, 0.0204, 0.0204),
    tags: {
      building: "house",
      "addr:housenumber": "2",
      "addr:street": "Main Street",
      "addr:postcode": "10001",
    },
  });
  const street = [node(0.019, 0.0199), node(0.022, 0.0199), node(0.025, 0.0199)];
  ways.push(
    { id: 300, refs: street, tags: { highway: "residential", name: "Main Street" } },
    { id: 301, refs: [node(0.019, 0.018), node(0.022, 0.018)], tags: { highway: "residential" } },
    {
      id: 302,
      refs: [node(0.019, 0.017), node(0.022, 0.017)],
      tags: { highway: "footway", name: "Garden Path" },
    },
  );
  // Villages in the north: postcodes on addresses only.
  const { village1: v1, village2: v2 } = TESTLAND;
  const house = (lng: number, lat: number, number: string, postcode: string) =>
    node(lng, lat, { "addr:housenumber": number, "addr:street": "Village Road", "addr:postcode": postcode });
  house(v1.lng, v1.lat, "1", "20001");
  house(v1.lng + 0.0005, v1.lat + 0.0002, "2", "20001");
  house(v1.lng - 0.0002, v1.lat - 0.0002, "3", "20001");
  house(v1.lng + 0.0001, v1.lat + 0.0001, "4", "29999");
  house(v2.lng, v2.lat, "1", "20002");
  house(v2.lng + 0.0005, v2.lat + 0.0002, "2", "20002");
  house(v2.lng - 0.0005, v2.lat - 0.0002, "3", "20002");
  return { nodes, ways, relations };
}
