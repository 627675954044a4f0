import "./load-env";
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { constants } from "node:os";
import { env } from "../server/config/env";
import { prisma } from "../server/db/client";
import { ensureFirstAdmin } from "../server/auth/accounts";
import { ensureInitialKeys } from "../server/setup/first-run";
import { buildIfStale, nextEnv, root, serveScript, serverNodeArgs } from "./build";
import { asOneProcess, migrate } from "./migrate";
import { log } from "../server/log/logger.mjs";

/**
 * `npm start`: migrate the database, do first-run setup, build the app when its sources changed,
 * then serve. `npm run dev` does the same with the development server.
 */

const dev = process.argv.includes("--dev");

type FirstAdmin = Awaited<ReturnType<typeof ensureFirstAdmin>>;

function banner(
  keys: { secret: string; publishable: string } | null,
  admin: FirstAdmin,
  url: string,
): string {
  const lines = [`Location platform on ${url}  (API under ${url}/v1)`, ""];
  if (admin) {
    lines.push(
      `Dashboard: ${url}/login`,
      "First run: created the admin account. The password is shown only this once.",
      `  email     ${admin.account.email}`,
      `  password  ${admin.password}`,
      "More accounts: npm run accounts -- create EMAIL ROLE   (roles: admin, analyst, reviewer)",
      "",
    );
  } else {
    lines.push(`Dashboard: ${url}/login   (accounts: npm run accounts -- list)`, "");
  }
  if (keys) {
    lines.push(
      "First run: created two test API keys. They are shown only this once; store them now.",
      `  secret key      ${keys.secret}`,
      `  publishable key ${keys.publishable}`,
      "",
      "Send a key in the Authorization header. The secret key works on every endpoint and",
      "stays on servers; the publishable key is for SDKs in apps and calls only what they need.",
      "Try:",
      `  curl ${url}/v1/geofences -H "Authorization: ${keys.secret}"`,
    );
  } else {
    lines.push("Keys: npm run keys -- list  (create a new one with: npm run keys -- create)");
  }
  return lines.join("\n");
}

/** Whether something already listens on the port (a second `npm start`, another app). */
function portInUse(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer()
      .once("error", () => resolve(true))
      .once("listening", () => probe.close(() => resolve(false)))
      .listen(port, host);
  });
}

async function main(): Promise<void> {
  const { PORT, HOST } = env();
  if (await portInUse(PORT, HOST)) {
    throw new Error(
      `Port ${PORT} is already in use (another npm start?). Stop it, or choose a port: PORT=3001 npm start`,
    );
  }
  await migrate();
  const { keys, admin } = await asOneProcess(async () => ({
    keys: await ensureInitialKeys(),
    admin: await ensureFirstAdmin(),
  }));
  await prisma.$disconnect();
  if (!dev) await buildIfStale();
  const url = `http://${HOST === "0.0.0.0" ? "localhost" : HOST}:${PORT}`;
  const child: ChildProcess = spawn(
    process.execPath,
    [...serverNodeArgs, serveScript, dev ? "dev" : "start", "-p", String(PORT), "-H", HOST],
    {
      cwd: root,
      // The server logs as this process would: lines for people on a terminal, JSON otherwise.
      env: {
        ...nextEnv,
        LOG_FORMAT: process.env.LOG_FORMAT ?? (dev || process.stdout.isTTY ? "pretty" : "json"),
      },
      stdio: ["inherit", "pipe", "inherit"],
    },
  );
  let announced = false;
  child.stdout?.on("data", (chunk: Buffer) => {
    process.stdout.write(chunk);
    if (!announced && /Ready|started server|Local:/i.test(chunk.toString())) {
      announced = true;
      console.log(`\n${banner(keys, admin, url)}\n`);
    }
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
  // The server's fate is this process's: a server killed by a signal (the OOM killer's SIGKILL)
  // ends it as a shell reports such a death (128 + the signal's number), never as a clean exit, so
  // a service manager restarts it.
  child.on("exit", (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0)));
}

main().catch((e: unknown) => {
  log.fatal(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
