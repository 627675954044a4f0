import { unknownRoute } from "@/server/http/handler";

/** The dashboard's own API answers unknown paths in the envelope too. */
export const GET = unknownRoute;
export const POST = unknownRoute;
export const PUT = unknownRoute;
export const PATCH = unknownRoute;
export const DELETE = unknownRoute;
