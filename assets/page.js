// The page's side of the worker (docs/worker.md): Python runs in a Web Worker (ui/worker.py)
// and this module, on the main thread, forwards events to it and applies the batches of DOM
// operations it answers with (ui/protocol.py declares both). It also does what only the page can:
// localStorage and the Web Lock on the save, dialogs, focus, the clipboard, the address, files.
// No rule of the game lives here, and no other code writes the document once Python is ready. If
// the worker cannot start, the loading box says so in Spanish (the rules stay readable below).
// @ts-ignore: PyScript's bundle is copied into vendor/ by the build; it has no types here.
import { PyWorker } from "../vendor/pyscript/core.js";
import { merge, mergeNodes, parse } from "./merge.js";
import { noteFlights, snap } from "./motion.js";
import { watchSnapshot } from "./snapshot-keeper.js";

/** @typedef {import("./protocol").Op} Op */
/** @typedef {import("./protocol").PageEvent} PageEvent */
/** @typedef {import("./protocol").Intent} Intent */
/** @typedef {import("./protocol").ReplayStep} ReplayStep */
/** @typedef {import("./protocol").Start} Start */
/** @typedef {import("./protocol").Calls} Calls */

/** An element of index.html by its id (every id the worker names is there: tests/test_ui_ids.py). */
const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** A panel of index.html by its id. */
const dialogOf = (/** @type {string} */ id) => /** @type {HTMLDialogElement} */ ($(id));
/** An input of index.html by its id. */
const inputOf = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id));
// The one switch for tests and benchmarks: when they set window.ochoLocoProbe = {} before the page
// loads, the page records its figures there (and asks the worker for its own); otherwise nothing.
const probe = window.ochoLocoProbe || null;
if (probe) {
  /** @type {unknown[]} */
  const flights = probe.flights = [];
  noteFlights((flight) => flights.push(flight));  // every card that travels, for the tests
}
const body = document.body;
const PREFIX = "ocho-loco:";
const SAVE = PREFIX + "partida";
/** @type {Record<string, ReplayStep>} */
const REPLAY_KEYS = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"};
const ACTIVATION_KEYS = new Set(["Enter", " ", "Spacebar", "Escape"]);
const NOT_SKIPPING = new Set(["Tab", "Shift", "Control", "Alt", "Meta", "Escape"]);
const locks = navigator.locks && typeof navigator.locks.request === "function" ? navigator.locks : null;
/** @type {Calls | null} */
let sync = null;
/** @type {Storage | null} */
let storage = null;  // localStorage, or null when the browser refuses it
let maxImport = 0;
let pictureDue = false;
let pictured = false;  // the table's state shows a game (the picture is taken only then)
/** @type {[string, number] | null} */
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

/** The site's keys as they are now (the worker's copy of them is refreshed from this). */
function stored() {
  if (!storage) return null;
  /** @type {Record<string, string>} */
  const keys = {};
  try {
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      const value = key && key.startsWith(PREFIX) ? storage.getItem(key) : null;
      if (key && value !== null) keys[key] = value;
    }
  } catch (err) { /* storage gone: the copy stays as it was */ }
  return keys;
}

/**
 * One write the worker asked for; false if the browser refused it (storage full).
 * @param {string} key
 * @param {string | null} value
 */
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
    if (probe) (probe.applied ||= []).push([performance.now() - began, "picture"]);
  }
}

function takePicture() {
  if (!storage || !pictured || !window.ochoLocoPicture) return;
  try {
    const save = storage.getItem(SAVE);
    if (save !== null) storage.setItem(window.ochoLocoPicture.key, window.ochoLocoPicture.take(save));
  } catch (err) { /* a nicety: the save is what counts */ }
}

// -- calls into the worker, and their batches --------------------------------------------------

// Batches show in the order the worker sent them: each waits for the one before it.
let queue = Promise.resolve();
/** @type {HTMLElement | null} */
let refocused = null;  // what the page focused itself while settling this batch
// What a batch does once its writes are on the screen, in order: open or close its dialogs, move the
// focus, scroll the table into view. Each of these makes the browser work out the style and layout
// of the page there and then; done while writing, they made one long task of every batch (a whole
// page's style again for a dialog), during which the page could not answer a tap.
/** @type {((asked: string | null) => unknown)[]} */
let steps = [];
/** @type {string | null} */
let focusing = null;  // the id the batch being written asks to focus
const OPENED = "opened";

