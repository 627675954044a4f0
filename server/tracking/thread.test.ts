import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "../errors";
import type { TrackInput } from "./schema";
import { updatesOnTheWay } from "../workers/thread-memory";
import { TrackingThread, countedTrackRequest } from "./thread";

/** The server thread's side of the tracking thread: answers, refusals, and a worker that dies. */

const fixture = pathToFileURL(path.resolve(import.meta.dirname, "thread.worker-fixture.ts")).href;
const key = { id: "k", kind: "publishable" as const, live: false };
const update = (deviceId: string) => ({ deviceId, latitude: 1, longitude: 2, accuracy: 10 }) as TrackInput;

let thread: TrackingThread;
afterEach(() => thread?.stop());

describe("the tracking thread", () => {
  it("answers each update with its own answer", async () => {
    thread = new TrackingThread(fixture);
    const answers = await Promise.all(["a", "b", "c"].map((d) => thread.run(key, update(d))));
    expect(answers.map((a) => JSON.parse(a.answer) as unknown)).toEqual([
      { deviceId: "a" },
      { deviceId: "b" },
      { deviceId: "c" },
    ]);
  });

  it("passes a refusal on as the API error it was", async () => {
    thread = new TrackingThread(fixture);
    const refused = await thread.run(key, update("refuse")).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({
      code: "conflict",
      status: 409,
      param: "deviceId",
      message: "deviceId: refused",
    });
  });

  it("fails the updates a dying worker held, and a new worker takes the next ones", async () => {
    thread = new TrackingThread(fixture);
    const held = thread.run(key, update("held"));
    const dying = thread.run(key, update("die"));
    await expect(dying).rejects.toThrow("tracking worker exited (3)");
    await expect(held).rejects.toThrow("tracking worker exited (3)");
    expect(JSON.parse((await thread.run(key, update("after"))).answer)).toEqual({ deviceId: "after" });
  });

  it("starts a new worker a second after one exits, without waiting for an update", async () => {
    thread = new TrackingThread(fixture);
    const running = () => (thread as unknown as { worker: unknown }).worker !== null;
    await expect(thread.run(key, update("die"))).rejects.toThrow("tracking worker exited (3)");
    expect(running()).toBe(false);
    for (let i = 0; i < 40 && !running(); i++) await new Promise((r) => setTimeout(r, 100));
    expect(running()).toBe(true);
    expect(JSON.parse((await thread.run(key, update("after"))).answer)).toEqual({ deviceId: "after" });
  });

  it("counts a /v1/track request as on its way while it is in its route, refused or not", async () => {
    expect(updatesOnTheWay()).toBe(0);
    let inside = -1;
    await countedTrackRequest(async () => {
      inside = updatesOnTheWay();
    });
    expect(inside).toBe(1);
    expect(updatesOnTheWay()).toBe(0);
    await expect(
      countedTrackRequest(async () => {
        throw new ApiError("invalid_input", "latitude: required", "latitude");
      }),
    ).rejects.toThrow("latitude");
    expect(updatesOnTheWay()).toBe(0);
  });
});
