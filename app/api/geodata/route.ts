import { importList } from "@/server/geodata/view";
import { dashboardHandler, ok } from "@/server/http/dashboard";

/** GET /api/geodata: the imports the service answers from (`npm run import`). */
export const GET = dashboardHandler(null, async () => ok({ imports: importList() }));
