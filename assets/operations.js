// The operations of a batch that write the document (assets/batches.js hands each here): a part of the
// page redrawn through assets/merge.js (the hand keeping its cards and the focus), text, attributes,
// panels opened and closed, the notice, the address, the clipboard, a file to download.
import { merge, mergeNodes, parse } from "./merge.js";
import { OPENED, hold, release, steps } from "./batches.js";
import { $, body, dialogOf } from "./dom.js";
import { lostFocus, rescueFocus, setRefocused } from "./focus.js";

/** @type {[string, number] | null} */
let handDrawn = null;  // the hand as last drawn: [markup, cards]

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
export function html(id, markup) {
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
export function text(id, words) {
  const el = $(id);
  if (el.textContent !== words) el.textContent = words;
  written.delete(id);
}

/**
 * @param {string} id
 * @param {string} name
 * @param {string | null} value
 */
export function attr(id, name, value) {
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
export function dialog(id, show, asked) {
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
export function notice(text) {
  const el = $("notice");
  if (text) {
    const p = document.createElement("p");
    p.setAttribute("role", "alert");
    p.textContent = text;
    // in play it stands above the table, which it shrinks, until read (assets/css/in-play.css)
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
export function setHash(fragment) {
  if (location.hash !== fragment) history.replaceState(null, "", fragment || location.pathname + location.search);
}

/** @param {string} text */
export function copy(text) {
  try {
    navigator.clipboard.writeText(text).catch(() => {});
  } catch (err) { /* no clipboard: the status bar shows the link */ }
}

/**
 * @param {string} name
 * @param {string} text
 */
export function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], {type: "application/json"}));
  const link = Object.assign(document.createElement("a"), {href: url, download: name});
  body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
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
      setRefocused(to);
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
