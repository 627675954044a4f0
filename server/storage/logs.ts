/* SDK log lines (POST /v1/logs). */

/** A log line a device's SDK sent (POST /v1/logs). */
export interface DeviceLogLine {
  level: string;
  message: string;
  type: string | null;
  createdAt: Date;
}

export interface DeviceLogStore {
  /**
   * Keeps a device's lines, in one change, and drops its oldest beyond `keep` and every line
   * received before `before` (of any device).
   */
  append(
    device: { live: boolean; deviceId: string; installId: string | null },
    lines: readonly DeviceLogLine[],
    receivedAt: Date,
    bounds: { keep: number; before: Date },
  ): Promise<void>;
  /** A device's lines, newest first, at most `take`. */
  list(live: boolean, deviceId: string, take: number): Promise<(DeviceLogLine & { receivedAt: Date })[]>;
}
