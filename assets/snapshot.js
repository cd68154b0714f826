// A returning player's Python starts from a memory snapshot made on this device (docs/worker.md,
// "The snapshot"). This module is the interpreter PyScript loads in Python's worker (assets/page.js
// names it as PyWorker's `version`): PyScript imports it, reads `version` and calls `loadPyodide`
// with its own streams, then registers its modules and runs assets/worker-start.py as it always
// does. `loadPyodide` starts the pinned Pyodide from the snapshot kept in Cache Storage when there is
// a good one, and from scratch otherwise. A snapshot holds the heap, not the files: a restored start
// writes the page's Python back from the zip the heap holds (assets/runtime.js, RESTORE); a start
// from scratch downloads app.zip.xz meanwhile and unpacks it. The snapshot maker
// (assets/snapshot-maker.js, a worker of the page's own, started when the page is idle) makes one
// with `make`. Nothing here is ever downloaded from the site but the runtime and app.zip.xz themselves.
//
// Pyodide's snapshot options are private in 314.0.7 (`_makeSnapshot`, `_loadSnapshot`,
// `makeMemorySnapshot`): tools/build.py checks that the pinned files still have them, stamps `KEY`
// (a hash of every file a snapshot depends on) and `MAX_HEAP` (the wasm module's initial memory: a
// bigger heap cannot be restored, Pyodide bug #6254), and tests/browser/test_snapshot.py takes the
// path on every run.
// Pyodide's own loadPyodide, through assets/runtime.js: the runtime's folder, and on a first visit the
// copies of the big files handed to the service worker's install; and the page's Python unpacked.
import {fetchApp, loadPyodide as loadRuntime, restoreApp, unpackApp, version} from "./runtime.js";
// Named here too (assets/runtime.js imports it): the worker asks for it alongside runtime.js instead
// of one import level later.
// @ts-ignore: Pyodide's module is copied into vendor/ by the build; it has no types here.
import "../vendor/pyodide/pyodide.mjs";

export {version};

/** Stamped by tools/build.py: the SHA-256 of app.zip.xz, Pyodide's files and these modules. */
export const KEY = "OCHO-SNAPSHOT-KEY";
/** Stamped by tools/build.py: the largest heap a fresh start can take back (its initial memory). */
export const MAX_HEAP = Number("OCHO-SNAPSHOT-MAX-HEAP");
const STAMPED = /^[0-9a-f]{64}$/.test(KEY) && MAX_HEAP > 0;

const CACHE = "ocho-loco-snapshot";
const ENTRY = new URL("../snapshot", import.meta.url).href;  // a name in the cache, never fetched
const RUNTIME = new URL("../vendor/pyodide/", import.meta.url).href;
const CHANNEL = "ocho-loco-snapshot";  // the page hears how Python started (assets/snapshot-keeper.js)
const KEY_HEADER = "X-Snapshot-Key";
const HEAP_HEADER = "X-Snapshot-Heap";
const REFUSED_HEADER = "X-Snapshot-Refused";
const DIGEST_HEADER = "X-Snapshot-Sha256";
// Pyodide 314's snapshot: a 48-byte header (a magic number, where the heap starts, …), then the
// state of its JavaScript references as JSON, then the heap. tools/build.py checks both numbers.
const MAGIC = 1886286592;
const HEADER_BYTES = 48;
// What the first batch needs, imported before the snapshot is taken: the table's Python, nothing
// read from storage and no game begun (ui.worker's imports stop at modules; Session is made later).
const FIRST_IMPORTS = "import ui.worker";

/** Where a snapshot's heap starts, and how long it is; throws for bytes that are no snapshot. */
export function heapOf(/** @type {Uint8Array} */ bytes) {
  if (bytes.byteLength < HEADER_BYTES || bytes.byteOffset % 4) throw new Error("not a snapshot");
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, HEADER_BYTES / 4);
  if (words[0] !== MAGIC || words[1] < HEADER_BYTES || words[1] > bytes.byteLength) throw new Error("not a snapshot");
  return bytes.byteLength - words[1];
}

/** @param {Record<string, unknown>} news */
function tell(news) {
  if (typeof BroadcastChannel !== "function") return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage(news);
  channel.close();
}

/** The snapshot's cache, or null where there is none (`make`: made when missing). */
async function openCache(make = false) {
  if (!STAMPED || typeof caches === "undefined") return null;
  return make || await caches.has(CACHE) ? caches.open(CACHE) : null;
}

async function drop() {
  try {
    await (await openCache())?.delete(ENTRY);
  } catch (err) { /* nothing kept, nothing to drop */ }
}

/** The SHA-256 of `bytes` in hex. @param {Uint8Array<ArrayBuffer>} bytes */
async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

let read = 0;  // ms to read and check the kept snapshot, for the probe

/**
 * The kept snapshot's bytes (a promise: they are read and checked while the runtime loads), or
 * why there is none to restore; a stale or oversized entry is dropped here. The snapshot is kept
 * as it is, with its SHA-256: read and checked, it comes sooner than gzipped and unpacked
 * (docs/measurements.md), and a changed byte is a start from scratch, never a broken Python.
 * @returns {Promise<{bytes: Promise<Uint8Array>} | {none: string}>}
 */
