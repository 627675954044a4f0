import { declared } from "@/server/http/handler";

/**
 * Liveness probe, and the no-op baseline the benchmarks compare every endpoint against: it
 * does nothing but answer, so its cost is the framework's own per-request cost.
 */
export const dynamic = "force-dynamic";

export const GET = declared(() => Response.json({ status: "ok" }), { access: "none", permission: null });