/**
 * Call the worker and show the batch it answers with, after the batches before it.
 * @template {keyof Calls} K
 * @param {K} name
 * @param {Parameters<Calls[K]>} args
 */
async function call(name, ...args) {
  const worker = /** @type {Calls} */ (sync);
  /** @type {Op[]} */
  const ops = JSON.parse(await /** @type {(...a: unknown[]) => Promise<string>} */ (worker[name])(...args));
  const turn = queue.then(() => show(ops));
  queue = turn.catch((err) => console.error(err));
  await turn;
}

/** @param {Promise<unknown>} promise */
function later(promise) {
  promise.catch((err) => console.error(err));
}

// One batch. A batch that saves (a ``lock`` operation) waits for the Web Lock on the save and then
// shows whole, its new state included, in the same task as the save's write: whoever sees the table
// finds it saved, and the state never says more than the table shows.
/** @param {Op[]} ops */
async function show(ops) {
  const tokens = ops.flatMap((op) => op[0] === "lock" ? [op[1]] : []);
  const writes = ops.filter((op) => op[0] !== "lock");
  // Its writes go with its first save, under the lock, or on their own if it saves nothing.
  /** @type {string[]} */
  let refused = tokens.length ? [] : apply(writes);
  for (const [i, token] of tokens.entries()) {
    refused = refused.concat(await locked(token, i === 0 ? writes : null));
  }
  await settle();
  // The browser refused a write: the worker's copy goes back to what is stored, and it says so.
  if (refused.length) {
    await show(JSON.parse(await /** @type {Calls} */ (sync).event(message({kind: "store-failed", keys: refused, storage: stored()}))));
  }
}

// The save's read-compare-write: the worker runs it against the keys read under the Web Lock, and
// the page applies ``before`` (the batch that asked for the save) and the writes before the lock
// goes. Resolves with the keys the browser refused.
/**
 * @param {number} token
 * @param {Op[] | null} before
 * @returns {Promise<string[]>}
 */
function locked(token, before) {
  let started = false;
  const run = async () => {
    started = true;
    /** @type {Op[]} */
    const ops = JSON.parse(await /** @type {Calls} */ (sync).locked(token, JSON.stringify(stored())));
    return apply(before ? before.concat(ops) : ops);
  };
  if (!locks) return run();
  return /** @type {Promise<string[]>} */ (/** @type {unknown} */ (locks.request(SAVE, run))).catch((err) => {
    if (started) throw err;
    return run();  // no Web Lock here after all (an opaque origin): as without one
  });
}

/**
 * Apply one batch in one go; the keys whose writes the browser refused.
 * @param {Op[]} ops
 */
function apply(ops) {
  const began = performance.now();
  try {
    return applyAll(ops);
  } finally {
    // Read by python -m lab.worker_bench: each batch's kinds and time here.
    if (probe) (probe.applied ||= []).push([performance.now() - began, ops.map((op) => op[0] + ":" + op[1]).join(" ")]);
  }
}

// The batch's steps, in a task of their own once its writes are painted (at once in a hidden tab,
// which paints nothing). Until they are done the page is still answering (the probe's `answering`).
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
  return new Promise((/** @type {(value?: unknown) => void} */ resolve) => {
    const guard = setTimeout(resolve, 200);  // a frame that does not come (the tab was just hidden)
    requestAnimationFrame(() => setTimeout(() => {
      clearTimeout(guard);
      resolve();
    }, 0));
  });
}

/**
 * @param {Op[]} ops
 * @returns {string[]} the keys whose writes the browser refused
 */
