import type { ButtonHTMLAttributes } from "react";

const TONES = {
  accept: "bg-emerald-700 text-white hover:bg-emerald-800",
  reject: "bg-red-700 text-white hover:bg-red-800",
  primary: "bg-blue-700 text-white hover:bg-blue-800",
  plain: "border border-slate-300 bg-white hover:bg-slate-50",
} as const;
const SIZES = { sm: "px-2 py-1", md: "px-4 py-2" } as const;

/** The dashboard's button: a tone says what it does (accept, reject, primary, plain). */
export function Button({
  tone = "plain",
  size = "md",
  className = "",
  type = "button",
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { tone?: keyof typeof TONES; size?: keyof typeof SIZES }) {
  return (
    <button
      type={type}
      className={`rounded text-sm disabled:opacity-50 ${TONES[tone]} ${SIZES[size]} ${className}`}
      {...rest}
    />
  );
}
