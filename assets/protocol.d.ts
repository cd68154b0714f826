// Written by `python -m tools.protocol` from ui/protocol.py: edit that file, not this one.

/** What the page gives the worker's `start` call. */
export interface Start {
  storage: Record<string, string> | null;
  writable: boolean;
  locks: boolean;
  hash: string;
  url: string;
  today: string;
  reduced: boolean;
  seed: unknown;
  early: unknown;
  probe: boolean;
}

/** The events the page forwards (each with `today`, the local date). */
export type PageEvent =
  | { kind: "click"; id: string; card: string; suit: string; where: string; players: number; name: string; step: string; by_key: boolean; }
  | { kind: "suit-cancel"; }
  | { kind: "replace-cancel"; }
  | { kind: "results-key"; }
  | { kind: "results-close"; }
  | { kind: "gameover-close"; }
  | { kind: "replay-cancel"; }
  | { kind: "replay-key"; where: string; }
  | { kind: "pace"; value: string; }
  | { kind: "level"; value: string; }
  | { kind: "size"; value: string; }
  | { kind: "hash"; hash: string; }
  | { kind: "storage"; key: string; value: string | null; }
  | { kind: "store-failed"; keys: string[]; storage: Record<string, string> | null; }
  | { kind: "import"; size: number; text: string; };

/** The operations of a batch. */
export type Op =
  | [kind: "html", id: string, html: string]
  | [kind: "text", id: string, text: string]
  | [kind: "attr", id: string, name: string, value: string | null]
  | [kind: "dialog", id: string, show: boolean]
  | [kind: "state", name: string, pictured: boolean]
  | [kind: "status", text: string]
  | [kind: "notice", text: string | null]
  | [kind: "later", ms: number, token: number]
  | [kind: "hash", fragment: string]
  | [kind: "copy", text: string]
  | [kind: "focus", id: string]
  | [kind: "store", key: string, value: string | null]
  | [kind: "lock", token: number]
  | [kind: "download", name: string, text: string]
  | [kind: "config", max_import: number]
  | [kind: "probe", name: string, value: unknown];

/** The worker's calls, as PyScript's `sync` object exposes them. */
export interface Calls {
  start(data: string): Promise<string>;
  event(data: string): Promise<string>;
  fire(token: number): Promise<string>;
  locked(token: number, storage: string): Promise<string>;
  games(): Promise<string>;
  gamesClosed(): Promise<string>;
}
