// The page's side of the worker mode (docs/worker.md): Python runs in a Web Worker (ui/worker.py)
// and this module, on the main thread, forwards events to it and applies the batches of DOM
// operations it answers with (ui/batch.py lists them). It also does what only the page can:
// localStorage and the Web Lock on the save, dialogs, focus, the clipboard, the address, files.
// No rule of the game lives here. If the worker cannot start, the page starts today's
// main-thread mode instead (index.html's <script type="py">), saying nothing.
import { PyWorker } from "../vendor/pyscript/core.js";
import { merge } from "./merge.js";

const $ = (id) => document.getElementById(id);
const body = document.body;
const PREFIX = "ocho-loco:";
const SAVE = PREFIX + "partida";
const PICTURED = new Set(["human", "chooser", "cpu", "results", "gameover"]);
const REPLAY_KEYS = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"};
const ACTIVATION_KEYS = new Set(["Enter", " ", "Spacebar", "Escape"]);
const NOT_SKIPPING = new Set(["Tab", "Shift", "Control", "Alt", "Meta", "Escape"]);
const locks = navigator.locks && navigator.locks.request ? navigator.locks : null;
let sync = null;
let storage = null;  // localStorage, or null when the browser refuses it
let maxImport = 0;
let pictureDue = false;
let handDrawn = null;  // the hand as last drawn: [markup, cards]

// -- localStorage -----------------------------------------------------------------------------

function openStorage() {
  let writable = true;
  try {
    storage = window.localStorage;
    storage.getItem(SAVE);
  } catch (err) {
    storage = null;
    return false;
  }
  try {
    storage.setItem(PREFIX + "prueba", "1");
    storage.removeItem(PREFIX + "prueba");
  } catch (err) {
    writable = false;
  }
  return writable;
}

// The site's keys as they are now (the worker's copy of them is refreshed from this).
function stored() {
  if (!storage) return null;
  const keys = {};
  try {
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key && key.startsWith(PREFIX)) keys[key] = storage.getItem(key);
    }
  } catch (err) { /* storage gone: the copy stays as it was */ }
  return keys;
}

// One write the worker asked for; false if the browser refused it (storage full).
function store(key, value) {
  if (!storage) return true;
  try {
    if (value === null) storage.removeItem(key);
    else storage.setItem(key, value);
    return true;
  } catch (err) {
    return false;
  }
}

// The picture of the table drawn at first paint (index.html), taken after the save it belongs to.
function storePicture() {
  pictureDue = false;
  const began = performance.now();
  try {
    takePicture();
  } finally {
    const seen = window.ochoLocoApplied;
    if (Array.isArray(seen)) seen.push([performance.now() - began, "picture"]);
  }
}

function takePicture() {
  if (!storage || !PICTURED.has(body.dataset.state) || !window.ochoLocoPicture) return;
  try {
    const save = storage.getItem(SAVE);
    if (save !== null) storage.setItem(window.ochoLocoPicture.key, window.ochoLocoPicture.take(save));
  } catch (err) { /* a nicety: the save is what counts */ }
}

// -- calls into the worker, and their batches --------------------------------------------------

// Batches show in the order the worker sent them: each waits for the one before it.
let queue = Promise.resolve();
let refocused = null;  // what the page focused itself while settling this batch
// What a batch does once its writes are on the screen, in order: open or close its dialogs, move the
// focus, scroll the table into view. Each of these makes the browser work out the style and layout
// of the page there and then; done while writing, they made one long task of every batch (a whole
// page's style again for a dialog), during which the page could not answer a tap.
let steps = [];
let focusing = null;  // the id the batch being written asks to focus
const OPENED = "opened";

async function call(name, ...args) {
  const ops = JSON.parse(await sync[name](...args));
  const turn = queue.then(() => show(ops));
  queue = turn.catch((err) => console.error(err));
  await turn;
}

function later(promise) {
  promise.catch((err) => console.error(err));
}

