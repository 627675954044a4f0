import type { ReactNode } from "react";

/**
 * A side panel of a page: a named region with a title and a close button. Below `lg` it sits
 * under the page's main part; from `lg` on, beside it.
 */
export function Panel({
  label,
  title,
  onClose,
  children,
}: {
  label: string;
  title: ReactNode;
  onClose?: () => void;
  children: ReactNode;
}) {
  return (
    <aside
      aria-label={label}
      className="max-h-[50%] w-full shrink-0 space-y-3 overflow-y-auto border-t border-slate-200 bg-white p-4 lg:max-h-none lg:w-96 lg:border-t-0 lg:border-l"
    >
      <div className="flex justify-between gap-2">
        <h2 className="text-lg font-semibold">{title}</h2>
        {onClose && (
          <button type="button" onClick={onClose} className="text-sm underline">
            Close
          </button>
        )}
      </div>
      {children}
    </aside>
  );
}
