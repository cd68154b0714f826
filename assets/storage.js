// localStorage and the Web Lock on the save, for assets/page.js: the site's keys as the worker reads
// them, the writes it asks for, and the picture of the table (assets/inline/first-paint.js draws it at
// a return visit's first paint), taken after the save it belongs to.
import { probe } from "./dom.js";

export const PREFIX = "ocho-loco:";
export const SAVE = PREFIX + "partida";
export const locks = navigator.locks && typeof navigator.locks.request === "function" ? navigator.locks : null;
/** @type {Storage | null} */
export let storage = null;  // localStorage, or null when the browser refuses it
let pictureDue = false;
let pictured = false;  // the table's state shows a game (the picture is taken only then)

export function openStorage() {
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
export function stored() {
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
export function store(key, value) {
  if (!storage) return true;
  try {
    if (value === null) storage.removeItem(key);
    else storage.setItem(key, value);
    return true;
  } catch (err) {
    return false;
  }
}

// The picture of the table drawn at first paint (assets/inline/first-paint.js), taken after the save
// it belongs to.
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

/**
 * The table's state shows a game (or not, assets/batches.js's showState): a picture is taken once
 * the batch that shows one has drawn everything, after the save it asked for.
 * @param {boolean} shown
 */
export function notePicture(shown) {
  pictured = shown;
  if (shown && storage && !pictureDue) {
    pictureDue = true;  // once this batch has drawn everything, after the save it asked for
    if (locks) locks.request(SAVE, storePicture).catch(storePicture);
    else setTimeout(storePicture, 0);
  }
}