// One batch. A batch that saves (a ``lock`` operation) waits for the Web Lock on the save and then
// shows whole, its new state included, in the same task as the save's write: whoever sees the table
// finds it saved, and the state never says more than the table shows (as on the main thread).
async function show(ops) {
  const tokens = ops.filter((op) => op[0] === "lock").map((op) => op[1]);
  const writes = ops.filter((op) => op[0] !== "lock");
  // Its writes go with its first save, under the lock, or on their own if it saves nothing.
  let refused = tokens.length ? [] : apply(writes);
  for (const [i, token] of tokens.entries()) {
    refused = refused.concat(await locked(token, i === 0 ? writes : null));
  }
  await settle();
  // The browser refused a write: the worker's copy goes back to what is stored, and it says so.
  if (refused.length) {
    const answer = await sync.event(JSON.stringify({today: today(), kind: "store-failed", keys: refused, storage: stored()}));
    await show(JSON.parse(answer));
  }
}

// The save's read-compare-write: the worker runs it against the keys read under the Web Lock, and
// the page applies ``before`` (the batch that asked for the save) and the writes before the lock
// goes (as ui/dom.py's lock did on the main thread). Resolves with the keys the browser refused.
function locked(token, before) {
  let started = false;
  const run = async () => {
    started = true;
    const ops = JSON.parse(await sync.locked(token, JSON.stringify(stored())));
    return apply(before ? before.concat(ops) : ops);
  };
  if (!locks) return run();
  return locks.request(SAVE, run).catch((err) => {
    if (started) throw err;
    return run();  // no Web Lock here after all (an opaque origin): as without one
  });
}

// Apply one batch in one go; the keys whose writes the browser refused.
function apply(ops) {
  const began = performance.now();
  try {
    return applyAll(ops);
  } finally {
    // Read by python -m lab.worker_bench (which sets the array): each batch's kinds and time here.
    const seen = window.ochoLocoApplied;
    if (Array.isArray(seen)) seen.push([performance.now() - began, ops.map((op) => op[0] + ":" + op[1]).join(" ")]);
  }
}

