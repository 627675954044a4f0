import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * Runs one of the project's command-line scripts (`scripts/NAME.ts`) as `npm run` does, with the
 * TypeScript loader in Node itself: through `npx tsx` each run costs about a second more, which the
 * tests that manage webhooks from the command line paid a dozen times per file.
 */
export function runScript(
  script: string,
  args: string[],
  env: Record<string, string | undefined>,
  timeout = 60_000,
): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(
    process.execPath,
    ["--import", "tsx", path.join(root, "scripts", script), ...args],
    {
      cwd: root,
      env: { ...process.env, ...env },
      timeout,
    },
  );
}
