/**
 * The layers of server/ (docs/architecture.md#layers), checked by `npm run lint`: a folder may
 * import its own files and folders of the layers below it, never one beside or above it; no file
 * imports itself through others. Type-only imports count (they tie the code together as much).
 * Tests may reach up (a routing test builds its graph with the OSM import).
 */

/** From the bottom up; one line per layer, each a list of folders (or single files) of server/. */
const LAYERS = [
  ["log", "metrics"],
  ["config", "geo", "text", "workers", "errors.ts", "process-once.ts"],
  ["storage", "bundles", "regions"],
  ["auth", "settings.ts", "sdk"],
  ["http", "setup", "db"],
  ["routing", "geodata", "geofences"],
  ["geocode", "transit", "events", "webhooks"],
  ["planner"],
  ["imports", "tracking"],
  ["users", "context", "operations"],
];

const pathOf = (entry) =>
  entry.endsWith(".ts") ? `^server/${entry.replace(".", "\\.")}$` : `^server/${entry}/`;
const anyOf = (entries) => entries.map(pathOf).join("|");

const layerRules = LAYERS.flatMap((layer, level) => {
  const above = LAYERS.slice(level + 1).flat();
  return layer.map((entry) => {
    const besides = layer.filter((other) => other !== entry);
    const forbidden = [...above, ...besides];
    return {
      name: `layer:${entry}`,
      comment: `server/${entry} (layer ${level}) imports only from the layers below it (docs/architecture.md#layers)`,
      severity: "error",
      from: {
        path: pathOf(entry),
        // The one composition point (the configuration picks the storage adapter), and tests,
        // which drive a layer with fixtures made by the layers above it (an import, a server).
        pathNot: "^server/storage/index\\.ts$|\\.test\\.ts$",
      },
      to: { path: anyOf(forbidden) },
    };
  });
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No file imports itself through others (docs/architecture.md#layers).",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "every-server-folder-has-a-layer",
      comment: "A new folder of server/ gets its place in LAYERS (.dependency-cruiser.cjs) first.",
      severity: "error",
      from: { path: "^server/", pathNot: `${anyOf(LAYERS.flat())}|\\.test\\.ts$|fixture` },
      to: {},
    },
    {
      name: "server-not-ui",
      comment: "The server never imports the pages or components; wire types live in lib/.",
      severity: "error",
      from: { path: "^server/" },
      to: { path: "^(app|components)/" },
    },
    {
      name: "lib-is-shared",
      comment: "lib/ (wire types and helpers both sides use) imports nothing of the server or the UI.",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: "^(server|app|components)/" },
    },
    {
      name: "components-not-server",
      comment: "Components run in the browser: they talk to the server over HTTP, never by import.",
      severity: "error",
      from: { path: "^components/" },
      to: { path: "^(server|app)/" },
    },
    {
      name: "components-primitives",
      comment:
        "components/ui and components/map are the primitives every feature uses; they import no feature folder.",
      severity: "error",
      from: { path: "^components/(ui|map)/" },
      to: { path: "^components/(?!ui/|map/)" },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)generated/|^\\.next/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
    },
  },
};