async function kept() {
  const cache = await openCache();
  const found = cache && await cache.match(ENTRY);
  if (!cache || !found) return {none: "missing"};
  if (found.headers.get(KEY_HEADER) !== KEY) {
    await drop();
    return {none: "stale"};
  }
  if (found.headers.get(REFUSED_HEADER)) return {none: "refused"};  // this build's heap cannot come back
  if (!(Number(found.headers.get(HEAP_HEADER)) <= MAX_HEAP)) {
    await drop();
    return {none: "oversized"};
  }
  const began = performance.now();
  const bytes = found.arrayBuffer().then(async (buffer) => {
    const bytes = new Uint8Array(buffer);
    if (await sha256(bytes) !== found.headers.get(DIGEST_HEADER)) throw new Error("corrupt");
    read = Math.round(performance.now() - began);
    if (heapOf(bytes) > MAX_HEAP) throw new Error("oversized");  // a heap a fresh start cannot hold
    return bytes;
  });
  bytes.catch(() => {});  // a failure is Pyodide's to throw, once it waits for the bytes
  return {bytes};
}

// Looked for as soon as this module runs, not once PyScript calls loadPyodide: reading and checking a
// kept snapshot is what a restore waits for longest. (The maker imports this module too: with no
// snapshot kept, which is when it runs, looking costs a cache lookup.)
const keptNow = kept();
keptNow.catch(() => {});

/**
 * PyScript's call: the pinned Pyodide, started from the kept snapshot when it can be, with the
 * page's Python in place: written back from the restored heap, or downloaded (while Pyodide starts)
 * and unpacked. A failure to fetch or unpack it is the start's failure, not the snapshot's.
 * @param {Record<string, unknown>} [options] what PyScript passes (its streams, an indexURL)
 */
export async function loadPyodide(options = {}) {
  /** @type {Promise<Uint8Array> | null} */
  let app = null;
  const archive = () => (app ||= fetchApp());
  const {pyodide, restored} = await start(options, archive);
  if (!(restored && restoreApp(pyodide))) await unpackApp(pyodide, archive());
  return pyodide;
}

/**
 * The pinned Pyodide, started from the kept snapshot when it can be. Any failure (unreadable, a
 * changed byte, a build mismatch, a restore that throws) drops the snapshot and starts Python from
 * scratch, as without one; `archive` is asked for as soon as a start from scratch is known.
 * @param {Record<string, unknown>} options
 * @param {() => Promise<Uint8Array>} archive
 * @returns {Promise<{pyodide: any, restored: boolean}>}
 */
async function start(options, archive) {
  const began = performance.now();
  const config = {...options, indexURL: RUNTIME};  // PyScript derives one from this module's address
  /** @type {{bytes: Promise<Uint8Array>} | {none: string}} */
  let found = {none: "unreadable"};
  try {
    found = await keptNow;
  } catch (err) {
    await drop();
  }
  if ("bytes" in found) {
    try {
      const pyodide = await loadRuntime({...config, _loadSnapshot: found.bytes});
      // The snapshot holds the random module's state as it was when made: seeded again here, so no
      // two starts share it. (The table's own generator is seeded from the page's seed, as ever.)
      const random = pyodide.pyimport("random");
      random.seed();
      random.destroy();
      tell({start: "restored", ms: Math.round(performance.now() - began), read});
      return {pyodide, restored: true};
    } catch (err) {
      await drop();
      found = {none: "failed: " + String(err).slice(0, 200)};
    }
  }
  archive();
  const pyodide = await loadRuntime(config);
  tell({start: "normal", why: found.none, ms: Math.round(performance.now() - began)});
  return {pyodide, restored: false};
}

/**
 * The snapshot maker's work (in a worker of its own, off the page): start Python with snapshots
 * on, unpack app.zip.xz as every start unpacks it (its zip held in the heap), import what the first
 * batch needs, and keep the snapshot with its SHA-256 in Cache Storage under this build's key. A heap
 * too big to come back is not kept: a mark says so, and no later visit of this build tries again.
 * @returns {Promise<Record<string, unknown>>} what was done, for the probe
 */
export async function make() {
  const cache = await openCache(true);
  if (!cache || !crypto.subtle) return {made: false, why: "unsupported"};
  const found = await cache.match(ENTRY);
  if (found && found.headers.get(KEY_HEADER) === KEY) return {made: false, why: "kept"};
  const began = performance.now();
  const app = fetchApp();
  const pyodide = await loadRuntime({indexURL: RUNTIME, _makeSnapshot: true});
  await unpackApp(pyodide, app);
  pyodide.runPython(FIRST_IMPORTS);
  /** @type {Uint8Array<ArrayBuffer>} */
  const snapshot = pyodide.makeMemorySnapshot();
  const heap = heapOf(snapshot);
  const headers = {[KEY_HEADER]: KEY, [HEAP_HEADER]: String(heap), "Content-Type": "application/octet-stream"};
  if (heap > MAX_HEAP) {
    await cache.put(ENTRY, new Response("", {headers: {...headers, [REFUSED_HEADER]: "oversized"}}));
    return {made: false, why: "oversized", heap, maxHeap: MAX_HEAP};
  }
  await cache.put(ENTRY, new Response(snapshot, {headers: {...headers, [DIGEST_HEADER]: await sha256(snapshot)}}));
  return {made: true, heap, stored: snapshot.byteLength, ms: Math.round(performance.now() - began)};
}
