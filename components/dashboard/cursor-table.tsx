"use client";

import { ErrorNote } from "@/components/dashboard/error-note";
import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useMemo, useState } from "react";
import { call } from "@/lib/api-client";

export interface Column<T> {
  label: string;
  value: (row: T) => string | number;
  render?: (row: T) => ReactNode;
}

/**
 * A page of a /v1 list, paged with the API's own time cursor (`createdBefore`, `updatedBefore`):
 * "Older" follows the last row's time, "Newest" starts over. Headers sort the page shown.
 */
export function CursorTable<T>(props: {
  title: string;
  path: string;
  field: string;
  cursor: { param: string; of: (row: T) => string };
  columns: Column<T>[];
  rowKey: (row: T) => string;
  onRow?: (row: T) => void;
  empty: string;
}) {
  const [cursors, setCursors] = useState<string[]>([]);
  const [sort, setSort] = useState<{ col: number; dir: 1 | -1 } | null>(null);
  const before = cursors.at(-1);
  const page = useQuery({
    queryKey: [props.path, before],
    queryFn: () =>
      call<Record<string, unknown> & { meta: { hasMore?: boolean } }>(
        "GET",
        `${props.path}?limit=50${before ? `&${props.cursor.param}=${encodeURIComponent(before)}` : ""}`,
      ).then((r) => ({ rows: r[props.field] as T[], hasMore: !!r.meta.hasMore })),
  });
  const rows = useMemo(() => {
    const list = [...(page.data?.rows ?? [])];
    if (sort) {
      const col = props.columns[sort.col]!;
      list.sort((a, b) =>
        col.value(a) < col.value(b) ? -sort.dir : col.value(a) > col.value(b) ? sort.dir : 0,
      );
    }
    return list;
  }, [page.data, sort, props.columns]);
  const last = page.data?.rows.at(-1);
  return (
    <section className="space-y-3" aria-label={props.title}>
      <h1 className="text-2xl font-semibold">{props.title}</h1>
      {page.isLoading ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : page.error ? (
        <ErrorNote error={page.error} />
      ) : rows.length === 0 ? (
        <p className="text-sm text-slate-500">{props.empty}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full rounded border border-slate-200 bg-white text-sm">
            <thead className="bg-slate-50 text-slate-600">
              <tr>
                {props.columns.map((c, i) => (
                  <th
                    key={c.label}
                    className="px-3 py-2 text-left"
                    aria-sort={sort?.col === i ? (sort.dir === 1 ? "ascending" : "descending") : "none"}
                  >
                    <button
                      type="button"
                      onClick={() => setSort((s) => ({ col: i, dir: s?.col === i && s.dir === 1 ? -1 : 1 }))}
                      className="font-medium hover:underline"
                    >
                      {c.label}
                      {sort?.col === i ? (sort.dir === 1 ? " ▲" : " ▼") : ""}
                    </button>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr
                  key={props.rowKey(r)}
                  onClick={props.onRow ? () => props.onRow!(r) : undefined}
                  className={`border-t border-slate-100 ${props.onRow ? "cursor-pointer hover:bg-slate-50" : ""}`}
                >
                  {props.columns.map((c) => (
                    <td key={c.label} className="px-3 py-2">
                      {c.render ? c.render(r) : c.value(r)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="flex gap-2 text-sm">
        <button
          type="button"
          disabled={cursors.length === 0}
          onClick={() => setCursors([])}
          className="rounded border border-slate-300 px-3 py-1 disabled:opacity-40"
        >
          Newest
        </button>
        <button
          type="button"
          disabled={cursors.length === 0}
          onClick={() => setCursors((c) => c.slice(0, -1))}
          className="rounded border border-slate-300 px-3 py-1 disabled:opacity-40"
        >
          Newer
        </button>
        <button
          type="button"
          disabled={!page.data?.hasMore || !last}
          onClick={() => last && setCursors((c) => [...c, props.cursor.of(last)])}
          className="rounded border border-slate-300 px-3 py-1 disabled:opacity-40"
        >
          Older
        </button>
      </div>
    </section>
  );
}
