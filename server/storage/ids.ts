import { randomBytes } from "node:crypto";

let counter = randomBytes(3).readUIntBE(0, 3);
const processPart = randomBytes(5);

/**
 * A 24-hex-digit identifier laid out like a MongoDB ObjectId (seconds, process-random bytes,
 * counter), the shape Radar clients expect in `_id`.
 */
export function newId(now = Date.now()): string {
  const buf = Buffer.alloc(12);
  buf.writeUInt32BE(Math.floor(now / 1000) >>> 0, 0);
  processPart.copy(buf, 4);
  counter = (counter + 1) & 0xffffff;
  buf.writeUIntBE(counter, 9, 3);
  return buf.toString("hex");
}

const clock = globalThis as unknown as { lastStamp?: number };

/**
 * Strictly increasing creation times within this process (shared by every route bundle).
 * Lists page on the timestamp alone (Radar's cursors are datetimes), so two records created in
 * the same millisecond would let a page boundary skip one; a bumped millisecond makes every
 * createdAt distinct.
 */
export function monotonicNow(): Date {
  const now = Date.now();
  const last = clock.lastStamp ?? 0;
  clock.lastStamp = now > last ? now : last + 1;
  return new Date(clock.lastStamp);
}

/**
 * Makes later monotonicNow() values exceed `ms`: called with the newest stored createdAt when
 * the process opens the database, so a restart after the clock was set back cannot repeat one.
 */
export function seedClock(ms: number): void {
  if (Number.isFinite(ms) && ms > (clock.lastStamp ?? 0)) clock.lastStamp = ms;
}
