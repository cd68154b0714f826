// The page's side of the worker (docs/worker.md), and its entry point: Python runs in a Web Worker
// (ui/worker.py) and this module starts it and hands it the page's state; its rooms (listed below)
// then forward events to it and apply the batches of DOM operations it answers with (ui/protocol.py
// declares both). The page alone does what only it can: localStorage and the Web Lock on the save,
// dialogs, focus, the clipboard, the address, files. No rule of the game lives here, and no other
// code writes the document once Python is ready. If the worker cannot start, the loading box says
// so in Spanish (the rules stay readable below).
//
// Its rooms: assets/batches.js (calls and batches), assets/operations.js (what each operation writes),
// assets/focus.js (focus and scrolling), assets/sheets.js (the table's sheets), assets/intents.js
// (the player's input, sent as intents), assets/storage.js (localStorage and the table's picture),
// assets/dom.js (elements by id, and the probe).
//
// @ts-ignore: PyScript's bundle is copied into vendor/ by the build; it has no types here.
import { PyWorker } from "../vendor/pyscript/core.js";
import { watchSnapshot } from "./snapshot-keeper.js";
import { call, later, setSync } from "./batches.js";
import { $, body, probe } from "./dom.js";
import { listen, today } from "./intents.js";
import { locks, openStorage, storage, stored } from "./storage.js";
// The rest of the page's modules, named here too: the browser asks for all of them as soon as it has
// read this file, instead of one import level after another.
import "./focus.js";
import "./merge.js";
import "./motion.js";
import "./operations.js";
import "./sheets.js";
import "./sound.js";

/** @typedef {import("./protocol").Start} Start */
/** @typedef {import("./protocol").Calls} Calls */

function seed() {
  return [...crypto.getRandomValues(new Uint32Array(4))];
}

// No worker here (a browser too old for module workers, or one that refused the runtime's files):
// the loading box says so instead of waiting for ever. Nothing is lost: the save stays stored.
function cannotStart() {
  const box = $("loading");
  /** @type {HTMLElement} */ (box.querySelector(".loading-title")).textContent = "Este navegador no puede arrancar el juego";
  $("loading-detail").textContent = "El motor de reglas necesita una versión reciente de Chrome, Edge, " +
    "Firefox o Safari. Tu partida guardada sigue aquí; las reglas de abajo se pueden leer igualmente.";
  box.hidden = false;
  $("status").textContent = "No se puede empezar: este navegador no puede arrancar el motor del juego.";
}

// A first visit starts Python's worker at once, with no service worker yet: the worker downloads the
// runtime itself and keeps copies of the big files for the service worker's install, which the page
// registers once Python is ready (assets/runtime.js, assets/inline/head.js and sw-register.js). The
// handoff cache made here is what tells the worker it is a first visit. Its downloads wait for the
// first contentful paint (at most 3 s, for a tab opened in the background): begun before it, 10 MB
// on a slow network would hold the paint back, and Lighthouse's simulated paint counted them
// (docs/worker.md, 2026-12-03).
async function firstVisit() {
  const sw = navigator.serviceWorker;
  if (!sw || sw.controller || typeof caches === "undefined") return;
  const painted = new Promise((resolve) => {
    setTimeout(resolve, 3000);
    try {
      new PerformanceObserver((list) => {
        if (list.getEntries().some((entry) => entry.name === "first-contentful-paint")) resolve(null);
      }).observe({type: "paint", buffered: true});
    } catch (err) {
      resolve(null);
    }
  });
  await Promise.all([caches.open("ocho-loco-handoff").catch(() => null), painted]);
}

// A browser pays more for the first results panel of a page (styles met, text sizes and glyphs looked
// up for the first time) than for the next ones: on a slow phone that made the task that opens it
// long. While Python starts, in idle moments, the page lays out a made-up results list (index.html's
// template) a part at a time, then the rest of the results panel, out of sight: each step a task of
// its own. (An empty modal panel opened and closed here saved the first real one too little for the
// long task it cost: docs/worker.md.)
function warmUp() {
  const idle = window.requestIdleCallback || ((fn) => setTimeout(fn, 40));
  /** @type {string[]} */
  const done = probe ? (probe.warm ||= []) : [];  // the steps done, for the tests
  const layOut = (/** @type {string | null} */ name, /** @type {Node[]} */ parts) => () => {
    const box = document.createElement("div");
    box.className = "dialog dialog-wide warm-up";
    box.setAttribute("aria-hidden", "true");
    box.append(...parts);
    body.append(box);
    box.getBoundingClientRect();  // styled and laid out now, in this task
    box.remove();
    if (name) done.push(name);
  };
  // The panel with every part shown (the challenge's box too), without its ids.
  const panel = /** @type {HTMLElement} */ ($("results-dialog").cloneNode(true));
  for (const el of panel.querySelectorAll("[id]")) el.removeAttribute("id");
  for (const el of panel.querySelectorAll("[hidden]")) el.removeAttribute("hidden");
  for (const el of panel.querySelectorAll("[for]")) el.removeAttribute("for");
  const list = /** @type {HTMLElement} */ (panel.querySelector(".results-body"));
  list.remove();
  // The made-up list a part at a time (the end of the game, each player's row, the totals): the
  // first time a text size or a font is met costs most, and one step for all of it could go long.
  const sample = /** @type {HTMLTemplateElement} */ ($("results-sample"));
  const pieces = [.../** @type {DocumentFragment} */ (sample.content.cloneNode(true)).children].map((piece, i, all) => {
    const holder = /** @type {HTMLElement} */ (list.cloneNode(false));
    holder.append(piece);
    return layOut(i === all.length - 1 ? "results" : null, [holder]);
  });
  const steps = [...pieces, layOut("panel", [...panel.childNodes])];
  const next = () => {
    const step = steps.shift();
    if (step) idle(() => { step(); next(); });  // no deadline: a busy page is not warmed
  };
  next();
}