function applyAll(ops) {
  /** @type {string[]} */
  const refused = [];
  /** @type {[number, number][]} */
  const timers = [];  // set once the whole batch is written: a pause counts from what it shows
  // The cards' places before a batch that redraws, for the cards that travel (assets/motion.js).
  if (ops.some((op) => op[0] === "html")) snap();
  for (const op of ops) {
    switch (op[0]) {
      case "html": html(op[1], op[2]); break;
      case "text": text(op[1], op[2]); break;
      case "attr": attr(op[1], op[2], op[3]); break;
      case "dialog": {
        const [, id, open] = op;
        steps.push((asked) => dialog(id, open, asked));
        break;
      }
      case "state": showState(op[1], op[2]); break;
      case "status": $("status").textContent = op[1]; break;
      case "notice": notice(op[1]); break;
      case "later": timers.push([op[1], op[2]]); break;
      case "hash": setHash(op[1]); break;
      case "copy": copy(op[1]); break;
      case "focus": {
        const id = op[1];
        steps.push(() => focus(id));
        focusing = id;
        break;
      }
      case "store":
        // After a refused write, a removal in the same batch is not made: it may be what the write
        // was for (a save set aside and then taken out of its slot), and the worker redoes it knowing.
        if (refused.length && op[2] === null) break;
        if (!store(op[1], op[2])) refused.push(op[1]);
        break;
      case "download": download(op[1], op[2]); break;
      case "config": maxImport = op[1]; break;
      case "probe": if (probe) record(op[1], op[2]); break;
      case "lock": break;  // taken apart by show()
      default: {
        /** @type {never} */
        const unknown = op;  // every declared operation is handled above (tsc checks it)
        console.error("Ocho Loco: unknown operation", unknown);
      }
    }
  }
  // A control this batch hid, disabled, removed or closed held the focus: it goes at once where the
  // batch sends it (the step after the paint scrolls it into view), never to the page in between.
  if (focusing && lostFocus()) document.getElementById(focusing)?.focus({preventScroll: true});
  unpress();  // the answer to a tap, if it was one, is on the table now
  for (const [ms, token] of timers) setTimeout(() => later(call("fire", token)), ms);
  return refused;
}

/**
 * A figure for tests and benchmarks (only with the probe switch on): lists grow, others are set.
 * @param {string} name
 * @param {unknown} value
 */
function record(name, value) {
  if (!probe) return;
  const list = probe[name];
  if (Array.isArray(list)) list.push(value);
  else probe[name] = value;
}

function unpress() {
  for (const el of document.querySelectorAll("#mesa .pressed")) el.classList.remove("pressed");
}

/**
 * The table's state (ui.screen.TableState): shown on <body>, and a picture taken when it shows a game.
 * @param {import("./protocol").TableState} name
 * @param {boolean} shown whether a game is on the table, as a picture can show it
 */
function showState(name, shown) {
  body.dataset.state = name;
  atTable(name !== "setup");
  pictured = shown;
  if (name === "human") steps.push(() => { if (atTheTable()) showTable(); });
  if (shown && storage && !pictureDue) {
    pictureDue = true;  // once this batch has drawn everything, after the save it asked for
    if (locks) locks.request(SAVE, storePicture).catch(storePicture);
    else setTimeout(storePicture, 0);
  }
}

// -- the table as the screen, and its sheets ----------------------------------------------------

// In play ("at-table" on <html>, see style.css) the table fills the window, and the setup («Opciones»),
// the scoreboard, «Tus partidas» and the rules are sheets over it, each one tap away on the table's
// bar: not modal, one open at a time, Escape or its ✕ folds it and gives the focus back to its button.
// Outside play they are parts of the page as before (the first screen, the text below it).
const root = document.documentElement;

/** @param {boolean} playing */
function atTable(playing) {
  if (!playing) closeSheets();
  root.classList.toggle("at-table", playing);
}

/** @param {string} id */
function barButton(id) {
  return /** @type {HTMLButtonElement | null} */ (document.querySelector(`.bar-btn[aria-controls="${id}"]`));
}

/** The open sheet, if any. */
function openSheet() {
  return /** @type {HTMLElement | null} */ (document.querySelector("[data-sheet].open"));
}

function closeSheets() {
  for (const sheet of document.querySelectorAll("[data-sheet].open")) {
    sheet.classList.remove("open");
    barButton(sheet.id)?.setAttribute("aria-expanded", "false");
  }
}

/**
 * @param {string} id
 * @param {boolean} [focusIt] move the focus into it (a person's tap); false when the focus goes to a part of it
 */
function showSheet(id, focusIt = true) {
  closeSheets();
  const sheet = $(id);
  sheet.classList.add("open");
  barButton(id)?.setAttribute("aria-expanded", "true");
  fitAboveTheHand(sheet);
  if (focusIt) sheet.focus({preventScroll: true});
}

