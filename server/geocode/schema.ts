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

/** GET /v1/search/autocomplete: `near` is required (the spec). */
export const autocompleteQuery = z.object({
  query: requiredString(MAX_QUERY_LENGTH),
  near: coordinatePair,
  layers: choiceList(LAYERS),
  countryCode: countryCodes,
  limit: intIn(TEXT_LIMIT.min, TEXT_LIMIT.max, TEXT_LIMIT.default),
});
