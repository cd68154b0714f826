// Cards that travel (assets/page.js calls snap() before it writes a batch that redraws the table).
// What moved is read from the page itself, before and after the writes, never from fixed places:
// - the deal: each card flies from the stock to its seat, dealt round the table one at a time
//   (your hand's cards, and a back to each CPU's fan);
// - a draw: from the stock to the hand, or face down to a CPU's fan;
// - a played card: from the hand or a CPU's seat to the pile;
// - a reshuffle: a few backs gather from the pile into the stock.
// (At the results each leftover card turns over as it is counted: a CSS animation, assets/css/table.css.)
// Motion is a decoration: the document is already written when a card flies, only transforms and
// opacity move, and what flies in place of a card that is gone takes no taps. A card waiting for
// its turn in the deal waits unseen at its own place, where a tap finds it. With reduced motion
// nothing travels (the status line says in words what happened). «Ritmo» sets the pace: base.css
// holds it as --tempo (Pausado slower, Rápido quicker), read once per redraw. Where the cards went is read in
// the next frame, before it is painted: the layout that frame needs anyway, not one more.
// No rule of the game here.

const MS = 240;  // one card's travel at «Ritmo: Normal»
const DEAL_STEP = 45;  // between two cards of the deal
const GATHER = 4;  // backs that gather from the pile into the stock
const GATHER_STEP = 40;
const EASE = "cubic-bezier(.2, .7, .3, 1)";
const still = matchMedia("(prefers-reduced-motion: reduce)");

/**
 * @typedef {{left: number, top: number, width: number, height: number}} Box
 * @typedef {{count: number, box: Box | null}} Seat
 * @typedef {{hand: Map<string, Box | null>, top: string, seats: Map<string, Seat>, stock: Box | null,
 *   stockCount: number | null, pile: Box | null, fresh: boolean, at: number}} Look
 * @typedef {"deal" | "draw" | "cpu-draw" | "play" | "cpu-play" | "reshuffle"} Kind
 * @typedef {{card: string, from: string, kind: Kind, ms: number, delay: number, properties: string[], at: number}} Flight
 */

/** @type {Look | null} */
let before = null;
let ms = MS;  // this redraw's travel and deal step, at the chosen pace
let step = DEAL_STEP;

/** The pace's factor (1 at «Normal»), from the style sheet's --tempo. */
function tempo() {
  const t = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--tempo"));
  return t > 0 ? t : 1;
}
/** @type {((flight: Flight) => void) | null} */
let noted = null;

/** @param {Element | null} el */
const box = (el) => el ? el.getBoundingClientRect() : null;

/** @param {Element | null} el the number an element's text starts with; null when it has none */
function count(el) {
  const n = el ? parseInt(el.textContent || "", 10) : NaN;
  return Number.isNaN(n) ? null : n;
}

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
  const stockCount = count(document.getElementById("stock-count"));
  return {
    hand, top: top ? top.dataset.card || "" : "", seats, stock: box(document.getElementById("stock")), stockCount,
    pile: box(top),
    // A hand on the table in which nobody has played yet: the move log says so.
    fresh: stockCount !== null && !!document.querySelector("#move-log .log-empty"),
    at: performance.now(),
  };
}

/**
 * @param {Box} from
 * @param {Box} to
 */
function offset(from, to) {
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const scale = Math.min(2, from.width / to.width);
  return `translate(${dx}px, ${dy}px) scale(${scale})`;
}

/**
 * Fly a card of the page from where it was to where it is now, ``delay`` ms from now; until then it
 * waits unseen at its place (and takes taps there).
 * @param {Element | null | undefined} el where the card is now
 * @param {Box | null | undefined} from where it was
 * @param {string} card
 * @param {string} source
 * @param {Kind} kind
 * @param {number} delay
 */
function fly(el, from, card, source, kind, delay = 0) {
  if (!el) return;
  const to = box(el);
  if (!from || !to || !to.width || !from.width) return;
  const start = offset(from, to);
  if (delay) {
    const wait = delay / (delay + ms);
    const rest = getComputedStyle(el).transform;  // a card that fits stands raised
    el.animate([
      {offset: 0, opacity: 0, transform: rest, easing: "step-end"},
      {offset: wait, opacity: 1, transform: start, easing: EASE},
      {offset: 1, opacity: 1, transform: rest},
    ], {duration: delay + ms});
  } else {
    el.animate([{transform: start}], {duration: ms, easing: EASE});
  }
  note({card, from: source, kind, ms, delay, properties: delay ? ["opacity", "transform"] : ["transform"]});
}