// The batch's steps, in a task of their own once its writes are painted (at once in a hidden tab,
// which paints nothing). Until they are done the page is still answering: body[data-answering].
async function settle() {
  if (!steps.length) return;
  hold();
  try {
    await painted();
    const now = steps;
    steps = [];
    const asked = focusing;
    focusing = null;
    // A modal panel that opens is a task of its own: the browser styles the whole page again for it
    // (everything else becomes inert), and the steps after it wait for the next task.
    for (const [i, step] of now.entries()) {
      if (step(asked) === OPENED && i + 1 < now.length && document.visibilityState === "visible") {
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    }
    // A control the page focused in place of one redrawn stays in view once everything is laid out.
    if (refocused && refocused === document.activeElement && !refocused.closest("dialog")) keepInView(refocused);
  } finally {
    refocused = null;
    release();
  }
}

function painted() {
  if (document.visibilityState !== "visible") return Promise.resolve();
  return new Promise((resolve) => {
    const guard = setTimeout(resolve, 200);  // a frame that does not come (the tab was just hidden)
    requestAnimationFrame(() => setTimeout(() => {
      clearTimeout(guard);
      resolve();
    }, 0));
  });
}

function applyAll(ops) {
  const refused = [];
  const timers = [];  // set once the whole batch is written: a pause counts from what it shows
  for (const op of ops) {
    const [kind, a, b, c] = op;
    if (kind === "html") html(a, b);
    else if (kind === "text") text(a, b);
    else if (kind === "attr") attr(a, b, c);
    else if (kind === "dialog") steps.push((asked) => dialog(a, b, asked));
    else if (kind === "state") showState(a);
    else if (kind === "status") $("status").textContent = a;
    else if (kind === "notice") notice(a);
    else if (kind === "later") timers.push([a, b]);
    else if (kind === "hash") setHash(a);
    else if (kind === "copy") copy(a);
    else if (kind === "focus") {
      steps.push(() => focus(a));
      focusing = a;
    }
    else if (kind === "timing") (window.ochoLocoTimings = window.ochoLocoTimings || []).push(a);
    // After a refused write, a removal in the same batch is not made: it may be what the write
    // was for (a save set aside and then taken out of its slot), and the worker redoes it knowing.
    else if (kind === "store" && refused.length && b === null) continue;
    else if (kind === "store" && !store(a, b)) refused.push(a);
    else if (kind === "download") download(a, b);
    else if (kind === "data") body.dataset[a] = b;
    else if (kind === "config") maxImport = a.max_import;
  }
  unpress();  // the answer to a tap, if it was one, is on the table now
  for (const [ms, token] of timers) setTimeout(() => later(call("fire", token)), ms);
  return refused;
}

function unpress() {
  for (const el of document.querySelectorAll("#mesa .pressed")) el.classList.remove("pressed");
}

function showState(name) {
  if (state(name) && storage && !pictureDue) {
    pictureDue = true;  // once this batch has drawn everything, after the save it asked for
    if (locks) locks.request(SAVE, storePicture).catch(storePicture);
    else setTimeout(storePicture, 0);
  }
}

// -- the DOM ----------------------------------------------------------------------------------

function beforeRedraw() {
  if (window.ochoLocoMotion) window.ochoLocoMotion.snap();
}

// What this page last wrote into each element: the table draws every part after each action,
// and a part that did not change is not written again (no style or layout work for it).
const written = new Map();
// Parts with nothing to focus, redrawn after every move: only what changed in them is written (a CPU
// that plays takes one card back out of its fan instead of every seat and every back drawn anew).
const MERGED = new Set(["opponents", "discard", "active-suit", "move-log", "scoreboard"]);

function html(id, markup) {
  const el = $(id);
  if (id !== "hand" && written.get(id) === markup) return;
  written.set(id, markup);
  beforeRedraw();
  if (id === "hand") {
    if (handDrawn && handDrawn[0] === markup && handDrawn[1] === el.childElementCount) return;
    replaceKeepingFocus(el, markup);
    handDrawn = [markup, el.childElementCount];
  } else if (MERGED.has(id)) {
    merge(el, markup);
  } else {
    el.innerHTML = markup;
  }
  steps.push(rescueFocus);
}

function text(id, words) {
  const el = $(id);
  if (el.textContent !== words) el.textContent = words;
  written.delete(id);
}

function attr(id, name, value) {
  const el = $(id);
  if (name !== "checked" && el.getAttribute(name) === value) return;
  if (name === "checked") {
    el.checked = value !== null;  // the live state of a radio, not its default
  } else if (value === null) {
    el.removeAttribute(name);
  } else {
    el.setAttribute(name, value);
    if (name === "disabled" || name === "hidden") steps.push(rescueFocus);
  }
}

// Opens or closes a panel; OPENED when it opened. A panel opens with the focus on ``asked`` (the id
// its batch focuses) if that is inside it: one focus move, not one to its first control and another.
function dialog(id, show, asked) {
  const el = $(id);
  if (show && !el.open) {
    const target = asked && $(asked);
    const into = target && el.contains(target) ? target : null;
    const autofocus = into ? [...el.querySelectorAll("[autofocus]")] : [];
    for (const other of autofocus) other.removeAttribute("autofocus");
    if (into) into.setAttribute("autofocus", "");
    el.showModal();
    if (into) into.removeAttribute("autofocus");
    for (const other of autofocus) other.setAttribute("autofocus", "");
    el.scrollTop = 0;  // a tall panel on a phone opens at its title
    return OPENED;
  }
  if (!show && el.open) el.close();
  return null;
}

function state(name) {
  body.dataset.state = name;
  if (name === "human") steps.push(() => { if (atTheTable()) showTable(); });
  return PICTURED.has(name);
}

function notice(text) {
  const el = $("notice");
  if (text) {
    const p = document.createElement("p");
    p.setAttribute("role", "alert");
    p.textContent = text;
    el.replaceChildren(p);
    el.hidden = false;
  } else {
    el.replaceChildren();
    el.hidden = true;
  }
}

function setHash(fragment) {
  if (location.hash !== fragment) history.replaceState(null, "", fragment || location.pathname + location.search);
}

function copy(text) {
  try {
    navigator.clipboard.writeText(text).catch(() => {});
  } catch (err) { /* no clipboard: the status bar shows the link */ }
}

function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], {type: "application/json"}));
  const link = Object.assign(document.createElement("a"), {href: url, download: name});
  body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// Never leave the focus on <body> or on a control that was just disabled or removed.
function rescueFocus() {
  const active = document.activeElement;
  if (active && active !== body && !active.disabled && active.isConnected) return;
  for (const selector of ["#hand button.card.legal", "#main-btn:not([disabled])", "#hand button.card", "#mesa"]) {
    const target = document.querySelector(selector);
    if (target) {
      target.focus();
      refocused = target;
      return;
    }
  }
}