// A sheet hung from the top (not a phone's sheet from the bottom) ends above your hand when there is
// room for it there (a short window: 200 % zoom, a landscape phone); it scrolls inside instead.
/** @param {HTMLElement} sheet */
function fitAboveTheHand(sheet) {
  sheet.style.removeProperty("max-height");
  if (getComputedStyle(sheet).top !== "52px") return;  // a phone's sheet, from the bottom (style.css)
  const hand = document.getElementById("my-hand");
  if (!hand) return;
  const box = sheet.getBoundingClientRect();
  const room = hand.getBoundingClientRect().top - box.top - 8;
  if (box.bottom > room + box.top && room >= 140) sheet.style.maxHeight = `${Math.floor(room)}px`;
}

/** @param {HTMLElement} sheet */
function foldSheet(sheet) {
  const button = barButton(sheet.id);
  closeSheets();
  button?.focus({preventScroll: true});
}

/** Whether el is in a sheet that is folded now (in play): it is opened first when it takes the focus. */
function inFoldedSheet(/** @type {Element} */ el) {
  const sheet = el.closest("[data-sheet]");
  return root.classList.contains("at-table") && sheet && !sheet.classList.contains("open") ? sheet : null;
}

document.addEventListener("click", (event) => {
  const target = /** @type {Element | null} */ (event.target);
  if (!target || !target.closest) return;
  const bar = /** @type {HTMLElement | null} */ (target.closest(".bar-btn"));
  const close = target.closest(".sheet-close");
  const read = target.closest(".notice-close");
  const link = /** @type {HTMLAnchorElement | null} */ (target.closest('a[href^="#"]'));
  if (bar) {
    const id = bar.getAttribute("aria-controls") || "";
    if (bar.getAttribute("aria-expanded") === "true") foldSheet($(id));
    else showSheet(id);
  } else if (close) {
    foldSheet(/** @type {HTMLElement} */ (close.closest("[data-sheet]")));
  } else if (read) {
    $("notice").hidden = true;
    const main = /** @type {HTMLButtonElement} */ ($("main-btn"));
    (main.disabled ? $("mesa") : main).focus({preventScroll: true});  // back to the table
  } else if (target.closest("#deal-btn, #daily-btn")) {
    closeSheets();  // a new deal: back to the table (the worker hears of the click)
    // The page turns into the table in this tap's own frame, as before Python is ready, so the deal's
    // frame draws only the hand (the state of the worker's answer keeps it, or takes it back).
    root.classList.add("at-table");
    // The button goes with the setup bar: the focus waits on the table for the dealt hand.
    if (lostFocus()) $("mesa").focus({preventScroll: true});
    return;
  } else if (link) {
    // a link to a part folded away in play («Tus partidas» in «Más opciones») opens its sheet
    const to = document.getElementById(decodeURIComponent(link.hash.slice(1)));
    const sheet = to && inFoldedSheet(to);
    if (!sheet) return;
    showSheet(sheet.id, to === sheet);
    if (to !== sheet) to.focus();
  } else {
    return;
  }
  event.preventDefault();
  event.stopPropagation();  // the worker hears nothing of these
}, true);

// The focus leaving an open sheet for the table folds it: what has the focus is never under it.
document.addEventListener("focusin", (event) => {
  const sheet = openSheet();
  const to = /** @type {Element | null} */ (event.target);
  if (sheet && to && to instanceof Element && !sheet.contains(to) && to !== barButton(sheet.id)) closeSheets();
});

document.addEventListener("keydown", (event) => {
  const sheet = openSheet();
  if (event.key !== "Escape" || !sheet || document.querySelector("dialog[open]")) return;
  event.preventDefault();
  foldSheet(sheet);
});

// -- the DOM ----------------------------------------------------------------------------------

// What this page last wrote into each element: the table draws every part after each action,
// and a part that did not change is not written again (no style or layout work for it).
/** @type {Map<string, string>} */
const written = new Map();

/**
 * Write a part of the page. merge.js is the only writer: only what changed in it is written (a
 * CPU that plays takes one card back out of its fan instead of every seat and every back drawn
 * anew), and the nodes that stay keep their focus.
 * @param {string} id
 * @param {string} markup
 */
function html(id, markup) {
  const el = $(id);
  if (id !== "hand" && written.get(id) === markup) return;
  written.set(id, markup);
  if (id === "hand") {
    if (handDrawn && handDrawn[0] === markup && handDrawn[1] === el.childElementCount) return;
    redrawHand(el, markup);
    handDrawn = [markup, el.childElementCount];
  } else {
    merge(el, markup);
  }
  steps.push(rescueFocus);
}

/**
 * @param {string} id
 * @param {string} words
 */
