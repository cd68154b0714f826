// The few names the page's scripts share on `window` (the scripts of assets/inline/ set them;
// assets/page.js reads them). Types only: nothing here ships.

/** A node of the table's stored picture (assets/inline/first-paint.js): text, or [tag, attributes, ...children]. */
type PictureTree = string | [string, Record<string, string>, ...PictureTree[]];

interface OchoLocoPicture {
  key: string;
  take(save: string): string;
}

/** What the first-paint script remembers before Python is ready: ui/protocol.py's Early, and `taken`. */
interface OchoLocoEarly {
  taken?: boolean;
  choice?: import("./protocol").Early["choice"];
  click?: import("./protocol").EarlyIntent | null;
}

/** Figures for tests and benchmarks, recorded only when a test or a bench sets this object first. */
interface OchoLocoProbe {
  applied?: [number, string][];
  timing?: number[];
  warm?: string[];
  flights?: unknown[];
  answering?: number;
  picture?: boolean;
  [name: string]: unknown;
}

interface Window {
  ochoLocoHandoff?: Promise<unknown>[];
  ochoLocoFetched?: { file: string; bytes: number }[];
  ochoLocoEarly?: OchoLocoEarly;
  ochoLocoPicture?: OchoLocoPicture;
  ochoLocoProbe?: OchoLocoProbe;
  /** A new deployment's service worker took over this page (assets/inline/sw-register.js). */
  ochoLocoUpdated?: boolean;
}
