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
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof STATUS;

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
    /** for rate_limited: seconds until a retry may succeed (the Retry-After header) */
    readonly retryAfter?: number,
    /** headers the answer carries (a rate limit's RateLimit-*) */
    readonly headers?: Readonly<Record<string, string>>,
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

/**
 * The databases' codes for "not done because of a concurrent transaction; try again":
 * PostgreSQL's deadlock and serialization failure, SQLite's busy database (another writer held
 * it past the busy timeout).
 */
const RETRY_CODES = new Set(["40P01", "40001", "SQLITE_BUSY", "SQLITE_BUSY_SNAPSHOT"]);

/**
 * The database's own code for an error, however it arrives: a driver adapter's cause
 * (`originalCode`, directly or under a Prisma known request error's `meta`), else the error's own
 * `code` (the driver's, or Prisma's when it has no cause).
 */
export function databaseCode(e: unknown): string | undefined {
  const err = e as {
    code?: unknown;
    cause?: { originalCode?: unknown };
    meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } };
  } | null;
  if (!err || typeof err !== "object") return undefined;
  const code = err.meta?.driverAdapterError?.cause?.originalCode ?? err.cause?.originalCode ?? err.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * Whether a database error says the work was not done because of a concurrent transaction and
 * may simply be tried again: a deadlock PostgreSQL ended by choosing it, a serialization failure
 * (also Prisma's P2034), or SQLite busy past its timeout.
 */
export function isRetryableConflict(e: unknown): boolean {
  const code = databaseCode(e);
  return code !== undefined && (RETRY_CODES.has(code) || code === "P2034");
}

/** The answer to a request whose transaction the database rolled back for a concurrent one. */
export const retryLater = () =>
  new ApiError(
    "unavailable",
    "the database could not do this request's work beside a concurrent one; retry it",
    undefined,
    1,
  );
