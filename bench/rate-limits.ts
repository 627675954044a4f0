import { limitsFor, takeDevice } from "../server/http/limits";

/**
 * What the rate limits cost a request (docs/performance.md): the per-key take and the per-device
 * takes a publishable key's track request makes (deviceId, installId and userId), in process,
 * against the same loop with nothing taken. Every request is of a device seen for the first time
 * (each take makes a record and its expiry timer: the dearest case), spread over 100 keys so that
 * none is refused.
 *
 *   npm run bench:rate-limits
 */

const N = 100_000;
const KEYS = 100;

async function loop(limited: boolean, round: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < N; i++) {
    const d = round * N + i;
    const key = { id: `bench-key-${i % KEYS}`, kind: "publishable" as const, live: false };
    const body = { deviceId: `device-${d}`, installId: `install-${d}`, userId: `user-${d}` };
    if (limited) {
      await limitsFor().key.take(key.id);
      await takeDevice(key, body);
    } else await Promise.resolve(body);
  }
  return ((performance.now() - started) * 1000) / N;
}

for (let round = 1; round <= 3; round++) {
  const bare = await loop(false, round);
  const limited = await loop(true, round);
  console.log(
    `round ${round}: ${(limited - bare).toFixed(2)} µs per request for the key's and three device identities' limits (${limited.toFixed(2)} against ${bare.toFixed(2)} µs)`,
  );
}
process.exit(0);
