import { z } from "zod";
import { DEFAULT_DATABASE_URL } from "./database-url";

const schema = z.object({
  DATABASE_URL: z.string().min(1).default(DEFAULT_DATABASE_URL),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  /** Largest request body accepted, in bytes; larger ones get a 413. */
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  /** The dashboard map's tiles ({z}/{x}/{y}); without them a bundled world map still shows. */
  TILE_URL: z.string().min(1).default("https://tile.openstreetmap.org/{z}/{x}/{y}.png"),
  TILE_ATTRIBUTION: z
    .string()
    .default('&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors'),
});

export type Env = z.infer<typeof schema>;

let cached: Env | undefined;

/** Environment, validated once; a bad value stops the process with a readable message. */
export function env(): Env {
  if (cached) return cached;
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  cached = parsed.data;
  return cached;
}
