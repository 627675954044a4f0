import { z } from "zod";
import {
  choiceList,
  coordinatePair,
  countryCodes,
  intIn,
  optionalCoordinatePair,
  requiredString,
} from "../http/fields";
import { LAYERS, MAX_QUERY_LENGTH } from "./forward";

/** Results per answer of forward geocoding and autocomplete (the spec's autocomplete limit). */
export const TEXT_LIMIT = { min: 1, max: 100, default: 10 };

/** GET /v1/geocode/forward */
export const forwardQuery = z.object({
  query: requiredString(MAX_QUERY_LENGTH),
  layers: choiceList(LAYERS),
  country: countryCodes,
  near: optionalCoordinatePair,
  limit: intIn(TEXT_LIMIT.min, TEXT_LIMIT.max, TEXT_LIMIT.default),
});

/**
 * GET /v1/search/autocomplete: the spec lists `near` as required, but radar-sdk-js calls it
 * without one (Radar then biases by the caller's IP location), so it may be left out.
 */
export const autocompleteQuery = z.object({
  query: requiredString(MAX_QUERY_LENGTH),
  near: coordinatePair.optional(),
  layers: choiceList(LAYERS),
  countryCode: countryCodes,
  limit: intIn(TEXT_LIMIT.min, TEXT_LIMIT.max, TEXT_LIMIT.default),
});
