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
type TableState = { search: string; sort: string; dir: "asc" | "desc"; page: number };

export function DataTable<T>(props: {
  title: string;
  path: string;
  field: string;
  columns: Column<T>[];
  defaultSort: { sort: string; dir: "asc" | "desc" };
  rowKey: (row: T) => string;
  /** opens a row (a click, or Enter or Space on the focused row) */
  onRow?: (row: T) => void;
  /** the key of the open row: marked, so that it is found again in the table */
  picked?: string;
  searchLabel: string;
  empty: string;
  toolbar?: ReactNode;
}) {
  const [state, setState] = useTableAddress(props.defaultSort);
  const data = useTablePage<T>(props.path, props.field, state);
  const total = data.data?.total ?? 0;
  const rows = data.data?.rows ?? [];
  const top = useRef<HTMLElement>(null);
  const turn = (step: 1 | -1) => {
    setState((s) => ({ ...s, page: s.page + step }));
    top.current?.scrollIntoView({ block: "start" });
  };
  const sortBy = (sort: string) =>
    setState((s) => ({ ...s, sort, dir: s.sort === sort && s.dir === "asc" ? "desc" : "asc", page: 1 }));

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
                {props.columns.map((c) => (
                  <HeaderCell key={c.label} column={c} state={state} onSort={sortBy} />
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <Row
                  key={props.rowKey(r)}
                  picked={props.picked === props.rowKey(r)}
                  onOpen={props.onRow && (() => props.onRow!(r))}
                >
                  {props.columns.map((c) => (
                    <td key={c.label} className="px-3 py-2">
                      {c.render(r)}
                    </td>
                  ))}
                </Row>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={state.page} total={total} turn={turn} />
    </section>
  );
}

/** A row; one that opens is reached with Tab and opened with Enter or Space as well as a click. */
function Row({ picked, onOpen, children }: { picked: boolean; onOpen?: () => void; children: ReactNode }) {
  if (!onOpen) return <tr className="border-t border-slate-100">{children}</tr>;
  return (
    <tr
      tabIndex={0}
      aria-selected={picked}
      onClick={onOpen}
      onKeyDown={(e) => {
        if (e.target !== e.currentTarget || (e.key !== "Enter" && e.key !== " ")) return;
        e.preventDefault();
        onOpen();
      }}
      className={`cursor-pointer border-t border-slate-100 outline-offset-[-2px] focus-visible:outline-2 focus-visible:outline-blue-600 ${
        picked ? "bg-blue-50 hover:bg-blue-100" : "hover:bg-slate-50"
      }`}
    >
      {children}
    </tr>
  );
}

/** The search, sort and page, kept in the address (the default sort left out of it). */
function useTableAddress(defaultSort: { sort: string; dir: "asc" | "desc" }) {
  const params = useSearchParams();
  const [state, setState] = useState<TableState>(() => ({
    search: params.get("q") ?? "",
    sort: params.get("sort") ?? defaultSort.sort,
    dir: params.get("dir") === "asc" ? "asc" : params.get("dir") === "desc" ? "desc" : defaultSort.dir,
    page: Math.max(1, Number(params.get("page")) || 1),
  }));
  useEffect(() => {
    const isDefault = state.sort === defaultSort.sort && state.dir === defaultSort.dir;
    replaceQuery({
      q: state.search,
      sort: !isDefault && state.sort,
      dir: !isDefault && state.dir,
      page: state.page > 1 && String(state.page),
    });
  }, [state, defaultSort.sort, defaultSort.dir]);
  return [state, setState] as const;
}

/** One page of rows as the server searches, sorts and pages them, and how many there are. */
function useTablePage<T>(path: string, field: string, state: TableState) {
  const query = new URLSearchParams({
    page: String(state.page),
    size: String(SIZE),
    sort: state.sort,
    dir: state.dir,
    ...(state.search.trim() && { search: state.search.trim() }),
  }).toString();
  return useQuery({
    queryKey: [path, query],
    placeholderData: keepPreviousData,
    queryFn: () =>
      call<Record<string, unknown> & { total: number }>("GET", `${path}?${query}`).then((r) => ({
        rows: r[field] as T[],
        total: r.total,
      })),
  });
}

/** A column's heading: a button that sorts by it (again: the other way), when it sorts. */
function HeaderCell<T>({
  column: c,
  state,
  onSort,
}: {
  column: Column<T>;
  state: TableState;
  onSort: (sort: string) => void;
}) {
  const sorted = c.sort !== undefined && c.sort === state.sort;
  return (
    <th
      className="px-3 py-2 text-left"
      aria-sort={sorted ? (state.dir === "asc" ? "ascending" : "descending") : undefined}
    >
      {c.sort ? (
        <button type="button" onClick={() => onSort(c.sort!)} className="font-medium hover:underline">
          {c.label}
          {sorted ? (state.dir === "asc" ? " ▲" : " ▼") : ""}
        </button>
      ) : (
        <span className="font-medium">{c.label}</span>
      )}
    </th>
  );
}

/** Previous and next, and which rows of how many are shown. */
function Pager({ page, total, turn }: { page: number; total: number; turn: (step: 1 | -1) => void }) {
  const pages = Math.max(1, Math.ceil(total / SIZE));
  const first = (page - 1) * SIZE + 1;
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <Button size="sm" disabled={page <= 1} onClick={() => turn(-1)}>
        Previous
      </Button>
      <Button size="sm" disabled={page >= pages} onClick={() => turn(1)}>
        Next
      </Button>
      <span className="text-slate-600" role="status" aria-label="Rows shown">
        {total === 0
          ? "No rows"
          : `${first.toLocaleString("en")}–${Math.min(first + SIZE - 1, total).toLocaleString("en")} of ${total.toLocaleString("en")} · page ${page} of ${pages}`}
      </span>
    </div>
  );
}
