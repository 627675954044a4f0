"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { ReactNode } from "react";
import { ErrorNote } from "@/components/ui/error-note";
import { call } from "@/lib/api-client";
import type { OverviewView } from "@/lib/types";
import { EventsChart } from "./events-chart";
import { count, duration } from "./format";
import { Panel } from "./panel";

/** How often the page asks again (each figure is one cheap query; docs/performance.md). */
const REFRESH_MS = 15_000;

interface Links {
  users: boolean;
  events: boolean;
  trips: boolean;
  webhooks: boolean;
  settings: boolean;
}

function Figure(props: {
  label: string;
  href?: string;
  alert?: boolean;
  children: ReactNode;
  note?: ReactNode;
}) {
  const body = (
    <>
      <h2 className="text-sm text-slate-600">{props.label}</h2>
      <div
        data-testid="figure-value"
        className={`text-2xl font-semibold tabular-nums ${props.alert ? "text-red-700" : ""}`}
      >
        {props.children}
      </div>
      {props.note && <p className="text-sm text-slate-600">{props.note}</p>}
    </>
  );
  const box = "block space-y-1 rounded border border-slate-200 bg-white p-4";
  return (
    <section aria-label={props.label}>
      {props.href ? (
        <Link href={props.href} className={`${box} hover:border-slate-400`}>
          {body}
        </Link>
      ) : (
        <div className={box}>{body}</div>
      )}
    </section>
  );
}

function Row({ name, children }: { name: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-1">
      <dt className="text-slate-600">{name}</dt>
      <dd className="text-right">{children}</dd>
    </div>
  );
}