// The same cards: their attributes follow, the elements (and the focus) stay. Else false.
function updateInPlace(el, markup) {
  const template = document.createElement("template");
  template.innerHTML = markup;
  const fresh = [...template.content.children];
  const old = [...el.children];
  if (fresh.length !== old.length) return false;
  if (old.some((a, i) => a.getAttribute("data-card") !== fresh[i].getAttribute("data-card") ||
      a.tagName !== fresh[i].tagName)) return false;
  old.forEach((now, i) => {
    const wanted = fresh[i];
    if (now.innerHTML !== wanted.innerHTML) now.innerHTML = wanted.innerHTML;
    const names = new Set([...wanted.getAttributeNames(), ...now.getAttributeNames()]);
    for (const name of names) {
      const value = wanted.getAttribute(name);
      if (value === null) now.removeAttribute(name);
      else if (now.getAttribute(name) !== value) now.setAttribute(name, value);
    }
  });
  return true;
}

function replaceKeepingFocus(el, markup) {
  if (updateInPlace(el, markup)) return;
  const active = document.activeElement;
  let card = null;
  let index = -1;
  if (active && el.contains(active) && active.getAttribute("data-card")) {
    card = active.getAttribute("data-card");
    index = [...el.querySelectorAll("button.card")].indexOf(active);
  }
  el.innerHTML = markup;
  if (card === null) return;
  let target = el.querySelector(`button[data-card="${card}"]`);
  if (!target) {
    const buttons = el.querySelectorAll("button.card");
    if (buttons.length) target = buttons[Math.min(Math.max(index, 0), buttons.length - 1)];
  }
  const next = target || $("main-btn");
  steps.push(() => {
    if (!next.isConnected) return;  // redrawn again in the same batch: rescued instead
    refocused = next;
    next.focus();
  });
}

function atTheTable() {
  const active = document.activeElement;
  return !active || active === body || $("mesa").contains(active);
}

// Scroll the least that shows all of el in the window (and in frame, a panel, if given).
function keepInView(el, frame) {
  const box = el.getBoundingClientRect();
  let top = 0;
  let bottom = innerHeight;
  if (frame) {
    const edges = frame.getBoundingClientRect();
    top = Math.max(top, edges.top);
    bottom = Math.min(bottom, edges.bottom);
  }
  if (box.top < top || box.bottom > bottom) el.scrollIntoView({block: "nearest", behavior: "instant"});
}

// The table from the pile to the main button: the felt whole when it fits, else its play part.
function showTable() {
  const felt = document.querySelector(".felt");
  const pile = $("pile");
  if (!felt || !pile) return;
  const whole = felt.getBoundingClientRect();
  if (whole.bottom - whole.top <= innerHeight) {
    if (whole.top >= 0 && whole.bottom <= innerHeight) return;
    const fits = whole.top >= 0 && whole.bottom - whole.top <= innerHeight;
    scrollBy({top: fits ? whole.bottom - innerHeight : whole.top, behavior: "instant"});
    return;
  }
  const top = pile.getBoundingClientRect().top;
  const bottom = whole.bottom;
  if (top >= 0 && bottom <= innerHeight) return;
  scrollBy({top: bottom - top <= innerHeight ? bottom - innerHeight : top, behavior: "instant"});
}

function focus(id) {
  const el = $(id);
  if (!el) return;
  if (el.closest(".dialog-actions")) {
    // A panel's buttons stick to its bottom: the panel stays at its title unless they are out of sight.
    el.focus({preventScroll: true});
    keepInView(el, el.closest("dialog"));
  } else if (!el.closest(".felt")) {
    el.focus();
    keepInView(el);
  } else {
    el.focus({preventScroll: true});  // on the table: the pile, the hand and the button together
    showTable();
    keepInView(el);
  }
}

// -- events, forwarded ------------------------------------------------------------------------

function today() {
  const now = new Date();
  const two = (n) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
}

// Until the worker's answer to an action is shown, its focus and dialogs included,
// body[data-answering] says so (the main-thread mode answers within the event itself).
let answering = 0;

function hold() {
  answering++;
  body.dataset.answering = "1";
}

function release() {
  if (--answering === 0) delete body.dataset.answering;
}

function send(event) {
  hold();
  later(call("event", JSON.stringify({today: today(), ...event})).finally(release));
}

function players() {
  const checked = document.querySelector('input[name="table-size"]:checked');
  return checked && checked.value === "3" ? 3 : 2;
}

