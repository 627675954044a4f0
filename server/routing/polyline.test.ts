import { describe, expect, it } from "vitest";
import { encodePolyline } from "./polyline";

describe("encoded polylines", () => {
  it("encodes Google's example, from [lng, lat] positions", () => {
    const points: [number, number][] = [
      [-120.2, 38.5],
      [-120.95, 40.7],
      [-126.453, 43.252],
    ];
    expect(encodePolyline(points, 5)).toBe("_p~iF~ps|U_ulLnnqC_mqNvxq`@");
    expect(encodePolyline([], 5)).toBe("");
  });

  it("keeps six digits with precision 6", () => {
    expect(encodePolyline([[0.000001, -0.000001]], 6)).toBe("@A");
  });
});
