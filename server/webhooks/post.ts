import { isIP } from "node:net";
import { Agent, Client, type Dispatcher, errors } from "undici";
import { checkedLookup, refusedAddress } from "./address-guard";

/**
 * One POST to a receiver, as the sender makes it: kept-alive connections (a connection per
 * receiver is reused, not opened per request), no redirect followed, at most `maxBytes` of the
 * answer read, and every address a new connection goes to checked as it is resolved (so a name
 * cannot be checked against one address and then connect to another).
 *
 * undici's Agent rather than Node's http client or fetch: a POST costs the least CPU through
 * undici's request (docs/performance.md compares the three), and the sender makes one or more
 * for every tracked update that has events.
 */

const agent = new Agent({ connections: 32, connect: { lookup: checkedLookup } });

export interface Answer {
  status: number;
  /** the first `maxBytes` of the body */
  text: string;
}

/** An error of the attempt itself (no answer): its code or message is what the dashboard shows. */
export class PostError extends Error {}

/**
 * A connection that ends under a request (reset, or closed before any answer) is most often a
 * kept-alive one the receiver closed as the request went out (its idle timeout): the request is
 * sent once more at once, on a new connection of its own (the pool's other idle ones may have
 * been closed too), rather than counted a refusal and retried after 15–30 s. The receiver may
 * have had it: the same webhook-id lets it tell.
 */
const CLOSED_UNDER = new Set(["UND_ERR_SOCKET", "ECONNRESET", "EPIPE"]);

export async function post(
  url: URL,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  maxBytes: number,
): Promise<Answer> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const refused = isIP(host) ? refusedAddress(host) : null;
  if (refused) throw new PostError(refused);
  // One deadline for the whole attempt (connecting, sending, the answer's status and body): a
  // receiver that trickles a byte now and then would otherwise hold a sending slot for hours.
  const deadline = AbortSignal.timeout(timeoutMs);
  try {
    return await postOnce(url, body, headers, timeoutMs, maxBytes, deadline).catch(
      (e: NodeJS.ErrnoException) => {
        if (!CLOSED_UNDER.has(e.code ?? "") || deadline.aborted) throw e;
        const fresh = new Client(url.origin, { connect: { lookup: checkedLookup } });
        return postOnce(url, body, headers, timeoutMs, maxBytes, deadline, fresh).finally(() =>
          fresh.destroy(),
        );
      },
    );
  } catch (e) {
    if (e instanceof errors.HeadersTimeoutError || e instanceof errors.BodyTimeoutError || deadline.aborted)
      throw new PostError(`no answer within ${timeoutMs / 1000} s`);
    const err = e as NodeJS.ErrnoException;
    // A refused address says why (its message); a failed connection says how (its code).
    if (err.code === "EPRIVATE") throw new PostError(err.message);
    throw new PostError(err.code ?? err.message);
  }
}

async function postOnce(
  url: URL,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  maxBytes: number,
  signal: AbortSignal,
  through: Dispatcher = agent,
): Promise<Answer> {
  const res = await through.request({
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
    method: "POST",
    headers,
    body,
    signal,
    // The status must come within timeoutMs (what acknowledges), and the body's parts too.
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    // More than we keep: the rest is not read (the connection is closed, not reused).
    if (size >= maxBytes) {
      res.body.destroy();
      break;
    }
  }
  return { status: res.statusCode, text: Buffer.concat(chunks).subarray(0, maxBytes).toString("utf8") };
}
