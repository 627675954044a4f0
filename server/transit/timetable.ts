import type { Service } from "./gtfs";

/**
 * The timetable RAPTOR searches (docs/transit.md#the-timetable), built once per feed: trips
 * (frequencies expanded into one trip per departure, at exact headways) grouped into patterns
 * (trips calling at the same stops in the same order that never overtake one another), each
 * pattern's trips in departure order, their times in typed arrays; for each stop, the patterns
 * calling there; transfer rules; footpaths between stops; and, for trips of a block, the trips
 * a rider stays seated into.
 */

export interface Timetable {
  timezone: string;
  stops: { id: string; name: string; lat: number; lng: number }[];
  routes: { id: string; shortName: string; longName: string; type: number }[];
  /** per trip: its id (a frequency's copies: the template's id @ the start time), route, service, block */
  tripId: string[];
  /** per trip: the feed's trip it runs (a frequency's copies share one), which trip rules name */
  tripTemplate: number[];
  tripHeadsign: (string | undefined)[];
  tripRoute: Uint32Array;
  tripService: Uint32Array;
  tripPattern: Uint32Array;
  /** times of trip t at its stops: arrival/departure[tripFirstTime[t] + i], seconds of the service day */
  tripFirstTime: Uint32Array;
  arrival: Int32Array;
  departure: Int32Array;
  /** at the same index: pickup_type | drop_off_type << 2 (CALL_NONE: no boarding, or no alighting) */
  callKinds: Uint8Array;
  /** pattern p calls at patternStops[patternFirstStop[p] .. patternFirstStop[p + 1] - 1] */
  patternFirstStop: Uint32Array;
  patternStops: Uint32Array;
  /** its trips, by departure: patternTrips[patternFirstTrip[p] .. patternFirstTrip[p + 1] - 1] */
  patternFirstTrip: Uint32Array;
  patternTrips: Uint32Array;
  /** the patterns calling at stop s, and the position of s in each (a pattern calling twice: twice) */
  stopFirstPattern: Uint32Array;
  stopPatterns: Uint32Array;
  stopPatternPosition: Uint32Array;
  /** services by index (tripService), and whether each runs on a service date */
  serviceIds: string[];
  services: Service[];
  /** transfer rules at one stop (changing vehicles there), by stop */
  stopTransfers: Map<number, TransferRule[]>;
  /**
   * transfer rules between two stops for some routes or trips ("from,to"): a change from one
   * vehicle at the first stop to another at the second, walked (absent in older imports)
   */
  linkTransfers: Map<string, TransferRule[]>;
  /** footpaths between distinct stops: stop s to pathTo[k] in pathSeconds[k], k in pathFirst[s] .. */
  pathFirst: Uint32Array;
  pathTo: Uint32Array;
  pathSeconds: Uint32Array;
  /** per trip: the trips of its block a rider stays seated into (at its last stop, in departure order) */
  blockNext: Map<number, number[]>;
}

/** A transfer that may not be made (transfer_type 3). */
export const NO_TRANSFER = -1;

/** The key of the rules between two stops in `linkTransfers`. */
export const linkKey = (from: number, to: number) => `${from},${to}`;

/**
 * A rule for changing vehicles at one stop: for some routes or trips (feed trip indexes, which
 * `tripTemplate` maps timetable trips to), or for every change there; `station` when written for
 * the stop's parent station (a rule written for the stop itself comes first).
 */
export interface TransferRule {
  fromRoute?: number;
  toRoute?: number;
  fromTrip?: number;
  toTrip?: number;
  station?: true;
  seconds: number;
}

/** pickup_type / drop_off_type 1: no boarding / no alighting there. */
export const CALL_NONE = 1;
export const pickupOf = (kinds: number) => kinds & 3;
export const dropOffOf = (kinds: number) => (kinds >> 2) & 3;

/** A footpath between two stops, in seconds (from the foot graph, or the feed's transfers). */
export interface Footpath {
  from: number;
  to: number;
  seconds: number;
}

/** A trip as it runs: a feed trip, or one departure of a frequency-based trip (its times shifted). */
export interface Run {
  id: string;
  template: number;
  shift: number;
}

/** Runs of the same stops in the same order, none overtaking another. */
export interface Pattern {
  stops: number[];
  runs: number[];
}

/** A footpath the feed forbids (transfers.txt type 3 between two stops): kept so none is added. */
export const FORBIDDEN = 0xffffffff;

/** A footpath only riders off the vehicles of a link transfer may walk (its rules say how long). */
export const LINK_ONLY = 0xfffffffe;
