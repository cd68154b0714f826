// Focus and scrolling: the focus never left on the page itself or on a control that is gone, moved
// where a batch asks (opening a folded sheet first), and the table kept in view around it.
import { $, body } from "./dom.js";
import { inFoldedSheet, showSheet } from "./sheets.js";

/** @type {HTMLElement | null} */
export let refocused = null;  // what the page focused itself while settling this batch

/** Whether the focus is on the page itself, or on a control that can no longer hold it. */
export function lostFocus() {
  const active = /** @type {HTMLButtonElement | null} */ (document.activeElement);
  return !active || active === body || !active.isConnected || active.disabled || !active.checkVisibility();
}

// Never leave the focus on <body> or on a control that was just disabled or removed. A batch that
// moves the focus itself (``asked``) places it: rescuing it first would scroll the page to a card and
// leave it there (a first visit's screen moved by 182 px when Python was ready, at 390×844).
/** @param {string | null} [asked] the id the batch focuses */
export function rescueFocus(asked) {
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

export function atTheTable() {
  const active = document.activeElement;
  return !active || active === body || $("mesa").contains(active);
}

// Scroll the least that shows all of el in the window (and in frame, a panel, if given).
/**
 * @param {HTMLElement} el
 * @param {Element | null} [frame]
 */
export function keepInView(el, frame) {
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
export function showTable() {
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
export function focus(id) {
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

/** What the page focused itself while settling a batch (null once the batch is settled). */
export function setRefocused(/** @type {HTMLElement | null} */ el) {
  refocused = el;
}
