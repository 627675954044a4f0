import { type ReactNode, useId } from "react";

/** One of the overview's titled cards; `aside` sits on the title's line, to its right. */
export function Panel(props: { title: string; aside?: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="space-y-2 rounded border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={id} className="font-medium">
          {props.title}
        </h2>
        {props.aside}
      </div>
      {props.children}
    </section>
  );
}
