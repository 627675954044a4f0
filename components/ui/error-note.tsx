import { errorText } from "@/lib/api-client";

/** An error in words (the API's message), announced to screen readers; nothing without one. */
export function ErrorNote({
  error,
  boxed,
  className = "",
}: {
  error: unknown;
  boxed?: boolean;
  className?: string;
}) {
  if (!error) return null;
  return (
    <p
      role="alert"
      className={`text-sm text-red-700 ${boxed ? "rounded bg-red-50 px-3 py-2" : ""} ${className}`}
    >
      {errorText(error)}
    </p>
  );
}
