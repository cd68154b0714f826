// Generate the service worker (sw.js) for a built site folder.
//
//   node tools/sw.mjs <site-dir>
//
// Workbox does the work: workbox-build's getManifest() lists every file the
// game needs with an MD5 revision of its content, and the worker is the
// Workbox precaching runtime bundled into one file (no CDN, no importScripts).
// Changing any file changes its revision, so a new deployment downloads
// exactly the files that changed and cleans up the rest.
//
// Policy: the new worker activates at once (skipWaiting + clientsClaim). A
// page that is already running keeps what it has loaded (the whole game is in
// memory once Python has started); the next load gets the new version. The
// page offers "Nueva versión" to reload sooner.
//
// One change from Workbox's defaults: when installing, files are fetched with
// `cache: "no-cache"` instead of `"reload"`. The first visit has just
// downloaded every file, so the worker revalidates them (304 Not Modified)
// instead of downloading the 13 MB runtime a second time; revalidation still
// guarantees the content is the server's current one.
//
// One routing exception: while the browser is online, requests under vendor/
// (PyScript and Pyodide) are left to the browser's HTTP cache instead of being
// answered from the precache. Chrome keeps the compiled WebAssembly of
// pyodide.asm.wasm next to the HTTP cache entry, so a repeat visit skips
// compiling 9.6 MB of wasm; answered from the precache (or passed through the
// worker's own fetch) it was compiled again on every visit, about 0.5 s per
// load in headless Chromium. Offline (navigator.onLine false), the precached
// copies are used as before. vendor/ is bypassed as a whole so that the
// runtime's files always come from one place and stay of one version with each
// other. The cost: on a connection that claims to be online but reaches
// nothing, the runtime does not load from the precache.
//
// The output is deterministic: same site files, same sw.js.

import { createRequire } from "node:module";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const workboxBuild = require("workbox-build");
// The same bundler generateSW() uses (Rollup + Babel + Terser, runtime inlined).
const { bundle } = require("workbox-build/build/lib/bundle.js");

export const GLOB_PATTERNS = ["**/*.{html,js,mjs,css,json,webmanifest,zip,wasm,svg,png,ico,txt}"];
const MAX_FILE_BYTES = 64 * 1024 * 1024; // pyodide.asm.wasm is ~9.6 MB

// Workbox runtime modules, resolved from workbox-build's own dependencies.
const fromBuild = createRequire(require.resolve("workbox-build/package.json"));
function workboxModule(name) {
  return path.join(path.dirname(fromBuild.resolve(`${name}/package.json`)), "index.mjs");
}

function workerSource(manifest) {
  const core = JSON.stringify(workboxModule("workbox-core"));
  const precaching = JSON.stringify(workboxModule("workbox-precaching"));
  const routing = JSON.stringify(workboxModule("workbox-routing"));
  return `
import { clientsClaim } from ${core};
import { addPlugins, cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from ${precaching};
import { NavigationRoute, registerRoute } from ${routing};

self.skipWaiting();
clientsClaim();

// Registered before Workbox's own fetch listener, which it stops when online.
const VENDOR = new URL("vendor/", self.registration.scope).href;
self.addEventListener("fetch", (event) => {
  if (self.navigator.onLine && event.request.url.startsWith(VENDOR)) {
    event.stopImmediatePropagation();
  }
});

addPlugins([
  {
    // Install-time fetches: revalidate with the server instead of re-downloading.
    requestWillFetch: async ({ request }) =>
      request.cache === "reload" && request.mode !== "navigate"
        ? new Request(request, { cache: "no-cache" })
        : request,
  },
]);

precacheAndRoute(${JSON.stringify(manifest, null, 1)});
cleanupOutdatedCaches();

// Any navigation inside the site (share links carry their data in the hash)
// gets the precached page.
registerRoute(new NavigationRoute(createHandlerBoundToURL("index.html")));
`;
}

export async function generate(siteDir) {
  const globDirectory = path.resolve(siteDir);
  const { manifestEntries, count, size, warnings } = await workboxBuild.getManifest({
    globDirectory,
    globPatterns: GLOB_PATTERNS,
    globIgnores: ["sw.js", "**/*.map"],
    maximumFileSizeToCacheInBytes: MAX_FILE_BYTES,
  });
  if (warnings.length) {
    throw new Error("workbox getManifest warnings:\n" + warnings.join("\n"));
  }
  const manifest = [...manifestEntries].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  const swDest = path.join(globDirectory, "sw.js");
  const files = await bundle({
    babelPresetEnvTargets: ["chrome >= 80", "firefox >= 80", "safari >= 14"],
    inlineWorkboxRuntime: true,
    mode: "production",
    sourcemap: false,
    swDest,
    unbundledCode: workerSource(manifest),
  });
  const fs = await import("node:fs/promises");
  for (const file of files) {
    await fs.writeFile(file.name, file.contents);
  }
  return { count, size, files: files.map((f) => path.relative(globDirectory, f.name)) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const siteDir = process.argv[2];
  if (!siteDir) {
    console.error("usage: node tools/sw.mjs <site-dir>");
    process.exit(2);
  }
  generate(siteDir).then(
    ({ count, size, files }) => {
      console.log(
        JSON.stringify({ precached_files: count, precached_bytes: size, written: files }),
      );
    },
    (err) => {
      console.error(err && err.stack ? err.stack : String(err));
      process.exit(1);
    },
  );
}
