import { createRequire } from "node:module";
import path from "node:path";

/**
 * The path of a file inside an installed package (a data file), resolved from the project's
 * folder: bundled server code has no location of its own to resolve from.
 */
export function packageFile(spec: string): string {
  return createRequire(path.join(process.cwd(), "package.json")).resolve(spec);
}
