/** What a transit search answers: itineraries of legs, from and to points reached on foot. */

/** Walking between a point and a stop. */
export interface Access {
  stop: number;
  seconds: number;
}

export type Leg =
  | { kind: "walk"; fromStop?: number; toStop?: number; departure: number; arrival: number }
  | {
      kind: "ride";
      trip: number;
      fromStop: number;
      toStop: number;
      departure: number;
      arrival: number;
      /** ridden on from the block's previous trip without getting off */
      seated?: boolean;
      /** pickup_type / drop_off_type where boarded and left when not a regular stop: 2 phone, 3 ask the driver */
      pickup?: number;
      dropOff?: number;
    };

export interface Itinerary {
  departure: number;
  arrival: number;
  legs: Leg[];
}
