import { z } from "zod";
import { type Address, addressLabel } from "../text/address";
import { nameKey } from "../text/normalize";
import { searchText } from "./forward";

/**
 * GET /v1/addresses/validate (the SDKs' validateAddress): is this structured address one of the
 * imported addresses? The address is looked up with forward geocoding in its country (the
 * imported address data, any country), then compared field by field with what was sent:
 *
 * - `verified`: an imported address with that number on that street, in that city, postal code
 *   and state (those sent);
 * - `partially verified`: the street and number exist but a city, postal code or state sent
 *   differs (the answer carries the imported ones, and `result.corrections` says which), or the
 *   street exists and the number is only interpolated between its neighbours;
 * - `ambiguous`: that number on that street exists in several places and nothing sent tells
 *   which;
 * - `unverified`: no such street and number.
 */

/** Android sends the literal text "null" for a field it has none of. */
const field = (max: number) =>
  z.preprocess(
    (v) => (v === "" || v === "null" || v === null ? undefined : v),
    z.string().max(max, `must be at most ${max} characters`).optional(),
  );

export const validateQuery = z
  .object({
    number: field(32),
    street: field(256),
    unit: field(64),
    city: field(256),
    stateCode: field(16),
    postalCode: field(32),
    countryCode: z.preprocess(
      (v) => (typeof v === "string" ? v.toUpperCase() : v),
      z
        .string({ error: "is required (ISO 3166-1 alpha-2)" })
        .regex(/^[A-Z]{2}$/, "must be a two-letter country code"),
    ),
    addressLabel: field(512),
  })
  .superRefine((q, ctx) => {
    if (!q.addressLabel && !(q.number && q.street)) {
      ctx.addIssue({
        code: "custom",
        path: ["street"],
        message: "number and street (or addressLabel) are required",
      });
    }
  });

export type ValidateQuery = z.output<typeof validateQuery>;
export type VerificationStatus = "verified" | "partially verified" | "ambiguous" | "unverified";

const same = (a: string | undefined, b: string | undefined) =>
  a !== undefined && b !== undefined && nameKey(a) === nameKey(b);

/** The fields sent that the imported address has otherwise: {field: {given, found}}. */
function corrections(q: ValidateQuery, a: Address) {
  const out: Record<string, { given: string; found: string }> = {};
  for (const f of ["city", "postalCode", "stateCode"] as const) {
    const given = q[f];
    const found = a[f];
    if (given !== undefined && found !== undefined && !same(given, found)) out[f] = { given, found };
  }
  return out;
}

export function validateAddress(q: ValidateQuery): {
  address: Record<string, unknown>;
  result: {
    verificationStatus: VerificationStatus;
    corrections?: Record<string, { given: string; found: string }>;
  };
} {
  const line = q.addressLabel ?? `${q.number} ${q.street}`;
  const text = [line, q.city, q.stateCode, q.postalCode].filter(Boolean).join(", ");
  const found = searchText(text, { limit: 10, layers: ["address"], countries: [q.countryCode] });
  const label = (a: Address) => a.addressLabel ?? `${a.number ?? ""} ${a.street ?? ""}`;
  const onStreet = found.filter((a) =>
    q.addressLabel ? same(label(a), q.addressLabel) : same(a.number, q.number) && same(a.street, q.street),
  );
  const sent = { ...(q.unit && { unit: q.unit }) };
  if (!onStreet.length) {
    const echo = {
      ...(q.number && { number: q.number }),
      ...(q.street && { street: q.street }),
      // Every address object has an addressLabel (Radar's clients read it): the one sent, or the
      // number and street in the country's order.
      addressLabel: q.addressLabel ?? addressLabel(q.number!, q.street, undefined, q.countryCode),
      ...(q.city && { city: q.city }),
      ...(q.stateCode && { stateCode: q.stateCode }),
      ...(q.postalCode && { postalCode: q.postalCode }),
      countryCode: q.countryCode,
      ...sent,
    };
    return { address: echo, result: { verificationStatus: "unverified" } };
  }
  // The candidates that agree with everything sent; else the nearest to it.
  const agreeing = onStreet.filter((a) => Object.keys(corrections(q, a)).length === 0);
  const places = new Set(onStreet.map((a) => `${a.city}|${a.postalCode}`));
  if (!agreeing.length && places.size > 1) {
    return { address: { ...onStreet[0]!, ...sent }, result: { verificationStatus: "ambiguous" } };
  }
  if (agreeing.length > 1 && new Set(agreeing.map((a) => `${a.city}|${a.postalCode}`)).size > 1) {
    return { address: { ...agreeing[0]!, ...sent }, result: { verificationStatus: "ambiguous" } };
  }
  const best = agreeing[0] ?? onStreet[0]!;
  const diff = corrections(q, best);
  const exact = best.confidence === "exact";
  const status: VerificationStatus =
    exact && Object.keys(diff).length === 0 ? "verified" : "partially verified";
  return {
    address: { ...best, ...sent },
    result: { verificationStatus: status, ...(Object.keys(diff).length > 0 && { corrections: diff }) },
  };
}
