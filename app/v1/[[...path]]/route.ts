import { unknownRoute } from "@/server/http/handler";

export { OPTIONS } from "@/server/http/handler";

export const GET = unknownRoute;
export const POST = unknownRoute;
export const PUT = unknownRoute;
export const PATCH = unknownRoute;
export const DELETE = unknownRoute;
