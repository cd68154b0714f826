// The worker mode's first visit (docs/worker.md): the runtime's files are downloaded here, in a
// worker of their own, not on the page. Read on the page, their 12 MB made long tasks of the
// browser's own work on its main thread while the player could already see and touch the table.
// What this worker reads lands in the HTTP cache, where Python's worker finds it later; the big
// files are also stored whole for the service worker to precache (index.html's head, sw.js).
//
// The page posts {urls, keep}: the addresses to fetch, and whether to keep copies for the service
// worker. For each file this worker answers {file, bytes} once it is read (bytes over the wire,
// for the loading box), or {file, failed: true}; then {all: true}.
const HANDOFF = "ocho-loco-handoff";
const HANDED = /\/vendor\/pyodide\/[^/]+\.(wasm|zip)$/;

/** @param {string} url */
function sent(url) {
  const entry = /** @type {PerformanceResourceTiming | undefined} */ (performance.getEntriesByName(url).pop());
  return entry ? entry.transferSize || entry.encodedBodySize || 0 : 0;
}

/**
 * @param {string} url
 * @param {boolean} keep
 */
async function one(url, keep) {
  const path = new URL(url).pathname;
  const file = path.split("/").pop();
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${response.status} ${file}`);
    if (keep && HANDED.test(path)) {
      await (await caches.open(HANDOFF)).put(url, response);
    } else {
      await response.arrayBuffer();
    }
    postMessage({file, bytes: sent(url)});
  } catch (err) {
    postMessage({file, failed: true});
  }
}

addEventListener("message", async ({data}) => {
  const keep = !!data.keep && typeof caches !== "undefined";
  await Promise.all(data.urls.map((/** @type {string} */ url) => one(url, keep)));
  postMessage({all: true});
});
