import { z } from "zod";
import type { DeviceLogLine } from "../storage/logs";
import { storage } from "../storage";
import { LOG_LEVELS, instant } from "./config";
import { env } from "../config/env";
import { ApiError } from "../errors";

/**
 * What Radar's SDKs log (POST /v1/logs; they send their buffered lines in batches), kept per
 * device for support staff ("tracking stopped after a few days": the user panel shows why),
 * within bounds: the newest LOGS_PER_DEVICE lines of a device, none older than LOG_DAYS days (the
 * setting, 7 by default; server/tracking/retention.ts prunes the lines of devices that went quiet).
 */

export const LOGS_PER_DEVICE = 1000;
/** Lines in one request (the SDKs flush their buffer, a few hundred at most). */
const LINES_PER_REQUEST = 500;

/** Android sends the level as its enum's name (DEBUG), iOS in lower case or as its number. */
const level = z.preprocess(
  (v) => (typeof v === "number" ? LOG_LEVELS[v] : typeof v === "string" ? v.toLowerCase() : v),
  z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` }),
);

const line = z.object({
  level,
  message: z.string({ error: "is required" }).max(4000, "must be at most 4000 characters"),
  type: z.string().max(64).optional(),
  createdAt: instant.optional(),
});

export const logsSchema = z.object({
  deviceId: z.string({ error: "is required" }).min(1, "is required").max(256),
  installId: z.string().max(256).optional(),
  id: z.string().max(64).optional(),
  sessionId: z.union([z.string().max(64), z.number()]).optional(),
  logs: z
    .array(line, { error: "must be a list of log lines" })
    .min(1, "must hold at least one line")
    .max(LINES_PER_REQUEST, `must hold at most ${LINES_PER_REQUEST} lines (send the rest next)`),
});

export type LogsInput = z.output<typeof logsSchema>;

/**
 * Keeps a batch of a device's lines, dropping what falls outside the bounds: only of a device
 * tracked in this environment (a publishable key is public: lines of made-up devices would be
 * stored without end otherwise).
 */
export async function appendLogs(live: boolean, input: LogsInput, now = new Date()): Promise<void> {
  const tracked = await storage().users.matching(live, input.deviceId);
  if (!tracked.some((u) => u.deviceId === input.deviceId)) {
    throw new ApiError(
      "not_found",
      `no device with deviceId ${input.deviceId} was tracked in this environment: logs are kept for tracked devices`,
      "deviceId",
    );
  }
  const lines: DeviceLogLine[] = input.logs.map((l) => ({
    level: l.level,
    message: l.message,
    type: l.type ?? null,
    createdAt: l.createdAt === undefined ? now : new Date(l.createdAt),
  }));
  await storage().logs.append(
    { live, deviceId: input.deviceId, installId: input.installId ?? null },
    lines,
    now,
    { keep: LOGS_PER_DEVICE, before: new Date(now.getTime() - env().LOG_DAYS * 86_400_000) },
  );
}

/** A device's newest lines, for the user panel. */
export async function deviceLogs(live: boolean, deviceId: string, take = 200) {
  const rows = await storage().logs.list(live, deviceId, take);
  return rows.map((r) => ({
    level: r.level,
    message: r.message,
    ...(r.type && { type: r.type }),
    createdAt: r.createdAt.toISOString(),
    receivedAt: r.receivedAt.toISOString(),
  }));
}
