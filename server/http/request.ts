import type { z } from "zod";
import { env } from "../config/env";
import { MAX_DEPTH, tooDeep } from "./depth";
import { ApiError, invalid } from "../errors";

/**
 * Where in `value` a string holds the NUL character, as a path, or null. No text column can
 * store it (PostgreSQL refuses it outright), and no name, id or description needs it.
 */
function nulAt(value: unknown, path: (string | number)[] = []): (string | number)[] | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      const found = nulAt(v, [...path, Array.isArray(value) ? Number(k) : k]);
      if (found) return found;
    }
  }
  return null;
}

/** Refuses input nested deeper than MAX_DEPTH (a 400 naming the field), before any recursion. */
function refuseDeep(input: unknown): void {
  const field = tooDeep(input);
  if (field === null) return;
  throw new ApiError(
    "invalid_input",
    `${field || "body"}: is nested deeper than ${MAX_DEPTH} levels`,
    field || "body",
  );
}

/** Refuses input with a NUL character anywhere (a 400 naming where), before any schema sees it. */
export function refuseNul(input: unknown): void {
  const path = nulAt(input);
  if (!path) return;
  const where = path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
  throw new ApiError(
    "invalid_input",
    `${where || "body"}: must not contain the NUL character (\\u0000)`,
    String(path[0] ?? "body"),
  );
}

/** Parses validated input; the first issue becomes a 400 naming its top-level field. */
export function validate<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  refuseDeep(input);
  refuseNul(input);
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const param = String(issue.path[0] ?? "body");
  const where = issue.path.map((p, i) =>
    typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`,
  );
  const message = issue.message.replace(/^Invalid input: /, "");
  throw new ApiError("invalid_input", `${where.join("") || "body"}: ${message}`, param);
}

/** Query parameters (first value of each) validated against `schema`. */
export function parseQuery<T extends z.ZodType>(req: Request, schema: T): z.output<T> {
  const params = new URL(req.url).searchParams;
  const input: Record<string, string> = {};
  for (const [k, v] of params) if (!(k in input)) input[k] = v;
  return validate(schema, input);
}

/** The body, as JSON or as a form, size-limited and validated against `schema`. */
export async function parseBody<T extends z.ZodType>(req: Request, schema: T): Promise<z.output<T>> {
  const text = await readLimited(req, env().MAX_BODY_BYTES);
  return validate(schema, decodeBody(text, req.headers.get("content-type")));
}

/**
 * How much of a body too large is still read (and dropped) before answering 413, and for how
 * long. Stopping at once would reset the connection under a client still sending, which would
 * then see a broken pipe instead of the 413; a body declared larger than the limit is never
 * read here, and scripts/serve.mjs drops its rest after the answer ("lingering close").
 */
const DRAIN = { bytes: 16 * 1024 * 1024, ms: 5000 };

export async function readLimited(req: Request, limit: number): Promise<string> {
  const tooLarge = () => new ApiError("payload_too_large", `body: larger than ${limit} bytes`, "body");
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (declared > limit) throw tooLarge();
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await drain(reader, size);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Reads the rest of a body and drops it, within DRAIN's bounds (then gives up on it). */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, size: number): Promise<void> {
  const deadline = Date.now() + DRAIN.ms;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), DRAIN.ms)));
  try {
    while (size <= DRAIN.bytes && Date.now() < deadline) {
      const next = await Promise.race([reader.read(), late]);
      if (next === "late" || next.done) break;
      size += next.value.byteLength;
    }
  } finally {
    clearTimeout(timer);
  }
  await reader.cancel().catch(() => {});
}

/**
 * JSON for application/json; a form for application/x-www-form-urlencoded. Without a content
 * type (or curl's default form type on a body that is plainly JSON) the body decides.
 */
export function decodeBody(text: string, contentType: string | null): Record<string, unknown> {
  if (text.trim() === "") return {};
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  const looksJson = /^\s*[{[]/.test(text);
  if (type === "application/json" || type.endsWith("+json") || looksJson) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw invalid("body", "is not valid JSON");
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw invalid("body", "must be a JSON object");
    }
    return value as Record<string, unknown>;
  }
  if (type === "" || type === "application/x-www-form-urlencoded" || type === "text/plain") {
    return decodeForm(text);
  }
  throw new ApiError(
    "invalid_input",
    `body: content type ${type} is not supported; send application/json or application/x-www-form-urlencoded`,
    "body",
  );
}

/** A form body into an object; a repeated key becomes an array of its values. */
function decodeForm(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(text)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}
