// The module Python's worker loads Pyodide through: assets/page.js names it as PyWorker's `version`,
// and PyScript calls the loadPyodide it exports. It is Pyodide's own, given the runtime's folder
// (PyScript would take this module's), plus, on a first visit, the handoff (docs/worker.md):
// Python's worker starts at once, before any service worker, and downloads the runtime itself; this
// module keeps a copy of each big file as it arrives (Cache Storage, "ocho-loco-handoff"), so the
// service worker's install takes that copy (tools/sw-src.mjs) instead of downloading the file a
// second time, even where the HTTP cache keeps no large file (a private window). The page made the
// handoff cache before starting the worker, and only on a first visit: that is how this module knows.
// It tells the page each runtime file's bytes (for the loading box) and when every copy is stored
// (the page registers the service worker only then), on a BroadcastChannel. On a later visit every
// file comes through the service worker, whose responses carry V8's compiled-code cache for the wasm
// (read from Cache Storage here instead, the wasm was compiled afresh on each start: docs/measurements.md).
// @ts-ignore: Pyodide's module is copied into vendor/ by the build; it has no types here.
import { loadPyodide as loadRuntime, version } from "../vendor/pyodide/pyodide.mjs";

const HANDOFF = "ocho-loco-handoff";
const CHANNEL = "ocho-loco-runtime";
// What the worker fetches (not imports) and the service worker would download again.
const HANDED = new Set(["pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json", "app.zip.xz"]);
// What the loading box counts: those and the two modules the worker imports.
const TOLD = new Set([...HANDED, "pyodide.mjs", "pyodide.asm.mjs"]);
const INDEX = new URL("../vendor/pyodide/", import.meta.url).href;
// The page's own Python (tools/build.py's app archive): its modules' bytecode in a zip that stores
// them as they are, xz-compressed whole. Python's own lzma decompresses it, and the zip is written as
// one file, first on sys.path: Python imports from it as it is (zipimport; the bytecode names its
// files under /home/pyodide for tracebacks). The zip's bytes are also held in the heap (the module
// `_ocho_loco_app`), so that a snapshot made after this takes them along: a restored start writes the
// file back from there (RESTORE) and neither fetches nor decompresses the archive.
const APP = new URL("../app.zip.xz", import.meta.url).href;
const UNPACK = `
import lzma, sys, types
held = types.ModuleType("_ocho_loco_app")
held.zip = lzma.decompress(archive.to_py())
sys.modules[held.__name__] = held
with open("/home/pyodide/app.zip", "wb") as file:
    file.write(held.zip)
if "/home/pyodide/app.zip" not in sys.path:
    sys.path.insert(0, "/home/pyodide/app.zip")
`;
const RESTORE = `
import sys
with open("/home/pyodide/app.zip", "wb") as file:
    file.write(sys.modules["_ocho_loco_app"].zip)
`;

const nameOf = (/** @type {string} */ url) => new URL(url).pathname.split("/").pop() || "";
const keep = typeof caches !== "undefined" && await caches.has(HANDOFF).catch(() => false);

if (keep && typeof BroadcastChannel !== "undefined") {
  const channel = new BroadcastChannel(CHANNEL);
  try {
    new PerformanceObserver((list) => {
      for (const entry of /** @type {PerformanceResourceTiming[]} */ (list.getEntries())) {
        const file = nameOf(entry.name);
        if (TOLD.has(file)) channel.postMessage({file, bytes: entry.transferSize || entry.encodedBodySize || 0});
      }
    }).observe({type: "resource", buffered: true});
  } catch (err) { /* no resource timing here: the loading box says less */ }
  /** @type {Map<string, Promise<unknown>>} */
  const copies = new Map();
  const fetchHere = globalThis.fetch.bind(globalThis);
  globalThis.fetch = async (/** @type {RequestInfo | URL} */ input, /** @type {RequestInit | undefined} */ init) => {
    const pending = fetchHere(input, init);
    const url = String(input instanceof Request ? input.url : input);  // absolute: Pyodide's and PyScript's
    const file = /^https?:/.test(url) ? nameOf(url) : "";
    if (!HANDED.has(file) || copies.has(file)) return pending;
    const settled = () => {
      if (copies.size === HANDED.size) Promise.all(copies.values()).then(() => channel.postMessage({all: true}));
    };
    /** @type {Response} */
    let response;
    try {
      response = await pending;
    } catch (err) {
      copies.set(file, Promise.resolve());
      settled();
      throw err;
    }
    const copy = response.ok ? response.clone() : null;  // now: the worker is about to read the body
    copies.set(file, copy ? caches.open(HANDOFF).then((cache) => cache.put(url, copy)).catch(() => {}) : Promise.resolve());
    settled();
    return response;
  };
}

/** @param {Record<string, unknown>} options */
export function loadPyodide(options) {
  return loadRuntime({...options, indexURL: INDEX});
}

/**
 * The app archive's bytes: called before Pyodide loads, so that the download runs alongside it.
 * @returns {Promise<Uint8Array>}
 */
export function fetchApp() {
  const bytes = fetch(APP).then(async (response) => {
    if (!response.ok) throw new Error("app.zip.xz: " + response.status);
    return new Uint8Array(await response.arrayBuffer());
  });
  bytes.catch(() => {});  // the caller awaits it once Pyodide is up, and meets the failure then
  return bytes;
}

/**
 * Unpack the app archive where the page's Python imports it from (and hold its zip in the heap).
 * @param {any} pyodide the started (or restored) Pyodide
 * @param {Promise<Uint8Array>} app what fetchApp gave
 */
export async function unpackApp(pyodide, app) {
  const scope = pyodide.toPy({});
  try {
    scope.set("archive", await app);
    pyodide.runPython(UNPACK, {globals: scope});
  } finally {
    scope.destroy();
  }
}

/**
 * After a restore: write the app's zip back from the heap the snapshot held it in. False when that
 * heap holds none (the caller then unpacks the archive as a normal start does).
 * @param {any} pyodide the restored Pyodide
 */
export function restoreApp(pyodide) {
  try {
    pyodide.runPython(RESTORE);
    return true;
  } catch (err) {
    return false;
  }
}

export { version };