function onClick(event) {
  const target = event.target;
  const hit = target && target.closest ? target.closest("button") : null;
  if (!hit) {
    if (target && target.closest && target.closest("#replace-dialog")) $("replace-no").focus();
    return;
  }
  const twice = (event.detail || 1) > 1;
  if (hit.dataset.card && hit.closest("#hand") && twice) return;  // a double click's tail: not a move
  if (hit.id === "replace-yes" && twice) {
    $("replace-no").focus();  // throwing a game away takes its own click
    return;
  }
  if (hit.id === "import-btn") {
    $("import-file").click();
    return;
  }
  const where = hit.closest("#hand") ? "hand" : hit.closest("#suit-dialog") ? "suit" : "";
  // A move is answered at once: the card or button looks pressed until the worker's answer shows.
  if (hit.id === "main-btn" || hit.id === "stock" || (where === "hand" && hit.classList.contains("legal"))) {
    hit.classList.add("pressed");
  }
  send({
    kind: "click", id: hit.id, card: hit.dataset.card || "", suit: hit.dataset.suit || "", where,
    players: players(), name: hit.id === "challenge-btn" ? $("challenge-name").value : "",
    step: hit.dataset.step || "", by_key: event.detail === 0,
  });
}

function onHandKey(event) {
  const keys = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"];
  if (!keys.includes(event.key)) return;
  const buttons = [...$("hand").querySelectorAll("button.card")];
  const current = buttons.indexOf(document.activeElement);
  if (current < 0) return;
  let target = event.key === "Home" ? 0 : event.key === "End" ? buttons.length - 1 : current;
  if (event.key === "ArrowLeft" || event.key === "ArrowUp") target = Math.max(current - 1, 0);
  if (event.key === "ArrowRight" || event.key === "ArrowDown") target = Math.min(current + 1, buttons.length - 1);
  event.preventDefault();
  buttons[target].focus();
}

function onImport(event) {
  const field = event.target;
  const chosen = field.files && field.files[0];
  if (!chosen) return;
  field.value = "";
  if (chosen.size > maxImport) send({kind: "import", size: chosen.size});
  else chosen.text().then((text) => send({kind: "import", size: text.length, text}));
}