function text(id, words) {
  const el = $(id);
  if (el.textContent !== words) el.textContent = words;
  written.delete(id);
}

/**
 * @param {string} id
 * @param {string} name
 * @param {string | null} value
 */
function attr(id, name, value) {
  const el = $(id);
  if (name !== "checked" && el.getAttribute(name) === value) return;
  if (name === "checked") {
    /** @type {HTMLInputElement} */ (el).checked = value !== null;  // the live state of a radio, not its default
  } else if (value === null) {
    el.removeAttribute(name);
  } else {
    el.setAttribute(name, value);
    if (name === "disabled" || name === "hidden") steps.push(rescueFocus);
  }
}

// Opens or closes a panel; OPENED when it opened. A panel opens with the focus on ``asked`` (the id
// its batch focuses) if that is inside it: one focus move, not one to its first control and another.
/**
 * @param {string} id
 * @param {boolean} show
 * @param {string | null} asked
 */
function dialog(id, show, asked) {
  const el = dialogOf(id);
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
  if (!show && el.open) {
    el.close();
    // The panel held the focus and its control is gone (an 8 named, a card played): straight on to
    // where the batch sends it, or to the table, in this same task.
    if (lostFocus()) {
      const to = asked ? document.getElementById(asked) : null;
      if (to) to.focus({preventScroll: true});
      else rescueFocus(null);
    }
  }
  return null;
}

/** @param {string | null} text */
function notice(text) {
  const el = $("notice");
  if (text) {
    const p = document.createElement("p");
    p.setAttribute("role", "alert");
    p.textContent = text;
    // in play it stands above the table, which it shrinks, until read (assets/style.css)
    const read = document.createElement("button");
    read.type = "button";
    read.className = "btn btn-secondary notice-close";
    read.textContent = "Entendido";
    el.replaceChildren(p, read);
    el.hidden = false;
  } else {
    el.replaceChildren();
    el.hidden = true;
  }
}

/** @param {string} fragment */
function setHash(fragment) {
  if (location.hash !== fragment) history.replaceState(null, "", fragment || location.pathname + location.search);
}

/** @param {string} text */
function copy(text) {
  try {
    navigator.clipboard.writeText(text).catch(() => {});
  } catch (err) { /* no clipboard: the status bar shows the link */ }
}

/**
 * @param {string} name
 * @param {string} text
 */
function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], {type: "application/json"}));
  const link = Object.assign(document.createElement("a"), {href: url, download: name});
  body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Whether the focus is on the page itself, or on a control that can no longer hold it. */
function lostFocus() {
  const active = /** @type {HTMLButtonElement | null} */ (document.activeElement);
  return !active || active === body || !active.isConnected || active.disabled || !active.checkVisibility();
}

// Never leave the focus on <body> or on a control that was just disabled or removed. A batch that
// moves the focus itself (``asked``) places it: rescuing it first would scroll the page to a card and
// leave it there (a first visit's screen moved by 182 px when Python was ready, at 390×844).
/** @param {string | null} [asked] the id the batch focuses */
function rescueFocus(asked) {
  if ((asked && document.getElementById(asked)) || !lostFocus()) return;
  for (const selector of ["#hand button.card.legal", "#main-btn:not([disabled])", "#hand button.card", "#mesa"]) {
    const target = /** @type {HTMLElement | null} */ (document.querySelector(selector));
    if (target) {
      target.focus();
      refocused = target;
      return;
    }
  }
}

/**
 * Redraw the hand with merge.js, keeping every card that stays (its element, and the focus on it).
 * A focused card that leaves (played) stays in the hand, unseen and out of the row, until the
 * batch's steps: then the focus goes to the card now in its place (or on to «Robar» or the table)
 * and the card goes. So the focus never falls to the page for an instant, and moving it waits for
 * the frame that shows the writes, as every focus move does.
 * @param {HTMLElement} el
 * @param {string} markup
 */
