import { declared } from "@/server/http/handler";
import { readiness } from "@/server/operations/readiness";

/**
 * Readiness probe for load balancers and orchestrators (docs/deployment.md#probes): 200 when this
 * process may take traffic, 503 with the checks that fail otherwise. No key; never cached.
 */
export const dynamic = "force-dynamic";

export const GET = declared(
  async () => {
    const { ready, checks } = await readiness();
    return Response.json(
      {
        status: ready ? "ready" : "not ready",
        checks: Object.fromEntries(checks.map((c) => [c.name, c.ok ? "ok" : c.message])),
        ...(!ready && {
          failing: checks.filter((c) => !c.ok).map(({ name, message }) => ({ name, message })),
        }),
      },
      { status: ready ? 200 : 503, headers: { "cache-control": "no-store" } },
    );
  },
  { access: "none", permission: null },
);
