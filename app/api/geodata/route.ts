import { importList } from "@/server/imports/view";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { otherMethods } from "@/server/http/handler";

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/** GET /api/geodata: the imports the service answers from (`npm run import`). */
export const GET = dashboardHandler({ permission: "signed-in" }, async () => ok({ imports: importList() }));