async function start() {
  warmUp();
  await firstVisit();
  const here = (/** @type {string} */ path) => new URL(path, location.href).href;
  // A worker that cannot start may only say so as an unhandled rejection (a file it could not fetch).
  /** @type {(reason: unknown) => void} */
  let stop = () => {};
  const failed = new Promise((_, reject) => { stop = reject; });
  const snapshot = watchSnapshot(probe);  // a return visit restores Python from it (assets/snapshot.js)
  const refused = (/** @type {PromiseRejectionEvent} */ event) => stop(event.reason);
  addEventListener("unhandledrejection", refused);
  // For the tests: when Python's worker was made, and whether a service worker controlled the page.
  if (probe) probe.worker = {at: performance.now(), controlled: !!navigator.serviceWorker?.controller};
  try {
    const worker = PyWorker(here("assets/worker-start.py"), {
      type: "pyodide",
      // Pyodide's loadPyodide from a snapshot made on this device when there is one (assets/snapshot.js),
      // through assets/runtime.js (the runtime's folder, a first visit's handoff, and app.zip.xz, the
      // page's Python, downloaded while Pyodide starts and unpacked once it is up)
      version: here("assets/snapshot.js"),
      config: {},
    });
    const started = /** @type {{sync: Calls}} */ (await Promise.race([worker, failed]));
    setSync(started.sync);
    await Promise.race([started.sync.fire(0), failed]);  // the table's Python is listening
  } catch (err) {
    setSync(null);
    console.warn("Ocho Loco: the worker could not start.", err);
    cannotStart();
    return;
  } finally {
    removeEventListener("unhandledrejection", refused);
  }
  const writable = openStorage();
  const early = window.ochoLocoEarly;
  let taken = null;
  if (early) {
    early.taken = true;  // from now on these listeners answer
    taken = {choice: early.choice || null, click: early.click || null};
  }
  listen();
  if (matchMedia("(min-width: 900px)").matches) /** @type {HTMLDetailsElement} */ ($("log-panel")).open = true;  // folded on phones
  for (const id of ["deal-btn", "daily-btn", "export-btn", "import-btn"]) /** @type {HTMLButtonElement} */ ($(id)).disabled = false;
  $("loading").hidden = true;
  /** @type {Start} */
  const begun = {
    storage: storage ? stored() : null, writable, locks: !!locks, hash: location.hash,
    url: location.href, today: today(), reduced: matchMedia("(prefers-reduced-motion: reduce)").matches,
    seed: seed(), early: taken, probe: !!probe,
  };
  await call("start", JSON.stringify(begun));  // ready once its batch shows, saved
  if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => {});
  $("mesa").querySelector(".board")?.removeAttribute("aria-busy");
  if (probe) probe.picture = false;
  body.dataset.ready = "1";
  dispatchEvent(new Event("ocho-loco:ready"));
  snapshot.keep();
  await call("games");
  watchGames();
}

// «Tus partidas» deleted from another tab (indexedDB.deleteDatabase): this connection hears the
// deletion's versionchange, closes, and the worker closes its own store, lets the deletion through
// and writes back every game it holds (ui/worker.py); a result kept meanwhile is never lost.
const GAMES_DB = "IDBMap/@pyscript/ocho-loco-partidas";
function watchGames() {
  if (!window.indexedDB) return;
  const request = indexedDB.open(GAMES_DB);
  request.onupgradeneeded = () => request.transaction?.abort();  // never makes the database itself
  request.onerror = (event) => event.preventDefault();
  request.onsuccess = () => {
    const db = request.result;
    db.onversionchange = () => {
      db.close();
      later(call("gamesClosed").then(watchGames));
    };
  };
}

// A new deployment's service worker took over (assets/inline/sw-register.js heard it, perhaps before
// this module ran): «Nueva versión», with a button to reload, in a box of its own beside Python's
// notices, which the table's batches write and clear.
function updateNotice() {
  if (document.getElementById("update-notice")) return;
  const box = document.createElement("div");
  box.id = "update-notice";
  box.className = "notice";
  const line = document.createElement("p");
  const title = document.createElement("strong");
  const button = document.createElement("button");
  line.setAttribute("role", "status");
  title.textContent = "Nueva versión";
  Object.assign(button, {type: "button", className: "btn btn-secondary", textContent: "Recargar"});
  button.addEventListener("click", () => location.reload());
  line.append(title, " de la página lista; tu partida está guardada. ", button);
  box.append(line);
  $("notice").after(box);
}

if (window.ochoLocoUpdated) updateNotice();
addEventListener("ocho-loco:updated", updateNotice);
start().catch((err) => console.error(err));
