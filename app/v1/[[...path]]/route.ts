import { ApiError } from "@/server/http/errors";
import { errorResponse } from "@/server/http/handler";

export { OPTIONS } from "@/server/http/handler";

/** Unknown /v1 paths answer in the API's envelope rather than with an HTML page. */
function unknownRoute(req: Request): Response {
  const path = new URL(req.url).pathname;
  return errorResponse(new ApiError("not_found", `no such endpoint: ${req.method} ${path}`));
}

export const GET = unknownRoute;
export const POST = unknownRoute;
export const PUT = unknownRoute;
export const PATCH = unknownRoute;
export const DELETE = unknownRoute;
