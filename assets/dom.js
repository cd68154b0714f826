// The page's own elements and switches, shared by the rooms of assets/page.js: an element of
// index.html by its id, <body> and <html>, and the probe that tests and benchmarks switch on.
import { noteFlights } from "./motion.js";

/** An element of index.html by its id (every id the worker names is there: tests/test_ui_ids.py). */
export const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** A panel of index.html by its id. */
export const dialogOf = (/** @type {string} */ id) => /** @type {HTMLDialogElement} */ ($(id));
/** An input of index.html by its id. */
export const inputOf = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id));
// The one switch for tests and benchmarks: when they set window.ochoLocoProbe = {} before the page
// loads, the page records its figures there (and asks the worker for its own); otherwise nothing.
export const probe = window.ochoLocoProbe || null;
if (probe) {
  /** @type {unknown[]} */
  const flights = probe.flights = [];
  noteFlights((flight) => flights.push(flight));  // every card that travels, for the tests
}
export const body = document.body;

// In play the table fills the window ("at-table" on <html>: assets/sheets.js, assets/css/in-play.css).
export const root = document.documentElement;