/** @param {Omit<Flight, "at">} flight */
function note(flight) {
  if (noted) noted({...flight, at: performance.now()});
}

// The reshuffle: backs drawn over the table (not in it: they take no taps and move nothing) go
// from the pile into the stock, fading as they arrive, and are gone after.
/**
 * @param {Box} pile
 * @param {Box} stock
 */
function gather(pile, stock) {
  if (!pile.width || !stock.width) return;
  for (let i = 0; i < GATHER; i++) {
    const back = document.createElement("span");
    back.className = "card back flying";
    back.setAttribute("aria-hidden", "true");
    const s = back.style;
    s.left = `${pile.left}px`;
    s.top = `${pile.top}px`;
    s.width = `${pile.width}px`;
    s.height = `${pile.height}px`;
    document.body.append(back);
    const there = `translate(${stock.left + stock.width / 2 - (pile.left + pile.width / 2)}px,`
      + ` ${stock.top + stock.height / 2 - (pile.top + pile.height / 2)}px) scale(${Math.min(1, stock.width / pile.width)})`;
    const flight = back.animate([
      {transform: "none", opacity: 1},
      {transform: there, opacity: 1, offset: .8},
      {transform: there, opacity: 0},
    ], {duration: ms + 60, delay: i * GATHER_STEP, easing: EASE, fill: "backwards"});
    flight.onfinish = flight.oncancel = () => back.remove();
  }
  note({card: "", from: "pile", kind: "reshuffle", ms: ms + 60, delay: 0, properties: ["opacity", "transform"]});
}

/**
 * The deal: round the table from your seat, one card at a time, each from the stock to its place.
 * @param {Look} now
 */
function deal(now) {
  const stock = now.stock;
  if (!stock) return;
  const seats = 1 + now.seats.size;
  [...document.querySelectorAll("#hand .card[data-card]:not(.leaving)")].forEach((el, i) => {
    fly(el, stock, /** @type {HTMLElement} */ (el).dataset.card || "", "stock", "deal", i * seats * step);
  });
  [...now.seats.keys()].forEach((seat, s) => {
    const backs = document.querySelectorAll(`#opponents .opponent[data-seat="${seat}"] .mini-fan .card`);
    backs.forEach((el, i) => fly(el, stock, "", "stock to seat " + seat, "deal", (i * seats + s + 1) * step));
  });
}

function settle() {
  const was = before;
  before = null;
  // A hidden tab paints no frame: what moved while it was away is not flown when it comes back.
  if (!was || still.matches || performance.now() - was.at > 1000) return;
  const t = tempo();
  ms = Math.round(MS * t);
  step = Math.round(DEAL_STEP * t);
  const now = look();
  const same = now.hand.size === was.hand.size && [...now.hand.keys()].every((card) => was.hand.has(card));
  // A new hand, just dealt (a table drawn again as it was, at first paint, is no deal).
  if (now.fresh && !(was.fresh && same && now.top === was.top)) {
    deal(now);
    return;
  }
  // The stock grew and the same hand goes on (the top card stays): the pile became the stock.
  let after = 0;  // a draw after the reshuffle leaves once the pile is gathered
  if (was.stockCount !== null && now.stockCount !== null && now.stockCount > was.stockCount
      && now.top === was.top && [...was.hand.keys()].every((card) => now.hand.has(card))
      && was.pile && now.stock) {
    gather(was.pile, now.stock);
    after = ms;
  }
  if (now.top && was.top && now.top !== was.top) {
    const pile = document.querySelector("#discard [data-card]");
    if (was.hand.has(now.top) && !now.hand.has(now.top)) {
      fly(pile, was.hand.get(now.top), now.top, "hand", "play");
    } else {
      for (const [seat, then] of was.seats) {
        const later = now.seats.get(seat);
        if (later && later.count === then.count - 1) fly(pile, then.box, now.top, "seat " + seat, "cpu-play");
      }
    }
  }
  const drawn = [...now.hand.keys()].filter((card) => !was.hand.has(card));
  if (was.hand.size && drawn.length && drawn.length <= 3) {
    for (const card of drawn) fly(document.querySelector(`#hand .card[data-card="${card}"]`), was.stock, card, "stock", "draw", after);
  }
  for (const [seat, later] of now.seats) {
    const then = was.seats.get(seat);
    if (then && later.count > then.count && later.count - then.count <= 3) {
      const backs = document.querySelectorAll(`#opponents .opponent[data-seat="${seat}"] .mini-fan .card`);
      fly(backs[backs.length - 1], was.stock, "", "stock to seat " + seat, "cpu-draw", after);
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
