// Cards that move (assets/page.js calls snap() before each redraw): a played card travels from the
// hand or a CPU's seat to the pile, a drawn card from the stock to its hand or a CPU's fan.
// Transforms only, 240 ms; with reduced motion nothing travels. Where the cards went is read in the
// next frame, before it is painted: the layout that frame needs anyway, not one more in the redraw.
// No rule of the game here.

const MS = 240;
const still = matchMedia("(prefers-reduced-motion: reduce)");

/**
 * @typedef {{left: number, top: number, width: number, height: number}} Box
 * @typedef {{count: number, box: Box | null}} Seat
 * @typedef {{hand: Map<string, Box | null>, top: string, seats: Map<string, Seat>, stock: Box | null, at: number}} Look
 * @typedef {{card: string, from: string, ms: number, properties: string[], at: number}} Flight
 */

/** @type {Look | null} */
let before = null;
/** @type {((flight: Flight) => void) | null} */
let noted = null;

/** @param {Element | null} el */
const box = (el) => el ? el.getBoundingClientRect() : null;

/** @returns {Look} */
function look() {
  /** @type {Map<string, Seat>} */
  const seats = new Map();
  for (const el of document.querySelectorAll("#opponents .opponent[data-seat]")) {
    const seat = /** @type {HTMLElement} */ (el).dataset.seat || "";
    seats.set(seat, {count: el.querySelectorAll(".mini-fan .card").length, box: box(el.querySelector(".mini-fan"))});
  }
  /** @type {Map<string, Box | null>} */
  const hand = new Map();
  for (const el of document.querySelectorAll("#hand .card[data-card]:not(.leaving)")) hand.set(/** @type {HTMLElement} */ (el).dataset.card || "", box(el));
  const top = /** @type {HTMLElement | null} */ (document.querySelector("#discard [data-card]"));
  return {hand, top: top ? top.dataset.card || "" : "", seats, stock: box(document.getElementById("stock")), at: performance.now()};
}

/**
 * @param {Element | null | undefined} el where the card is now
 * @param {Box | null | undefined} from where it was
 * @param {string} card
 * @param {string} source
 */
function fly(el, from, card, source) {
  if (!el) return;
  const to = box(el);
  if (!from || !to || !to.width || !from.width) return;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const scale = Math.min(2, from.width / to.width);
  el.animate([{transform: `translate(${dx}px, ${dy}px) scale(${scale})`}], {duration: MS, easing: "cubic-bezier(.2, .7, .3, 1)"});
  if (noted) noted({card, from: source, ms: MS, properties: ["transform"], at: performance.now()});
}

function settle() {
  const was = before;
  before = null;
  // A hidden tab paints no frame: what moved while it was away is not flown when it comes back.
  if (!was || still.matches || performance.now() - was.at > 1000) return;
  const now = look();
  if (now.top && was.top && now.top !== was.top) {
    const pile = document.querySelector("#discard [data-card]");
    if (was.hand.has(now.top) && !now.hand.has(now.top)) {
      fly(pile, was.hand.get(now.top), now.top, "hand");
    } else {
      for (const [seat, then] of was.seats) {
        const after = now.seats.get(seat);
        if (after && after.count === then.count - 1) fly(pile, then.box, now.top, "seat " + seat);
      }
    }
  }
  const drawn = [...now.hand.keys()].filter((card) => !was.hand.has(card));
  if (was.hand.size && drawn.length && drawn.length <= 3) {
    for (const card of drawn) fly(document.querySelector(`#hand .card[data-card="${card}"]`), was.stock, card, "stock");
  }
  for (const [seat, after] of now.seats) {
    const then = was.seats.get(seat);
    if (then && after.count > then.count && after.count - then.count <= 3) {
      const backs = document.querySelectorAll(`#opponents .opponent[data-seat="${seat}"] .mini-fan .card`);
      fly(backs[backs.length - 1], was.stock, "", "stock to seat " + seat);
    }
  }
}

/** Note where every card is now: the redraw about to happen is compared with it in the next frame. */
export function snap() {
  if (before || still.matches) return;
  before = look();
  requestAnimationFrame(settle);  // after every redraw before the next paint
}

/**
 * Tell ``note`` of every card that travels (the page passes the probe's list, for the tests).
 * @param {(flight: Flight) => void} note
 */
export function noteFlights(note) {
  noted = note;
}
