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
  matchPrecache,
  precacheAndRoute,
} from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";

// Where a first visit's page leaves a copy of the big runtime files it has just
// downloaded (index.html writes it; the name is repeated there).
const HANDOFF = "ocho-loco-handoff";

self.skipWaiting();
clientsClaim();

// While the host answers, requests under vendor/ (PyScript and Pyodide) go to
// the browser's HTTP cache instead of the precache: Chrome keeps the compiled
// WebAssembly of pyodide.asm.wasm next to the HTTP cache entry, so a repeat
// visit skips compiling 9.6 MB of wasm. vendor/ is bypassed as a whole so that
// the runtime's files always come from one place and stay of one version with
// each other. Registered before Workbox's own fetch listener, which it stops.
//
// "Answers" is checked, not assumed from navigator.onLine, which stays true
// behind a captive portal, on Wi-Fi without internet or during an outage:
// every page load sends one small request to the origin, and until it comes
// back within PROBE_MS the runtime files come from the precache, like offline.
const VENDOR = new URL("vendor/", self.registration.scope).href;
const PROBE_URL = new URL("sw.js", self.registration.scope).href;
const PROBE_MS = 3000;
let hostState = "up"; // "up" | "down" | "probing"; before any page load, trust onLine
let hostAnswers = Promise.resolve(true);

function probeHost() {
  hostState = "probing";
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), PROBE_MS);
  hostAnswers = fetch(`${PROBE_URL}?sonda=${Date.now()}`, { cache: "no-store", signal: abort.signal })
    .then((response) => response.ok, () => false)
    .then((up) => {
      clearTimeout(timer);
      hostState = up ? "up" : "down";
      return up;
    });
}

async function fromPrecacheFirst(request, up) {
  if (up) return fetch(request);
  return (await matchPrecache(request.url)) || fetch(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.mode === "navigate") {
    probeHost(); // the page itself comes from the precache (below), whatever the host does
    return;
  }
  if (!request.url.startsWith(VENDOR) || !self.navigator.onLine || hostState === "down") {
    return; // Workbox answers from the precache
  }
  event.stopImmediatePropagation();
  if (hostState === "probing") {
    event.respondWith(hostAnswers.then((up) => fromPrecacheFirst(request, up)));
  }
  // "up": no respondWith, so the browser fetches it itself (HTTP cache and compiled wasm).
});

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
    // Installing: a file the page has just downloaded and handed over (checked
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
