// The table as the screen, and its sheets: «Opciones», «Marcador», «Tus partidas» and «Reglas» folded
// over the table in play, opened from its bar, folded by Escape, their ✕ or the focus leaving them.
import { $, root } from "./dom.js";
import { lostFocus } from "./focus.js";

// In play ("at-table" on <html>, see assets/css/in-play.css) the table fills the window, and the
// setup («Opciones»), the scoreboard, «Tus partidas» and the rules are sheets over it, each one tap
// away on the table's bar: not modal, one open at a time, Escape or its ✕ folds it and gives the
// focus back to its button. Outside play they are parts of the page as before (the first screen,
// the text below it).

/** @param {boolean} playing */
export function atTable(playing) {
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
export function showSheet(id, focusIt = true) {
  closeSheets();
  const sheet = $(id);
  sheet.classList.add("open");
  barButton(id)?.setAttribute("aria-expanded", "true");
  fitAboveTheHand(sheet);
  if (focusIt) sheet.focus({preventScroll: true});
}

// A sheet hangs from below the bar (assets/css/in-play.css) and ends above your hand when there is
// room for it there (a phone, a short window: 200 % zoom, a landscape phone); it scrolls inside instead.
/** @param {HTMLElement} sheet */
function fitAboveTheHand(sheet) {
  sheet.style.removeProperty("max-height");
  if (getComputedStyle(sheet).top !== "52px") return;  // not hung from the bar (in-play.css)
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
export function inFoldedSheet(/** @type {Element} */ el) {
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
  } else if (target.closest("#deal-btn, #daily-btn, [data-intent='learn']")) {
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
