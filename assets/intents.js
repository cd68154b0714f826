// The player's input, sent to the worker as intents (ui/protocol.py): a click on a control that
// carries its intent (data-intent), the hand's arrow keys, the panels' Escape and keys, the radios,
// the file to import, and the storage and address changes of other tabs.
import { call, hold, later, maxImport, release } from "./batches.js";
import { $, inputOf } from "./dom.js";
import { PREFIX } from "./storage.js";
import { unlock as unlockSound } from "./sound.js";

/** @typedef {import("./protocol").PageEvent} PageEvent */
/** @typedef {import("./protocol").Intent} Intent */
/** @typedef {import("./protocol").ReplayStep} ReplayStep */

/** @type {Record<string, ReplayStep>} */
const REPLAY_KEYS = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"};
const ACTIVATION_KEYS = new Set(["Enter", " ", "Spacebar", "Escape"]);
const NOT_SKIPPING = new Set(["Tab", "Shift", "Control", "Alt", "Meta", "Escape"]);

export function today() {
  const now = new Date();
  const two = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
}

/**
 * An event as the worker reads it: its declared fields and today's date.
 * @param {PageEvent} event
 */
export function message(event) {
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
    case "forget-game": return {kind, key: data.key || ""};
    case "review-go": return {kind, step: Number(data.step)};
    case "replay-step": return {kind, where: /** @type {ReplayStep} */ (data.where)};
    // Sent on their own events, not on a click: the radios (change) and the file (its field's change).
    case "pace": case "level": case "size": case "import": case "forced": case "felt": case "back":
    case undefined: return null;
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

export function listen() {
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
  on($("learn-rules-btn"), "click", onClick);  // «Aprende jugando» in «Reglas», outside the table
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
  on($("forced-on"), "change", () => send({kind: "forced", on: inputOf("forced-on").checked}));
  on($("felt-choice"), "change", (event) => send({kind: "felt", felt: /** @type {import("./protocol").Felt} */ (chosen(event))}));
  on($("back-choice"), "change", (event) => send({kind: "back", back: /** @type {import("./protocol").Back} */ (chosen(event))}));
  // Sound only after the person's first gesture (browsers forbid it before): the audio is made then.
  for (const name of /** @type {const} */ (["pointerdown", "keydown"])) on(document, name, unlockSound, true);
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
