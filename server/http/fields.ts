import { z } from "zod";
import { parseCursorDate } from "./datetime";
import { MAX_DEPTH, tooDeep } from "./depth";

/**
 * Zod building blocks for wire input. Query strings and form bodies carry only text, and the
 * wire contract lets structured fields arrive as JSON strings, so each block accepts the typed
 * value and its text form and says in words what was wrong.
 */

const typeName = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/** A required, trimmed, non-empty string of at most `max` characters. */
export const requiredString = (max: number) =>
  z
    .string({
      error: (i) => (i.input === undefined ? "is required" : `must be a string, not ${typeName(i.input)}`),
    })
    .trim()
    .min(1, "is required")
    .max(max, `must be at most ${max} characters`);

/** An optional string; empty means absent. */
export const optionalString = (max: number) =>
  z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z
      .string({ error: (i) => `must be a string, not ${typeName(i.input)}` })
      .trim()
      .max(max, `must be at most ${max} characters`)
      .optional(),
  );

const numberFromText = (v: unknown) => {
  if (typeof v !== "string") return v;
  const s = v.trim();
  return s === "" || !Number.isFinite(Number(s)) ? v : Number(s);
};

/** A finite number; numeric text is accepted. Absent or empty text means undefined. */
export const optionalNumber = z.preprocess(
  (v) => (v === "" || v === null ? undefined : numberFromText(v)),
  z.number({ error: () => "must be a number" }).optional(),
);

const intBetween = (min: number, max: number) => {
  const message = `must be an integer between ${min} and ${max}`;
  return z
    .number({ error: () => message })
    .int(message)
    .min(min, message)
    .max(max, message);
};

/** An integer within [min, max], `fallback` when absent or empty. */
export const intIn = (min: number, max: number, fallback: number) =>
  z.preprocess((v) => (v === undefined || v === "" ? fallback : numberFromText(v)), intBetween(min, max));

/** An optional integer within [min, max]. */
export const optionalInt = (min: number, max: number) =>
  z.preprocess(
    (v) => (v === "" || v === null ? undefined : numberFromText(v)),
    intBetween(min, max).optional(),
  );

/** A required finite number within [min, max]; numeric text is accepted. */
export const numberIn = (min: number, max: number) =>
  z.preprocess(
    (v) => (v === "" || v === null ? undefined : numberFromText(v)),
    z
      .number({ error: (i) => (i.input === undefined ? "is required" : "must be a number") })
      .min(min, `must be between ${min} and ${max}`)
      .max(max, `must be between ${min} and ${max}`),
  );

/** An optional finite number within [min, max]; numeric text is accepted. */
export const optionalNumberIn = (min: number, max: number) =>
  z.preprocess(
    (v) => (v === "" || v === null ? undefined : numberFromText(v)),
    z
      .number({ error: () => "must be a number" })
      .min(min, `must be between ${min} and ${max}`)
      .max(max, `must be between ${min} and ${max}`)
      .optional(),
  );

/** true/false, also as text ("true", "false", "1", "0"). */
export const booleanish = z.preprocess(
  (v) => {
    if (typeof v !== "string") return v;
    const s = v.trim().toLowerCase();
    return s === "true" || s === "1" ? true : s === "false" || s === "0" ? false : v;
  },
  z.boolean({ error: () => "must be true or false" }),
);

/**
 * One value of a key repeated in a form (`coordinates=7.42&coordinates=43.73`, as Radar's Python
 * client sends a list): numeric text is a number, JSON text (`[7.42, 43.73]`) its value.
 */
const formItem = (v: unknown) => {
  if (typeof v !== "string") return v;
  const n = numberFromText(v);
  if (typeof n === "number") return n;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
};

/**
 * A structured value that may arrive as JSON text (form bodies, some SDKs), or as a key repeated
 * in a form, one item per value.
 */
export const jsonish = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v, ctx) => {
    let value: unknown;
    if (Array.isArray(v) && v.some((item) => typeof item === "string")) value = v.map(formItem);
    else if (typeof v !== "string") return v;
    else {
      try {
        value = JSON.parse(v);
      } catch {
        ctx.addIssue({ code: "custom", message: "is not valid JSON", input: v });
        return z.NEVER;
      }
    }
    // Text parsed here was not seen by the request's own depth check.
    if (tooDeep({ value }) !== null) {
      ctx.addIssue({ code: "custom", message: `is nested deeper than ${MAX_DEPTH} levels`, input: v });
      return z.NEVER;
    }
    return value;
  }, schema);

/** An optional instant: ISO 8601 (any offset, "+0000" too) or epoch milliseconds, as text or a number. */
export const optionalInstant = z
  .union([z.string(), z.number()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === "") return undefined;
    const d = parseCursorDate(String(v));
    if (!d) {
      ctx.addIssue({ code: "custom", message: "must be an ISO 8601 datetime or epoch milliseconds" });
      return z.NEVER;
    }
    return d;
  });

/** A datetime cursor: ISO 8601, "YYYY-MM-DD HH:MM:SS" or epoch milliseconds. */
export const cursorDate = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === "") return undefined;
    const d = parseCursorDate(v);
    if (!d) {
      ctx.addIssue({
        code: "custom",
        message: "must be an ISO 8601 datetime, 'YYYY-MM-DD HH:MM:SS' or epoch milliseconds",
      });
      return z.NEVER;
    }
    return d;
  });

export interface Coordinate {
  latitude: number;
  longitude: number;
}

