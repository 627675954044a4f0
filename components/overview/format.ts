/** A count with thousands separators. */
export const count = (n: number) => n.toLocaleString("en-US");

/** A duration in words, to the minute past an hour ("45 s", "12 min", "3 h 5 min", "2 d 4 h"). */
export function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/** The hour an ISO instant starts, as this browser's clock reads it ("14:00"). */
export const hourOf = (iso: string) =>
  new Date(iso).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });
