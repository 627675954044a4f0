import type { BBox } from "../geo/distance";

/** The features of a bundle as the imports write them and ./features.ts reads them back. */

export interface StoredPlace {
  oid: string;
  name: string;
  categories: string[];
  chain?: { slug: string; name: string };
  group?: string;
  lng: number;
  lat: number;
  /** the outer ring of an area place, packed */
  ring?: Float64Array;
}

/** A place as the import writes it: the stored place and its bounding box. */
export interface PlaceRecord extends StoredPlace {
  bbox: BBox;
}

export interface RegionRecord {
  type: string;
  name: string;
  code?: string;
  osm: string;
  area: number;
  shape: Buffer;
  bbox: BBox;
}

export interface AddressRecord {
  number: string;
  street?: string;
  unit?: string;
  postcode?: string;
  city?: string;
  /** `addr:country` (ISO 3166-1 alpha-2): the address's own word on its country */
  country?: string;
  lng: number;
  lat: number;
}

export interface StreetRecord {
  name: string;
  kind: string;
  line: Float64Array;
  bbox: BBox;
}

export type StreetLine = Omit<StreetRecord, "bbox">;
