import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { type BundleLayer, BundleWriter } from "./file";

/**
 * Writes the bundle `name` into `dir` (`<name>.sqlite`): beside its final name first, renamed
 * over it when `fill` returns, so a failed or interrupted import leaves the previous bundle
 * serving and a running service never reads half a file (./folder.ts picks up the new one).
 * On any error the partial file is removed.
 */
export async function writeBundle<T>(
  options: { dir: string; name: string; layers: readonly BundleLayer[] },
  fill: (writer: BundleWriter) => Promise<T>,
): Promise<{ file: string; result: T }> {
  const { dir, name } = options;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name))
    throw new Error(`import name "${name}" must be letters, digits, . _ -`);
  mkdirSync(dir, { recursive: true });
  const target = path.join(dir, `${name}.sqlite`);
  const partial = path.join(dir, `.${name}.sqlite.partial-${process.pid}`);
  if (existsSync(partial)) rmSync(partial);
  const writer = new BundleWriter(partial, options.layers);
  try {
    const result = await fill(writer);
    writer.finish();
    // The swap: readers see the old file or the new one, never a mix.
    renameSync(partial, target);
    return { file: target, result };
  } catch (error) {
    writer.abandon();
    rmSync(partial, { force: true });
    throw error;
  }
}
