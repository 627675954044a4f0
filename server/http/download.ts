/**
 * A file the browser saves (exports): its parts are written as they are made, so a large export
 * starts at once and is never held whole in memory.
 */
export function download(name: string, type: string, parts: AsyncIterable<string>): Response {
  const encoder = new TextEncoder();
  const iterator = parts[Symbol.asyncIterator]();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": `${type}; charset=utf-8`,
      "content-disposition": `attachment; filename="${name}"`,
      "cache-control": "no-store",
    },
  });
}

/** A date-stamped file name: "geofences-2026-11-23.csv". */
export const stamped = (what: string, extension: string) =>
  `${what}-${new Date().toISOString().slice(0, 10)}.${extension}`;
