// Source of the service worker. tools/sw.mjs bundles it with esbuild (the
// Workbox runtime is inlined: no CDN, no importScripts) and Workbox's
// injectManifest() replaces self.__WB_MANIFEST with the list of every file of
// the site, each with the SHA-256 of its content as its revision.
//
// Policy: the new worker activates at once (skipWaiting + clientsClaim). A
// page that is already running keeps what it has loaded (the whole game is in
// memory once Python has started); the next load gets the new version. The
// page offers «Nueva versión» to reload sooner.

import { clientsClaim } from "workbox-core";
import {
  addPlugins,
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";

// Where a first visit's Python worker leaves a copy of the big runtime files it has
// just downloaded (assets/runtime.js writes it; the name is repeated there).
const HANDOFF = "ocho-loco-handoff";

self.skipWaiting();
clientsClaim();

// Every file of the site, the runtime under vendor/ included, is answered from
// the precache first (Workbox's precache route; the network only for a file
// that is not there). PyScript's and Pyodide's files are pinned versions whose
// revision is their SHA-256, so the copy in the precache is the file: asking the
// host first would only add a way to fail. A host that answers the page but not
// vendor/ (a captive portal, a half-broken mirror, an outage in a CDN in front
// of the site) then still starts the game, as offline does.

function hex(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// The page's copy of a file, if it is exactly the revision being installed.
async function handedOver(cacheName, request) {
  const url = new URL(request.url);
  const revision = url.searchParams.get("__WB_REVISION__");
  if (!revision || !(await caches.has(HANDOFF))) return undefined;
  url.searchParams.delete("__WB_REVISION__");
  const copy = await (await caches.open(HANDOFF)).match(url.href);
  if (!copy || copy.status !== 200) return undefined;
  const body = await copy.arrayBuffer();
  if (hex(await crypto.subtle.digest("SHA-256", body)) !== revision) return undefined;
  const response = new Response(body, { status: 200, statusText: copy.statusText, headers: copy.headers });
  await (await caches.open(cacheName)).put(request, response.clone());
  return response;
}

addPlugins([
  {
    // Installing: a file Python's worker has just downloaded and handed over (checked
    // against its revision) is taken as it is, not downloaded a second time.
    cachedResponseWillBeUsed: async ({ cacheName, request, cachedResponse, event }) =>
      cachedResponse || (event && event.type === "install" ? handedOver(cacheName, request) : undefined),
  },
  {
    // Installing, anything else: revalidate with the server (304 Not Modified
    // for what the HTTP cache holds) instead of Workbox's forced re-download.
    requestWillFetch: async ({ request }) =>
      request.cache === "reload" && request.mode !== "navigate"
        ? new Request(request, { cache: "no-cache" })
        : request,
  },
]);

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// The precache is complete once this worker activates: the copies are no longer needed.
self.addEventListener("activate", (event) => {
  event.waitUntil(caches.delete(HANDOFF));
});

// Any navigation inside the site (share links carry their data in the hash)
// gets the precached page (precached as "./": see tools/sw.mjs).
registerRoute(new NavigationRoute(createHandlerBoundToURL("./")));
