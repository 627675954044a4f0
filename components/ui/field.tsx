import type { InputHTMLAttributes, SelectHTMLAttributes } from "react";

const FIELD = "rounded border border-slate-300 bg-white px-2 py-1.5 text-sm";

/** A labelled drop-down: `label` is its accessible name (the dashboard's filters show none). */
export function Select({
  label,
  className = "",
  ...rest
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string }) {
  return <select aria-label={label} className={`${FIELD} ${className}`} {...rest} />;
}

/** A labelled text field (search by default), styled like the other fields. */
export function TextField({
  label,
  className = "",
  type = "search",
  ...rest
}: InputHTMLAttributes<HTMLInputElement> & { label: string }) {
  return (
    <input type={type} aria-label={label} placeholder={label} className={`${FIELD} ${className}`} {...rest} />
  );
}
