/** A time in the reader's zone and language, or "never". */
export const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "never");

/** A cell of the admin tables. */
export const cell = "px-3 py-2 text-left";
