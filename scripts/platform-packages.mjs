// @ts-check
/**
 * Which versions of a package have every per-platform build it lists (its optionalDependencies)
 * in the registry npm is set to use. A lockfile names every platform's build, so `npm ci`
 * (CI, Dockerfiles, macOS and Windows users) refuses a lockfile written against a version whose
 * builds for some platforms the registry does not have: see docs/development.md#dependencies.
 *
 *   node scripts/platform-packages.mjs next 16.4     (newest first, up to --count 8)
 */
import { execFileSync } from "node:child_process";
import { parseArgs } from "node:util";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { count: { type: "string", default: "8" } },
});
const [pkg, prefix = ""] = positionals;
if (!pkg) {
  console.error("usage: node scripts/platform-packages.mjs PACKAGE [VERSION-PREFIX] [--count N]");
  process.exit(1);
}

/** @returns {any} */
function view(/** @type {string} */ spec, /** @type {string} */ field) {
  try {
    const out = execFileSync("npm", ["view", spec, field, "--json"], { stdio: ["ignore", "pipe", "ignore"] });
    return JSON.parse(out.toString() || "null");
  } catch {
    return null;
  }
}

/** @type {Map<string, Set<string>>} */
const published = new Map();
const versionsOf = (/** @type {string} */ name) => {
  if (!published.has(name)) published.set(name, new Set(view(name, "versions") ?? []));
  return /** @type {Set<string>} */ (published.get(name));
};

const candidates = [...versionsOf(pkg)]
  .filter((v) => v.startsWith(prefix) && !v.includes("-"))
  .reverse()
  .slice(0, Number(values.count));
for (const version of candidates) {
  const optional = Object.entries(view(`${pkg}@${version}`, "optionalDependencies") ?? {});
  const missing = optional.filter(
    ([name, range]) => !versionsOf(name).has(String(range).replace(/^[\^~=]/, "")),
  );
  console.log(
    `${pkg}@${version}: ${optional.length} platform packages, ` +
      (missing.length ? `missing ${missing.map(([n]) => n).join(", ")}` : "all published"),
  );
}
