/** The one error type of the API. Its code decides the HTTP status; the message is for people. */

const STATUS = {
  invalid_input: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  rate_limited: 429,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof STATUS;

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
    /** for rate_limited: seconds until a retry may succeed (the Retry-After header) */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = "ApiError";
  }

  get status(): number {
    return STATUS[this.code];
  }
}

export const invalid = (param: string, message: string) =>
  new ApiError("invalid_input", `${param}: ${message}`, param);

export const notFound = (what: string) => new ApiError("not_found", `${what} not found`);