function listen() {
  const on = (el, name, handler, capture = false) => el.addEventListener(name, handler, capture);
  const prevented = (kind) => (event) => {
    event.preventDefault();
    if (kind) send({kind});
  };
  on(window, "keydown", (event) => {
    if (event.repeat && ACTIVATION_KEYS.has(event.key)) {  // a held key presses nothing again
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);
  on($("mesa"), "click", onClick);
  on($("hand"), "keydown", onHandKey);
  on($("import-file"), "change", onImport);
  on($("suit-dialog"), "cancel", prevented("suit-cancel"));
  on($("results-dialog"), "cancel", prevented(""));
  on($("replace-dialog"), "cancel", prevented("replace-cancel"));
  on($("replay-dialog"), "cancel", prevented("replay-cancel"));
  on($("results-dialog"), "keydown", (event) => {
    // While the points are being counted any key shows the whole count.
    if ($("results-skip").hidden || NOT_SKIPPING.has(event.key)) return;
    event.preventDefault();
    send({kind: "results-key"});
  });
  on($("pace-choice"), "change", (event) => send({kind: "pace", value: event.target.value}));
  on($("level-choice"), "change", (event) => send({kind: "level", value: event.target.value}));
  on($("mode-choice"), "change", (event) => send({kind: "size", value: event.target.value}));
  on($("results-dialog"), "close", () => send({kind: "results-close"}));
  on($("replay-dialog"), "keydown", (event) => {
    const where = REPLAY_KEYS[event.key];
    if (!where) return;
    event.preventDefault();
    send({kind: "replay-key", where});
  });
  on(window, "storage", (event) => {
    if (event.key && event.key.startsWith(PREFIX)) send({kind: "storage", key: event.key, value: event.newValue});
  });
  on(window, "hashchange", () => send({kind: "hash", hash: location.hash}));
}

// -- start ------------------------------------------------------------------------------------

function seed() {
  return [...crypto.getRandomValues(new Uint32Array(4))];
}

function fallback() {
  // No worker here: today's main-thread mode, started as index.html would have.
  const script = document.createElement("script");
  script.type = "py";  // with the config of index.html's <py-config>
  script.textContent = "from ui.main import start\nstart()\n";
  body.dataset.motor = "main";
  if (window.ochoLocoMarkup) window.ochoLocoMarkup.resume();  // PyScript watches the page again
  body.append(script);
}

// A first visit: the service worker precaches the site (taking the page's copies of the runtime's big
// files, see index.html's head) and takes control before Python's worker starts, so the worker reads
// every file from the precache and nothing is downloaded twice. Without a service worker, at once.
async function controlled() {
  const sw = navigator.serviceWorker;
  if (!sw || sw.controller || !window.ochoLocoRegister) return;
  const registration = await window.ochoLocoRegister();
  if (!registration) return;
  await new Promise((resolve) => {
    sw.addEventListener("controllerchange", resolve, {once: true});
    const installing = registration.installing || registration.waiting;
    if (installing) {
      installing.addEventListener("statechange", () => {
        if (installing.state === "redundant") resolve();  // it failed: the network, as without one
      });
    }
    if (sw.controller || (!installing && !registration.active)) resolve();
  });
}

// A browser pays more for the first results panel of a page (styles met, text sizes and glyphs looked
// up for the first time) than for the next ones: on a slow phone that made the task that opens it
// long. While Python starts, in idle moments, the page lays out a made-up results list (index.html's
// template) a part at a time, then the rest of the results panel, out of sight: each step a task of
// its own. (An empty modal panel opened and closed here saved the first real one too little for the
// long task it cost: docs/worker.md.)
function warmUp() {
  const idle = window.requestIdleCallback || ((fn) => setTimeout(fn, 40));
  const done = window.ochoLocoWarm = [];  // the steps done, for the tests
  const layOut = (name, parts) => () => {
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
  const panel = $("results-dialog").cloneNode(true);
  for (const el of panel.querySelectorAll("[id]")) el.removeAttribute("id");
  for (const el of panel.querySelectorAll("[hidden]")) el.removeAttribute("hidden");
  for (const el of panel.querySelectorAll("[for]")) el.removeAttribute("for");
  const list = panel.querySelector(".results-body");
  list.remove();
  // The made-up list a part at a time (the end of the game, each player's row, the totals): the
  // first time a text size or a font is met costs most, and one step for all of it could go long.
  const pieces = [...$("results-sample").content.cloneNode(true).children].map((piece, i, all) => {
    const holder = list.cloneNode(false);
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
  await controlled();
  const here = (path) => new URL(path, location.href).href;
  // A worker that cannot start may only say so as an unhandled rejection (a file it could not fetch).
  let stop = null;
  const failed = new Promise((_, reject) => { stop = reject; });
  const refused = (event) => stop(event.reason);
  addEventListener("unhandledrejection", refused);
  try {
    const worker = PyWorker(here("assets/worker-start.py"), {
      type: "pyodide",
      version: here("vendor/pyodide/pyodide.mjs"),
      config: {files: {[here("app.zip")]: "./*"}},
    });
    ({sync} = await Promise.race([worker, failed]));
    await Promise.race([sync.fire(0), failed]);  // the table's Python is listening
  } catch (err) {
    sync = null;
    console.warn("Ocho Loco: no worker, Python runs on the page.", err);
    fallback();
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
  if (matchMedia("(min-width: 900px)").matches) $("log-panel").open = true;  // folded on phones
  for (const id of ["deal-btn", "daily-btn", "export-btn", "import-btn"]) $(id).disabled = false;
  $("loading").hidden = true;
  const begun = JSON.stringify({
    storage: storage ? stored() : null, writable, locks: !!locks, hash: location.hash,
    url: location.href, today: today(), reduced: matchMedia("(prefers-reduced-motion: reduce)").matches,
    seed: seed(), early: taken,
  });
  await call("start", begun);  // ready once its batch shows, saved, as on the main thread
  if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => {});
  document.querySelector("#mesa .board").removeAttribute("aria-busy");
  body.removeAttribute("data-picture");
  body.dataset.ready = "1";
  body.dataset.motor = "worker";
  dispatchEvent(new Event("ocho-loco:ready"));
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
  request.onupgradeneeded = () => request.transaction.abort();  // never makes the database itself
  request.onerror = (event) => event.preventDefault();
  request.onsuccess = () => {
    const db = request.result;
    db.onversionchange = () => {
      db.close();
      later(call("gamesClosed").then(watchGames));
    };
  };
}

start().catch((err) => console.error(err));
