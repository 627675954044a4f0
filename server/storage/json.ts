/** A decoded JSON column: the domain says what it expects where it reads one. */
export type Json = unknown;
