import nextEnv from "@next/env";
import path from "node:path";

// The scripts read .env files exactly as Next.js does, so the migrations, the key CLI and the
// server agree on DATABASE_URL whichever way it is set.
nextEnv.loadEnvConfig(path.resolve(import.meta.dirname, ".."), process.argv.includes("--dev"));
