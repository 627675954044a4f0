import type { BundleStatement, BundleTables } from "../bundles/file";
import type { Position } from "../geo/distance";
import { type BandedRing, bandRing, pointInBandedRing, ringAreaAndCentroid } from "../geo/polygon";
import { decodePolygons, positionsOf } from "../geo/rings";

export interface StoredRegion {
  type: string;
  name: string;
  code?: string;
  area: number;
}

export interface RegionShape {
  region: StoredRegion;
  polygons: BandedRing[][];
}

/**
 * The regions of a bundle that contain a point, with their shapes decoded and banded once
 * (server/geo/polygon.ts): used by the server's reads and by the import's text index alike.
 */
export class RegionLookup {
  private shapes = new Map<number, RegionShape>();
  private candidates: BundleStatement;
  private row: BundleStatement;

  constructor(tables: BundleTables) {
    this.candidates = tables.statement(
      `SELECT id FROM regions_index WHERE minLng <= @lng AND maxLng >= @lng AND minLat <= @lat AND maxLat >= @lat`,
    );
    this.row = tables.statement(`SELECT type, name, code, area, shape FROM regions WHERE id = ?`);
  }

  /** Regions whose shape contains the point, smallest first. */
  at(lng: number, lat: number): StoredRegion[] {
    const hits: StoredRegion[] = [];
    for (const id of this.candidates.column<number>({ lng, lat })) {
      const shape = this.shape(id);
      const inside = shape.polygons.some(
        ([outer, ...holes]) =>
          pointInBandedRing(lng, lat, outer!) && !holes.some((h) => pointInBandedRing(lng, lat, h)),
      );
      if (inside) hits.push(shape.region);
    }
    return hits.sort((a, b) => a.area - b.area);
  }

  /**
   * A point that stands for a region: the centroid of its largest part when that lies inside it
   * (a municipality's exclaves in the mountains do not pull it away from the town), else none.
   */
  pointIn(id: number): Position | undefined {
    let best: { area: number; centroid: Position } | undefined;
    for (const [outer] of this.shape(id).polygons) {
      const ac = ringAreaAndCentroid(positionsOf(outer!.coords));
      if (!best || ac.area > best.area) best = ac;
    }
    if (!best) return undefined;
    const [lng, lat] = best.centroid;
    return this.at(lng, lat).some((r) => r === this.shape(id).region) ? best.centroid : undefined;
  }

  shape(id: number): RegionShape {
    let shape = this.shapes.get(id);
    if (!shape) {
      const row = this.row.get<{
        type: string;
        name: string;
        code: string | null;
        area: number;
        shape: Buffer;
      }>(id)!;
      shape = {
        region: { type: row.type, name: row.name, ...(row.code && { code: row.code }), area: row.area },
        polygons: decodePolygons(row.shape).map((p) => p.map((ring) => bandRing(ring))),
      };
      this.shapes.set(id, shape);
    }
    return shape;
  }
}