function redrawHand(el, markup) {
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const card = active && el.contains(active) ? active.dataset.card : undefined;
  const parsed = parse(markup);  // once: looked at here, then merged
  const fresh = [...parsed.querySelectorAll("button.card")].map((b) => /** @type {HTMLElement} */ (b));
  if (!active || !card || fresh.some((b) => b.dataset.card === card)) {
    mergeNodes(el, parsed);
    return;
  }
  const old = [...el.querySelectorAll("button.card")];
  const index = Math.max(old.indexOf(active), 0);
  const next = fresh.length ? fresh[Math.min(index, fresh.length - 1)].dataset.card : undefined;
  // The leaving card, as it is, at its place among the new ones: merge.js keeps its element.
  active.classList.add("leaving");
  active.tabIndex = -1;
  const kept = /** @type {HTMLElement} */ (active.cloneNode(true));
  parsed.insertBefore(kept, fresh[index] || null);
  mergeNodes(el, parsed);
  steps.push(() => {
    const target = /** @type {HTMLElement | null} */ (next ? el.querySelector(`button.card[data-card="${next}"]`) : null);
    const main = /** @type {HTMLButtonElement} */ ($("main-btn"));
    const to = target || (main.disabled ? $("mesa") : main);
    if (document.activeElement === active) {
      to.focus({preventScroll: true});
      refocused = to;
    }
    // Taken out in a task of its own: a write here would be laid out at once by what this task
    // measures next. The answer is shown once it is out.
    hold();
    setTimeout(() => {
      active.remove();
      release();
    }, 0);
  });
}

function atTheTable() {
  const active = document.activeElement;
  return !active || active === body || $("mesa").contains(active);
}

// Scroll the least that shows all of el in the window (and in frame, a panel, if given).
/**
 * @param {HTMLElement} el
 * @param {Element | null} [frame]
 */
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

/** @param {string} id */
function focus(id) {
  const el = $(id);
  if (!el) return;
  const sheet = inFoldedSheet(el);
  if (sheet) showSheet(sheet.id, false);  // «Ver "Tus partidas"» from the results, in play
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
  const two = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
}

// Until the worker's answer to an action is shown, its focus and dialogs included, the probe's
// `answering` counts it (the tests wait for it to be 0).
let answering = 0;

function hold() {
  answering++;
  if (probe) probe.answering = answering;
}

function release() {
  answering--;
  if (probe) probe.answering = answering;
}

/**
 * An event as the worker reads it: its declared fields and today's date.
 * @param {PageEvent} event
 */
function message(event) {
  return JSON.stringify({today: today(), ...event});
}

/** @param {PageEvent} event */
function send(event) {
  hold();
  later(call("event", message(event)).finally(release));
}

/** @returns {import("./protocol").TableSize} */
function players() {
  const checked = /** @type {HTMLInputElement | null} */ (document.querySelector('input[name="table-size"]:checked'));
  return checked && checked.value === "3" ? 3 : 2;
}

/** @param {MouseEvent} event */
function onClick(event) {
  const target = /** @type {Element | null} */ (event.target);
  const hit = target && target.closest ? target.closest("button") : null;
  if (!hit) {
    if (target && target.closest && target.closest("#replace-dialog")) $("replace-no").focus();
    return;
  }
  const twice = (event.detail || 1) > 1;
  if (hit.id === "import-btn") {
    $("import-file").click();
    return;
  }
  if (hit.id === "review-jump") {  // the way from the review's summary down to its list: the page's own
    const first = document.getElementById("review-go-0");
    if (first) {
      first.focus();
      first.scrollIntoView({block: "nearest", behavior: "instant"});
    }
    return;
  }
  const intent = intentOf(hit, event.detail === 0);
  if (!intent) return;
  if (intent.kind === "play-card" && twice) return;  // a double click's tail: not a move
  if (intent.kind === "replace-game" && twice) {
    $("replace-no").focus();  // throwing a game away takes its own click
    return;
  }
  // A move is answered at once: the card or button looks pressed until the worker's answer shows.
  if (intent.kind === "draw-or-pass" || (intent.kind === "play-card" && hit.classList.contains("legal"))) {
    hit.classList.add("pressed");
  }
  send(intent);
}

/**
 * The intent a control carries (its ``data-intent``, index.html and ui/render.py), with its fields.
 * @param {HTMLElement} hit
 * @param {boolean} byKey a keyboard activation (a click with ``detail`` 0)
 * @returns {Intent | null}
 */
