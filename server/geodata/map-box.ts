import { z } from "zod";

/** `bbox=minLng,minLat,maxLng,maxLat`: a dashboard map's view of imported data. */
export const mapBox = z
  .string({ error: "is required: minLng,minLat,maxLng,maxLat" })
  .transform((text, ctx) => {
    const n = text.split(",").map((v) => Number(v.trim()));
    const [minLng, minLat, maxLng, maxLat] = n;
    if (
      n.length !== 4 ||
      n.some((v) => !Number.isFinite(v)) ||
      minLat! < -90 ||
      maxLat! > 90 ||
      minLat! > maxLat! ||
      minLng! > maxLng!
    ) {
      ctx.addIssue({ code: "custom", message: "must be minLng,minLat,maxLng,maxLat with min ≤ max" });
      return z.NEVER;
    }
    return { minLng: minLng!, minLat: minLat!, maxLng: maxLng!, maxLat: maxLat! };
  });
