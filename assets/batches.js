// The seam's page side (docs/worker.md): calls into Python's worker (ui/worker.py) and the batches of
// operations it answers with (ui/protocol.py declares both), shown in order, a saving batch under the
// Web Lock on the save, each operation handed to the room that writes it (assets/operations.js), and
// the steps a batch takes once its writes are painted (dialogs, focus, scrolling).
import { snap } from "./motion.js";
import { play as playSound } from "./sound.js";
import { $, body, probe } from "./dom.js";
import { atTheTable, focus, keepInView, lostFocus, refocused, setRefocused, showTable } from "./focus.js";
import { message } from "./intents.js";
import { attr, copy, dialog, download, html, notice, setHash, text } from "./operations.js";
import { atTable } from "./sheets.js";
import { SAVE, locks, notePicture, store, stored } from "./storage.js";

/** @typedef {import("./protocol").Op} Op */
/** @typedef {import("./protocol").Calls} Calls */

/** @type {Calls | null} */
let sync = null;
export let maxImport = 0;

// Batches show in the order the worker sent them: each waits for the one before it.
let queue = Promise.resolve();
// What a batch does once its writes are on the screen, in order: open or close its dialogs, move the
// focus, scroll the table into view. Each of these makes the browser work out the style and layout
// of the page there and then; done while writing, they made one long task of every batch (a whole
// page's style again for a dialog), during which the page could not answer a tap.
/** @type {((asked: string | null) => unknown)[]} */
export const steps = [];
/** @type {string | null} */
let focusing = null;  // the id the batch being written asks to focus
export const OPENED = "opened";

/**
 * Call the worker and show the batch it answers with, after the batches before it.
 * @template {keyof Calls} K
 * @param {K} name
 * @param {Parameters<Calls[K]>} args
 */
export async function call(name, ...args) {
  const worker = /** @type {Calls} */ (sync);
  /** @type {Op[]} */
  const ops = JSON.parse(await /** @type {(...a: unknown[]) => Promise<string>} */ (worker[name])(...args));
  const turn = queue.then(() => show(ops));
  queue = turn.catch((err) => console.error(err));
  await turn;
}

/** @param {Promise<unknown>} promise */
export function later(promise) {
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
    const now = steps.splice(0);
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
    setRefocused(null);
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
      case "sound": playSound(op[1]); break;
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
  // Your turn: the table in view, and the control that has the focus in it too (at 400 % zoom the
  // table's play part is taller than the window, and a card focused below it was left out of sight).
  if (name === "human") {
    steps.push(() => {
      if (!atTheTable()) return;
      showTable();
      const active = /** @type {HTMLElement | null} */ (document.activeElement);
      if (active && active !== body && $("mesa").contains(active)) keepInView(active);
    });
  }
  notePicture(shown);
}

// Until the worker's answer to an action is shown, its focus and dialogs included, the probe's
// `answering` counts it (the tests wait for it to be 0).
let answering = 0;

export function hold() {
  answering++;
  if (probe) probe.answering = answering;
}

export function release() {
  answering--;
  if (probe) probe.answering = answering;
}

/** The worker's calls, once it has started (null when it could not). */
export function setSync(/** @type {Calls | null} */ worker) {
  sync = worker;
}