function intentOf(hit, byKey) {
  const data = hit.dataset;
  const kind = /** @type {Intent["kind"] | undefined} */ (data.intent);
  switch (kind) {
    case "play-card": return hit.closest("#hand") ? {kind, card: data.card || ""} : null;
    case "choose-suit": return {kind, suit: /** @type {import("./protocol").SuitLetter} */ (data.suit)};
    case "deal": case "daily": return {kind, players: players()};
    case "next-hand": case "new-game": case "see-final": return {kind, by_key: byKey};
    case "challenge-link": return {kind, name: inputOf("challenge-name").value};
    case "review-go": return {kind, step: Number(data.step)};
    case "replay-step": return {kind, where: /** @type {ReplayStep} */ (data.where)};
    // Sent on their own events, not on a click: the radios (change) and the file (its field's change).
    case "pace": case "level": case "size": case "import": case undefined: return null;
    default: return {kind};  // the intents without fields (tsc refuses one with fields here)
  }
}

/** @param {KeyboardEvent} event */
function onHandKey(event) {
  const keys = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"];
  if (!keys.includes(event.key)) return;
  /** @type {HTMLButtonElement[]} */
  const buttons = [...$("hand").querySelectorAll("button.card")].map((el) => /** @type {HTMLButtonElement} */ (el));
  const current = buttons.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
  if (current < 0) return;
  let target = event.key === "Home" ? 0 : event.key === "End" ? buttons.length - 1 : current;
  if (event.key === "ArrowLeft" || event.key === "ArrowUp") target = Math.max(current - 1, 0);
  if (event.key === "ArrowRight" || event.key === "ArrowDown") target = Math.min(current + 1, buttons.length - 1);
  event.preventDefault();
  buttons[target].focus();
}

/** @param {Event} event */
function onImport(event) {
  const field = /** @type {HTMLInputElement} */ (event.target);
  const chosen = field.files && field.files[0];
  if (!chosen) return;
  field.value = "";
  if (chosen.size > maxImport) send({kind: "import", size: chosen.size, text: ""});
  else chosen.text().then((text) => send({kind: "import", size: text.length, text}));
}

function listen() {
  /**
   * @template {keyof WindowEventMap} K
   * @param {EventTarget} el
   * @param {K} name
   * @param {(event: WindowEventMap[K]) => void} handler
   * @param {boolean} [capture]
   */
  const on = (el, name, handler, capture = false) => el.addEventListener(name, /** @type {EventListener} */ (handler), capture);
  // A panel's Escape: the panel stays open (the worker closes it), and the worker hears of it.
  const prevented = (/** @type {PageEvent | null} */ told) => (/** @type {Event} */ event) => {
    event.preventDefault();
    if (told) send(told);
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
  on($("suit-dialog"), "cancel", prevented({kind: "cancel-suit"}));
  on($("results-dialog"), "cancel", prevented(null));
  on($("gameover-dialog"), "cancel", prevented(null));
  on($("replace-dialog"), "cancel", prevented({kind: "keep-game"}));
  on($("replay-dialog"), "cancel", prevented({kind: "close-replay"}));
  on($("results-dialog"), "keydown", (event) => {
    // While the points are being counted any key shows the whole count.
    if ($("results-skip").hidden || NOT_SKIPPING.has(event.key)) return;
    event.preventDefault();
    send({kind: "skip-count"});
  });
  const chosen = (/** @type {Event} */ event) => /** @type {HTMLInputElement} */ (event.target).value;
  // The radios' values are index.html's (tests/test_protocol.py checks them against the enumerations).
  on($("pace-choice"), "change", (event) => send({kind: "pace", pace: /** @type {import("./protocol").Pace} */ (chosen(event))}));
  on($("level-choice"), "change", (event) => send({kind: "level", level: /** @type {import("./protocol").LevelName} */ (chosen(event))}));
  on($("mode-choice"), "change", (event) => send({kind: "size", players: chosen(event) === "3" ? 3 : 2}));
  on($("results-dialog"), "close", () => send({kind: "results-closed"}));
  on($("gameover-dialog"), "close", () => send({kind: "gameover-closed"}));
  on($("replay-dialog"), "keydown", (event) => {
    const where = REPLAY_KEYS[event.key];
    if (!where) return;
    event.preventDefault();
    send({kind: "replay-step", where});
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
// registers once Python is ready (assets/runtime.js, index.html's head and its last script). The
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
      // through assets/runtime.js (the runtime's folder, and a first visit's handoff)
      version: here("assets/snapshot.js"),
      config: {files: {[here("app.zip")]: "./*"}},
    });
    const started = /** @type {{sync: Calls}} */ (await Promise.race([worker, failed]));
    sync = started.sync;
    await Promise.race([started.sync.fire(0), failed]);  // the table's Python is listening
  } catch (err) {
    sync = null;
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
