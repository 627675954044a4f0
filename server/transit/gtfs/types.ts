/**
 * What a GTFS feed is once read (../gtfs.ts): the records each file's checker makes, and the
 * error that lists every problem found.
 */

export interface Stop {
  id: string;
  name: string;
  lat: number;
  lng: number;
  /** location_type: 0 a stop or platform (what trips call at), 1 a station, 2–4 entrances and such */
  type: number;
  parent?: string;
}

export interface Route {
  id: string;
  agencyId?: string;
  shortName: string;
  longName: string;
  type: number;
}

export interface StopTime {
  /** index into Feed.stops */
  stop: number;
  arrival: number;
  departure: number;
  /** pickup_type and drop_off_type: 0 regular, 1 none, 2 phone the agency, 3 ask the driver */
  pickup: number;
  dropOff: number;
}

export interface Trip {
  id: string;
  /** index into Feed.routes */
  route: number;
  serviceId: string;
  headsign?: string;
  blockId?: string;
  stopTimes: StopTime[];
}

export interface Service {
  /** Monday first */
  days: boolean[];
  /** yyyymmdd; 0 when the service has no calendar.txt row (only calendar_dates) */
  start: number;
  end: number;
  added: Set<number>;
  removed: Set<number>;
}

export interface Frequency {
  start: number;
  end: number;
  headway: number;
}

export interface Transfer {
  fromStop: number;
  toStop: number;
  fromRoute?: number;
  toRoute?: number;
  /** indexes into Feed.trips: a rule for changing from or to that trip only */
  fromTrip?: number;
  toTrip?: number;
  /** 0 recommended, 1 timed, 2 needs `minTime`, 3 not possible */
  type: number;
  minTime?: number;
}

/**
 * transfers.txt types 4 and 5 (since 2022): from one trip into the next the same vehicle runs,
 * the rider may stay seated (4), or must get off and board again (5).
 */
export interface InSeat {
  fromTrip: number;
  toTrip: number;
  allowed: boolean;
}

export interface Feed {
  timezone: string;
  agencies: { id?: string; name: string }[];
  stops: Stop[];
  routes: Route[];
  trips: Trip[];
  services: Map<string, Service>;
  /** per trip index: its frequencies (the trip's times are then a template) */
  frequencies: Map<number, Frequency[]>;
  transfers: Transfer[];
  inSeat: InSeat[];
}

/** A feed that cannot be imported: what is wrong, file by file and line by line. */
export class GtfsError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `the GTFS feed has ${problems.length === 1 ? "a problem" : `${problems.length} problems`}:\n- ${problems.join("\n- ")}`,
    );
    this.name = "GtfsError";
  }
}
