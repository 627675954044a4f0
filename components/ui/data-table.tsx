"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { ErrorNote } from "@/components/ui/error-note";
import { replaceQuery } from "@/lib/address";
import { call } from "@/lib/api-client";
import { Button } from "./button";
import { TextField } from "./field";

export interface Column<T> {
  label: string;
  /** the server's name for sorting by this column; none: not sortable */
  sort?: string;
  render: (row: T) => ReactNode;
}

const SIZE = 50;

/**
 * A dashboard table over one of the /api/…/table routes: the server searches, sorts and pages
 * (every row reachable in either order); the search, sort and page are in the address.
 */
export function DataTable<T>(props: {
  title: string;
  path: string;
  field: string;
  columns: Column<T>[];
  defaultSort: { sort: string; dir: "asc" | "desc" };
  rowKey: (row: T) => string;
  onRow?: (row: T) => void;
  searchLabel: string;
  empty: string;
  toolbar?: ReactNode;
}) {
  const params = useSearchParams();
  const [state, setState] = useState(() => ({
    search: params.get("q") ?? "",
    sort: params.get("sort") ?? props.defaultSort.sort,
    dir: (params.get("dir") === "asc"
      ? "asc"
      : params.get("dir") === "desc"
        ? "desc"
        : props.defaultSort.dir) as "asc" | "desc",
    page: Math.max(1, Number(params.get("page")) || 1),
  }));
  useEffect(() => {
    const isDefault = state.sort === props.defaultSort.sort && state.dir === props.defaultSort.dir;
    replaceQuery({
      q: state.search,
      sort: !isDefault && state.sort,
      dir: !isDefault && state.dir,
      page: state.page > 1 && String(state.page),
    });
  }, [state, props.defaultSort.sort, props.defaultSort.dir]);

  const query = new URLSearchParams({
    page: String(state.page),
    size: String(SIZE),
    sort: state.sort,
    dir: state.dir,
    ...(state.search.trim() && { search: state.search.trim() }),
  }).toString();
  const data = useQuery({
    queryKey: [props.path, query],
    placeholderData: keepPreviousData,
    queryFn: () =>
      call<Record<string, unknown> & { total: number }>("GET", `${props.path}?${query}`).then((r) => ({
        rows: r[props.field] as T[],
        total: r.total,
      })),
  });
  const total = data.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / SIZE));
  const rows = data.data?.rows ?? [];
  const first = (state.page - 1) * SIZE + 1;
  const top = useRef<HTMLElement>(null);
  const turn = (step: 1 | -1) => {
    setState((s) => ({ ...s, page: s.page + step }));
    top.current?.scrollIntoView({ block: "start" });
  };

  return (
    <section ref={top} className="space-y-3" aria-label={props.title}>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="mr-auto text-2xl font-semibold">{props.title}</h1>
        {props.toolbar}
      </div>
      <TextField
        label={props.searchLabel}
        value={state.search}
        onChange={(e) => setState((s) => ({ ...s, search: e.target.value, page: 1 }))}
        className="w-full max-w-sm"
      />
      {data.isLoading ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : data.error ? (
        <ErrorNote error={data.error} />
      ) : rows.length === 0 ? (
        <p className="text-sm text-slate-500">{state.search.trim() ? "Nothing matches." : props.empty}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full rounded border border-slate-200 bg-white text-sm">
            <thead className="bg-slate-50 text-slate-600">
              <tr>
                {props.columns.map((c) => {
                  const sorted = c.sort !== undefined && c.sort === state.sort;
                  return (
                    <th
                      key={c.label}
                      className="px-3 py-2 text-left"
                      aria-sort={sorted ? (state.dir === "asc" ? "ascending" : "descending") : undefined}
                    >
                      {c.sort ? (
                        <button
                          type="button"
                          onClick={() =>
                            setState((s) => ({
                              ...s,
                              sort: c.sort!,
                              dir: s.sort === c.sort && s.dir === "asc" ? "desc" : "asc",
                              page: 1,
                            }))
                          }
                          className="font-medium hover:underline"
                        >
                          {c.label}
                          {sorted ? (state.dir === "asc" ? " ▲" : " ▼") : ""}
                        </button>
                      ) : (
                        <span className="font-medium">{c.label}</span>
                      )}
                    </th>
                  );
                })}
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
                      {c.render(r)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Button size="sm" disabled={state.page <= 1} onClick={() => turn(-1)}>
          Previous
        </Button>
        <Button size="sm" disabled={state.page >= pages} onClick={() => turn(1)}>
          Next
        </Button>
        <span className="text-slate-600" role="status" aria-label="Rows shown">
          {total === 0
            ? "No rows"
            : `${first.toLocaleString("en")}–${Math.min(first + SIZE - 1, total).toLocaleString("en")} of ${total.toLocaleString("en")} · page ${state.page} of ${pages}`}
        </span>
      </div>
    </section>
  );
}
