// A routing worker's entry (server/routing/pool.ts): plain JavaScript that registers tsx, so the
// worker runs the TypeScript sources as `npm start` does (worker_threads ignore --import).
import { register } from "tsx/esm/api";

register();
const { workerData } = await import("node:worker_threads");
await import(workerData.entry);
