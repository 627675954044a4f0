import { describe, expect, it } from "vitest";
import { timeZoneAt, withTimeZone } from "./time-zone";

describe("time zones", () => {
  it("names the zone, its abbreviation, offsets and local time, in and out of daylight saving", () => {
    const winter = new Date("2026-01-15T17:00:00Z");
    const summer = new Date("2026-07-15T17:00:00Z");
    expect(timeZoneAt(-74.0, 40.73, winter)).toEqual({
      id: "America/New_York",
      name: "Eastern Standard Time",
      code: "EST",
      currentTime: "2026-01-15T12:00:00-05:00",
      utcOffset: -18000,
      dstOffset: 0,
    });
    expect(timeZoneAt(-74.0, 40.73, summer)).toMatchObject({
      name: "Eastern Daylight Time",
      code: "EDT",
      currentTime: "2026-07-15T13:00:00-04:00",
      utcOffset: -14400,
      dstOffset: 3600,
    });
    // Britain's own abbreviation, India's half hour, Sydney's summer in January.
    expect(timeZoneAt(-0.1, 51.5, summer)).toMatchObject({
      id: "Europe/London",
      code: "BST",
      dstOffset: 3600,
    });
    expect(timeZoneAt(77.2, 28.6, winter)).toMatchObject({
      id: "Asia/Kolkata",
      code: "IST",
      utcOffset: 19800,
      currentTime: "2026-01-15T22:30:00+05:30",
    });
    expect(timeZoneAt(151.2, -33.87, winter)).toMatchObject({
      id: "Australia/Sydney",
      utcOffset: 39600,
      dstOffset: 3600,
    });
    expect(timeZoneAt(7.4164, 43.7293, winter)).toMatchObject({
      id: "Europe/Monaco",
      code: "CET",
      utcOffset: 3600,
    });
  });

  it("adds a time zone to an address with a position only", () => {
    expect(withTimeZone({ latitude: 48.85, longitude: 2.35 }).timeZone?.id).toBe("Europe/Paris");
    const nowhere: { latitude?: number; longitude?: number; formattedAddress: string } = {
      formattedAddress: "nowhere",
    };
    expect(withTimeZone(nowhere)).toEqual({ formattedAddress: "nowhere" });
  });
});
