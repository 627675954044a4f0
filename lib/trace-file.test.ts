import { describe, expect, it } from "vitest";
import { traceFixes } from "./trace-file";

describe("trace files for map matching", () => {
  it("reads a GPX track's points in order, with hdop as accuracy", () => {
    const gpx = `<?xml version="1.0"?><gpx version="1.1"><trk><trkseg>
      <trkpt lat="42.5063" lon="1.5218"><ele>1023</ele><hdop>3</hdop></trkpt>
      <trkpt lon="1.5220" lat="42.5065"/>
      <trkpt lat="bad" lon="1"/>
    </trkseg></trk></gpx>`;
    expect(traceFixes("drive.gpx", gpx)).toEqual([
      { at: [1.5218, 42.5063], accuracy: 15 },
      { at: [1.522, 42.5065] },
    ]);
  });

  it("reads CSV by its named columns, or plain lat,lng rows", () => {
    expect(traceFixes("t.csv", "time,latitude,longitude,accuracy\n1,42.5,1.52,8\n2,42.51,1.53,\n")).toEqual([
      { at: [1.52, 42.5], accuracy: 8 },
      { at: [1.53, 42.51] },
    ]);
    expect(traceFixes("t.csv", "42.5,1.52\n42.51,1.53")).toEqual([
      { at: [1.52, 42.5] },
      { at: [1.53, 42.51] },
    ]);
  });

  it("says what it expected when a file holds too few points", () => {
    expect(() => traceFixes("t.gpx", "<gpx></gpx>")).toThrow(/fewer than 2 track points/);
    expect(() => traceFixes("t.csv", "name\nx")).toThrow(/columns latitude and longitude/);
  });
});
