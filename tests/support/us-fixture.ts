import { osmBuilder } from "./osm-builder";
import type { TestOsm } from "./osm-pbf";

/**
 * "Usland": a piece of lower Manhattan shaped like a real OpenStreetMap extract of it:
 * the State of New York and New York City as boundaries, streets named as OSM names them ("West
 * 4th Street", "1st Avenue", "Waverly Place"), and addresses that mostly have no `addr:city`
 * (as Manhattan's do) but a ZIP code. Far up the state, the town of Waverly and a village named
 * Charles, whose names are words of the street addresses asked for.
 */

export const USLAND = {
  charles115: { lng: -74.0046, lat: 40.7347 },
  waverly190: { lng: -74.0018, lat: 40.7345 },
  west4th12: { lng: -73.9967, lat: 40.7306 },
  first200: { lng: -73.9845, lat: 40.7302 },
  bleecker300: { lng: -74.0025, lat: 40.7315 },
};

export function usland(): TestOsm {
  const { osm, boundary, street, house } = osmBuilder();

  boundary(-79.8, 40.5, -71.8, 45.0, { admin_level: "4", name: "New York", "ISO3166-2": "US-NY" });
  boundary(-74.03, 40.7, -73.97, 40.76, { admin_level: "5", name: "New York" });
  boundary(-76.56, 41.99, -76.5, 42.03, { admin_level: "8", name: "Waverly" });
  boundary(-75.4, 43.0, -75.36, 43.03, { admin_level: "8", name: "Charles" });

  street("Charles Street", [
    [-74.0085, 40.7355],
    [-74.001, 40.734],
  ]);
  house(USLAND.charles115, "Charles Street", "115", "10014");
  house({ lng: -74.006, lat: 40.735 }, "Charles Street", "131", "10014");
  street("Waverly Place", [
    [-74.004, 40.736],
    [-73.996, 40.731],
  ]);
  house(USLAND.waverly190, "Waverly Place", "190", "10014");
  house({ lng: -73.999, lat: 40.7328 }, "Waverly Place", "120");
  street("West 4th Street", [
    [-74.001, 40.7345],
    [-73.993, 40.729],
  ]);
  house(USLAND.west4th12, "West 4th Street", "12", "10012");
  street("1st Avenue", [
    [-73.987, 40.724],
    [-73.98, 40.739],
  ]);
  house(USLAND.first200, "1st Avenue", "200", "10009", "New York");
  street("Bleecker Street", [
    [-74.006, 40.734],
    [-73.995, 40.727],
  ]);
  house(USLAND.bleecker300, "Bleecker Street", "300", "10014");
  // Up the state: Waverly's own streets, and a Charles Street in the village of Charles.
  street("Broad Street", [
    [-76.54, 42.01],
    [-76.52, 42.01],
  ]);
  house({ lng: -76.53, lat: 42.01 }, "Broad Street", "190", "14892", "Waverly");
  street("Charles Street", [
    [-75.39, 43.01],
    [-75.37, 43.01],
  ]);
  house({ lng: -75.38, lat: 43.01 }, "Charles Street", "115", "13440", "Charles");
  return osm;
}

/**
 * A larger Usland for `npm run eval:geocode -- --us-fixture`: a grid of Manhattan's shape (30
 * numbered streets, West and East of Fifth Avenue, 11 numbered avenues, and named streets of the
 * Village), about 2,000 addresses, four in five without `addr:city` and every one with its ZIP,
 * in the State of New York and New York County; towns up the state named like its streets
 * (Waverly, Charles, Bleecker, Hudson) to draw wrong answers.
 */