function Webhooks({ webhooks }: { webhooks: OverviewView["webhooks"] }) {
  if (!webhooks.list.length) return null;
  return (
    <Panel title="Webhooks">
      <table className="w-full text-sm">
        <thead className="text-left text-slate-500">
          <tr>
            <th className="font-normal">URL</th>
            <th className="text-right font-normal">Waiting</th>
            <th className="text-right font-normal">Retrying</th>
            <th className="text-right font-normal">Given up ({webhooks.failedWindowHours} h)</th>
            <th className="text-right font-normal">Lag</th>
          </tr>
        </thead>
        <tbody>
          {webhooks.list.map((w) => (
            <tr key={w.id} className={w.retrying || w.failed ? "text-red-700" : ""}>
              <td className="max-w-64 truncate py-0.5" title={w.url}>
                {w.url}
                {!w.enabled && <span className="ml-2 text-slate-500">(disabled)</span>}
              </td>
              <td className="text-right tabular-nums">{count(w.pending)}</td>
              <td className="text-right tabular-nums">{count(w.retrying)}</td>
              <td className="text-right tabular-nums">{count(w.failed)}</td>
              <td className="text-right tabular-nums">{w.pending ? duration(w.lagSeconds) : "none"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Panel>
  );
}

function Imports({ imports }: { imports: OverviewView["imports"] }) {
  return (
    <Panel title="Recent imports">
      {imports.length === 0 ? (
        <p className="text-sm text-slate-500">
          None yet: <code>npm run import -- FILE</code> adds OpenStreetMap extracts and GTFS feeds.
        </p>
      ) : (
        <ul className="space-y-1 text-sm">
          {imports.map((i) => (
            <li key={i.name} className="flex justify-between gap-4">
              <span>
                {i.name}{" "}
                <span className="text-slate-500">
                  ({i.kind === "gtfs" ? "transit feed" : "OpenStreetMap"})
                </span>
              </span>
              <span className="text-slate-600">
                {i.importedAt ? new Date(i.importedAt).toLocaleString() : ""}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

function System({ system }: { system: OverviewView["system"] }) {
  const { migrations, bundles, requests } = system;
  return (
    <Panel title="System">
      <dl className="divide-y divide-slate-100 text-sm">
        <Row name="Version">{system.version}</Row>
        <Row name="Database">{system.engine === "postgresql" ? "PostgreSQL" : "SQLite"}</Row>
        <Row name="Migrations">
          {migrations.pending.length ? (
            <span className="text-red-700">{migrations.pending.length} not applied</span>
          ) : (
            `${migrations.applied} applied`
          )}
        </Row>
        <Row name="Bundles">
          {bundles.failed.length ? (
            <span
              className="text-red-700"
              title={bundles.failed.map((f) => `${f.name}: ${f.reason}`).join("\n")}
            >
              {bundles.open} open, {bundles.failed.length} cannot be opened
            </span>
          ) : (
            `${bundles.open} open`
          )}
        </Row>
        <Row name="App processes">{system.processes}</Row>
        <Row name="API requests (this process)">
          {requests
            ? `${requests.perSecond.toFixed(1)}/s over ${duration(requests.seconds)}`
            : "metrics are off"}
        </Row>
        <Row name="API p99 (this process)">
          {requests?.p99Ms != null
            ? `${requests.p99Ms < 10 ? requests.p99Ms.toFixed(1) : Math.round(requests.p99Ms)} ms`
            : "no requests"}
        </Row>
      </dl>
    </Panel>
  );
}

/**
 * The overview: what is happening in the session's world (live or test) and how the service is,
 * asked again every 15 seconds.
 */
export function OverviewBoard({ links }: { links: Links }) {
  const data = useQuery({
    queryKey: ["overview"],
    queryFn: () => call<OverviewView>("GET", "/api/overview"),
    refetchInterval: REFRESH_MS,
  });
  const o = data.data;
  return (
    <div className="mx-auto max-w-6xl space-y-4">
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-xl font-semibold">Overview</h1>
        {o && (
          <p className="text-sm text-slate-600">
            {o.world === "live" ? "Live data" : "Test data"} · updated{" "}
            <time dateTime={o.at}>{new Date(o.at).toLocaleTimeString()}</time> · refreshes every{" "}
            {REFRESH_MS / 1000} s
          </p>
        )}
      </header>
      <ErrorNote error={data.error} boxed />
      {!o ? (
        !data.error && <p className="text-sm text-slate-500">Loading…</p>
      ) : (
        <>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <Figure
              label="Users tracked"
              href={links.users ? "/users" : undefined}
              note={`${count(o.users.lastDay)} in the last 24 hours`}
            >
              {count(o.users.lastHour)}{" "}
              <span className="text-base font-normal text-slate-600">last hour</span>
            </Figure>
            <Figure
              label="Review queue"
              href={links.events ? "/events" : undefined}
              note={
                o.reviewQueue.ageSeconds === null
                  ? "Nothing waits for review"
                  : `Oldest waiting ${duration(o.reviewQueue.ageSeconds)}`
              }
            >
              {count(o.reviewQueue.count)}
              {o.reviewQueue.more ? "+" : ""}{" "}
              <span className="text-base font-normal text-slate-600">unverified</span>
            </Figure>
            <Figure
              label="Trips"
              href={links.trips ? "/trips" : undefined}
              alert={o.trips.delayed > 0}
              note={o.trips.delayed ? `${count(o.trips.delayed)} running late` : "None running late"}
            >
              {count(o.trips.active)} <span className="text-base font-normal text-slate-600">active</span>
            </Figure>
            <Figure
              label="Webhooks"
              href={links.webhooks ? "/webhooks" : undefined}
              alert={o.webhooks.failing > 0}
              note={`${o.webhooks.enabled} enabled`}
            >
              {o.webhooks.failing} <span className="text-base font-normal text-slate-600">failing</span>
            </Figure>
          </div>
          <EventsChart events={o.events} />
          <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
            <div className="space-y-4">
              <Webhooks webhooks={o.webhooks} />
              <Imports imports={o.imports} />
            </div>
            <System system={o.system} />
          </div>
        </>
      )}
    </div>
  );
}