/** "<latitude>,<longitude>" into a coordinate, or the reason it is not one. */
export function parseCoordinate(text: string): Coordinate | string {
  const parts = text.split(",").map((p) => p.trim());
  if (parts.length !== 2) return "must be '<latitude>,<longitude>'";
  const [latText = "", lngText = ""] = parts;
  if (latText === "") return "latitude is missing";
  if (lngText === "") return "longitude is missing";
  const latitude = Number(latText);
  const longitude = Number(lngText);
  if (!Number.isFinite(latitude)) return "latitude is not a number";
  if (!Number.isFinite(longitude)) return "longitude is not a number";
  if (latitude < -90 || latitude > 90) return "latitude must be between -90 and 90";
  if (longitude < -180 || longitude > 180) return "longitude must be between -180 and 180";
  return { latitude, longitude };
}

/** A required "<latitude>,<longitude>" parameter. */
export const coordinatePair = z
  .string({ error: () => "is required, as '<latitude>,<longitude>'" })
  .transform((v, ctx): Coordinate => {
    const parsed = parseCoordinate(v);
    if (typeof parsed === "string") {
      ctx.addIssue({
        code: "custom",
        message: v.trim() === "" ? "is required, as '<latitude>,<longitude>'" : parsed,
      });
      return z.NEVER;
    }
    return parsed;
  });

/** "a,b,c" into distinct non-empty tokens. */
export const commaList = z
  .string()
  .optional()
  .transform((v) => {
    if (!v) return undefined;
    const items = [
      ...new Set(
        v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ];
    return items.length ? items : undefined;
  });

/** An optional "<latitude>,<longitude>" parameter; empty means absent. */
export const optionalCoordinatePair = z.preprocess(
  (v) => (v === "" || v === null ? undefined : v),
  coordinatePair.optional(),
);

/** "a,b" where each item must be one of `allowed` (case as written there); absent means all. */
export const choiceList = <T extends string>(allowed: readonly T[]) =>
  commaList.transform((items, ctx): T[] | undefined => {
    if (!items) return undefined;
    const unknown = items.filter((i) => !allowed.includes(i as T));
    if (unknown.length) {
      ctx.addIssue({
        code: "custom",
        message: `unknown value${unknown.length > 1 ? "s" : ""} ${unknown.map((u) => `'${u}'`).join(", ")}; use ${allowed.join(", ")}`,
      });
      return z.NEVER;
    }
    return items as T[];
  });

/** "US,ca": ISO 3166-1 alpha-2 country codes, upper-cased; absent means any country. */
export const countryCodes = commaList.transform((items, ctx) => {
  if (!items) return undefined;
  const bad = items.find((i) => !/^[A-Za-z]{2}$/.test(i));
  if (bad !== undefined) {
    ctx.addIssue({
      code: "custom",
      message: `'${bad}' is not a two-letter country code (ISO 3166-1 alpha-2)`,
    });
    return z.NEVER;
  }
  return [...new Set(items.map((i) => i.toUpperCase()))];
});

/**
 * A map view: "<south lat>,<west lng>|<north lat>,<east lng>" (the wire's "lat,lng" pairs);
 * west above east crosses the antimeridian.
 */
export interface ViewBounds {
  south: number;
  west: number;
  north: number;
  east: number;
}

/** `bounds`: only what meets this view (the dashboard's map asks for what it shows). */
export const viewBounds = z
  .string()
  .optional()
  .transform((v, ctx): ViewBounds | undefined => {
    if (v === undefined || v.trim() === "") return undefined;
    const corners = v.split("|").map((c) => parseCoordinate(c));
    const bad = corners.find((c) => typeof c === "string");
    if (corners.length !== 2 || bad !== undefined) {
      ctx.addIssue({
        code: "custom",
        message: `must be '<south lat>,<west lng>|<north lat>,<east lng>'${typeof bad === "string" ? `: ${bad}` : ""}`,
      });
      return z.NEVER;
    }
    const [sw, ne] = corners as Coordinate[];
    if (sw!.latitude > ne!.latitude) {
      ctx.addIssue({
        code: "custom",
        message: "the south-west corner's latitude is north of the north-east's",
      });
      return z.NEVER;
    }
    return { south: sw!.latitude, west: sw!.longitude, north: ne!.latitude, east: ne!.longitude };
  });

/** At most this many metadata[key]=value filters in one query. */
const METADATA_FILTERS = 10;

/**
 * A query schema that also takes Radar's `metadata[key]=value` filters, read into
 * `metadataFilter` ({key: value}); a bad one is a 400 naming the parameter as sent.
 */
export function withMetadataFilter<T extends z.ZodRawShape>(shape: T) {
  return z.preprocess(
    (input, ctx) => {
      if (!input || typeof input !== "object") return input;
      const rest: Record<string, unknown> = {};
      const filter: Record<string, string> = {};
      for (const [name, value] of Object.entries(input as Record<string, unknown>)) {
        const key = /^metadata\[(.*)\]$/.exec(name)?.[1];
        if (key === undefined) {
          rest[name] = value;
          continue;
        }
        if (!key || key.length > 128 || /["\\]/.test(key)) {
          ctx.addIssue({
            code: "custom",
            path: [name],
            message: "names a metadata key of 1 to 128 characters, without quotes or backslashes",
          });
        } else if (typeof value !== "string" || value.length > 2048) {
          ctx.addIssue({
            code: "custom",
            path: [name],
            message: "must be a value of at most 2048 characters",
          });
        } else filter[key] = value;
      }
      if (Object.keys(filter).length > METADATA_FILTERS) {
        ctx.addIssue({
          code: "custom",
          path: ["metadata"],
          message: `takes at most ${METADATA_FILTERS} keys`,
        });
      }
      return Object.keys(filter).length ? { ...rest, metadataFilter: filter } : rest;
    },
    z.object({ ...shape, metadataFilter: z.record(z.string(), z.string()).optional() }),
  );
}