export function uslandGrid(): TestOsm {
  const { osm, boundary, street: way, house: address } = osmBuilder(usland());
  const street = (name: string, from: [number, number], to: [number, number]) => way(name, [from, to]);
  boundary(-74.03, 40.7, -73.96, 40.8, { admin_level: "6", name: "New York County" });
  for (const [i, town] of ["Bleecker", "Hudson"].entries()) {
    boundary(-75 + i, 42.5, -75 + i + 0.04, 42.53, { admin_level: "8", name: town });
  }
  const ordinal = (n: number) =>
    `${n}${n % 100 >= 11 && n % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th")}`;
  const zip = (lat: number) => String(10001 + Math.min(13, Math.floor((40.79 - lat) / 0.006)));
  let k = 0;
  const house = (lng: number, lat: number, name: string, number: number) =>
    address({ lng, lat }, name, String(number), zip(lat), ++k % 5 === 0 ? "New York" : undefined);
  // Numbered streets run west–east; West and East of Fifth Avenue (lng -73.985).
  for (let s = 1; s <= 30; s++) {
    const lat = 40.72 + s * 0.002;
    for (const side of ["West", "East"] as const) {
      const name = `${side} ${ordinal(s)} Street`;
      const [a, b] = side === "West" ? [-74.01, -73.985] : [-73.985, -73.965];
      street(name, [a, lat], [b, lat]);
      for (let h = 0; h < 28; h++) {
        const lng = side === "West" ? -73.9855 - h * 0.0008 : -73.9845 + h * 0.0007;
        house(lng, lat + (h % 2 ? 0.00008 : -0.00008), name, 2 + h * 6 + (h % 2));
      }
    }
  }
  // Numbered avenues run south–north.
  for (let a = 1; a <= 11; a++) {
    const lng = -73.965 - a * 0.004;
    const name = `${ordinal(a)} Avenue`;
    street(name, [lng, 40.72], [lng, 40.79]);
    for (let h = 0; h < 30; h++)
      house(lng + (h % 2 ? 0.0001 : -0.0001), 40.722 + h * 0.0022, name, 10 + h * 8 + (h % 2));
  }
  // Named streets of the Village.
  for (const [i, name] of [
    "Bleecker Street",
    "Hudson Street",
    "Grove Street",
    "Barrow Street",
    "Perry Street",
    "Jane Street",
    "Bank Street",
    "Morton Street",
  ].entries()) {
    const lat = 40.7305 + i * 0.0011;
    street(name, [-74.009, lat], [-73.999, lat]);
    for (let h = 0; h < 20; h++)
      house(-74.0085 + h * 0.0005, lat + (h % 2 ? 0.00007 : -0.00007), name, 1 + h * 2);
  }
  return osm;
}

/**
 * A held-out Manhattan of the kind a real extract cut from a bigger one is, built with
 * what Usland lacks: no boundary at all (New York City is only a `place=city` node, the state's
 * relation is cut away), no address with `addr:city`, and streets named like towns of the same
 * state in the embedded GeoNames data (Greenwich, Hudson, Waverly, Bedford, Perry, Greene,
 * Amsterdam, Clinton, Fulton, Liberty, Hamilton, Albany). Every address has its ZIP. People write
 * its town "New York". Not tuned on: the ranking was changed before this fixture was written, and
 * `npm run eval:geocode -- --us-held-out` measures it.
 */
export function uslandHeldOut(): TestOsm {
  const { osm, node, street, house } = osmBuilder();
  node(-74.006, 40.7128, { place: "city", name: "New York", population: "8336817" });
  const zip = (lng: number, lat: number) =>
    String(10001 + ((Math.floor((40.76 - lat) / 0.007) * 3 + Math.floor((lng + 74.02) / 0.012)) % 40));
  const named = [
    "Greenwich Avenue",
    "Hudson Street",
    "Waverly Place",
    "Bedford Street",
    "Perry Street",
    "Greene Street",
    "Amsterdam Avenue",
    "Clinton Street",
    "Fulton Street",
    "Liberty Street",
    "Hamilton Place",
    "Albany Street",
    "Christopher Street",
    "Bleecker Street",
    "Mercer Street",
    "Spring Street",
  ];
  const ordinal = (n: number) =>
    `${n}${n % 100 >= 11 && n % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th")}`;
  const lines: [string, [number, number], [number, number]][] = [];
  // Named streets run in all directions across the Village and below, each about 1 km long.
  named.forEach((name, i) => {
    const angle = (i * 47) % 180;
    const [cx, cy] = [-74.012 + (i % 4) * 0.006, 40.708 + Math.floor(i / 4) * 0.008];
    const [dx, dy] = [0.006 * Math.cos((angle * Math.PI) / 180), 0.0045 * Math.sin((angle * Math.PI) / 180)];
    lines.push([name, [cx - dx, cy - dy], [cx + dx, cy + dy]]);
  });
  // Numbered streets (West and East of Fifth Avenue) and avenues, as in Midtown.
  for (let s = 14; s <= 34; s += 2) {
    const lat = 40.735 + (s - 14) * 0.0011;
    lines.push([`West ${ordinal(s)} Street`, [-74.006, lat], [-73.991, lat]]);
    lines.push([`East ${ordinal(s)} Street`, [-73.991, lat], [-73.976, lat]]);
  }
  for (let a = 1; a <= 10; a += 3) {
    const lng = -73.976 - a * 0.003;
    lines.push([`${ordinal(a)} Avenue`, [lng, 40.733], [lng, 40.758]]);
  }
  for (const [name, [x0, y0], [x1, y1]] of lines) {
    street(name, [
      [x0, y0],
      [x1, y1],
    ]);
    for (let h = 0; h < 24; h++) {
      const t = (h + 0.5) / 24;
      const side = h % 2 ? 1 : -1;
      const [lng, lat] = [x0 + (x1 - x0) * t, y0 + (y1 - y0) * t + side * 0.00007];
      house({ lng, lat }, name, String(2 + h * 8 + (h % 2)), zip(lng, lat));
    }
  }
  return osm;
}
