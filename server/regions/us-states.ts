import { readFileSync } from "node:fs";
import { processOnce } from "../process-once";
import { packageFile } from "./package-file";

/**
 * US state names by USPS code (us-state-codes' table), read on first use. Read as a file rather
 * than imported as a JSON module: outside the bundler (the import command, the e2e tests that
 * import fixtures) Node needs an import attribute the bundler does not take.
 */
export function usStateNames(): Readonly<Record<string, string>> {
  return processOnce(
    "us-state-names",
    () =>
      JSON.parse(readFileSync(packageFile("us-state-codes/states.json"), "utf8")) as Record<string, string>,
  );
}
