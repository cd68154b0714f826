// Written by `python -m tools.protocol` from ui/protocol.py: edit that file, not this one.

// The enumerations, each from its one home (engine.levels, ui.prefs.PACES, ui.replay...).
export type TableSize = 2 | 3;
export type SuitLetter = "S" | "H" | "D" | "C";
export type LevelName = "facil" | "normal" | "dificil";
export type Pace = "pausado" | "normal" | "rapido";
export type ReplayStep = "first" | "prev" | "next" | "last";
export type TableState = "setup" | "human" | "chooser" | "cpu" | "results" | "gameover" | "replace" | "replay";
export type Felt = "verde" | "azul" | "granate";
export type Back = "rombos" | "cuadros" | "medallon";
export type SoundName = "deal" | "draw" | "play" | "shuffle" | "eight" | "turn" | "hand-won" | "hand-lost" | "game-won" | "game-lost";

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
  early: Early | null;
  probe: boolean;
}

/** What was done before Python was ready (index.html's first paint). */
export interface Early {
  choice: EarlyChoice | null;
  click: Deal | Daily | Learn | PlayCard | DrawOrPass | null;
}

/** The table size and «Rival» checked before Python was ready. */
export interface EarlyChoice {
  players: TableSize;
  level: string;
}

// The events the page sends (each with `today`, the local date): the player's intents and notices.
export interface PlayCard { kind: "play-card"; card: string; }
export interface ChooseSuit { kind: "choose-suit"; suit: SuitLetter; }
export interface CancelSuit { kind: "cancel-suit"; }
export interface DrawOrPass { kind: "draw-or-pass"; }
export interface Deal { kind: "deal"; players: TableSize; }
export interface Daily { kind: "daily"; players: TableSize; }
export interface NextHand { kind: "next-hand"; by_key: boolean; }
export interface NewGame { kind: "new-game"; by_key: boolean; }
export interface SeeFinal { kind: "see-final"; by_key: boolean; }
export interface SkipCount { kind: "skip-count"; }
export interface ToggleChallenge { kind: "toggle-challenge"; }
export interface ChallengeLink { kind: "challenge-link"; name: string; }
export interface CopyLink { kind: "copy-link"; }
export interface ReplaceGame { kind: "replace-game"; }
export interface KeepGame { kind: "keep-game"; }
export interface Export { kind: "export"; }
export interface Import { kind: "import"; size: number; text: string; }
export interface ClearAside { kind: "clear-aside"; }
export interface OpenReplay { kind: "open-replay"; }
export interface StepReplay { kind: "replay-step"; where: ReplayStep; }
export interface CloseReplay { kind: "close-replay"; }
export interface ReviewGo { kind: "review-go"; step: number; }
export interface SeePartidas { kind: "see-partidas"; }
export interface Hint { kind: "hint"; }
export interface Learn { kind: "learn"; }
export interface SkipLesson { kind: "lesson-skip"; }
export interface ChoosePace { kind: "pace"; pace: Pace; }
export interface ChooseLevel { kind: "level"; level: LevelName; }
export interface ChooseSize { kind: "size"; players: TableSize; }
export interface ForgetGame { kind: "forget-game"; key: string; }
export interface ForgetUnreadable { kind: "forget-unreadable"; }
export interface ToggleSound { kind: "sound"; }
export interface ChooseForced { kind: "forced"; on: boolean; }
export interface ChooseFelt { kind: "felt"; felt: Felt; }
export interface ChooseBack { kind: "back"; back: Back; }
export interface ResultsClosed { kind: "results-closed"; }
export interface GameoverClosed { kind: "gameover-closed"; }
export interface HashChanged { kind: "hash"; hash: string; }
export interface StorageChanged { kind: "storage"; key: string; value: string | null; }
export interface StoreFailed { kind: "store-failed"; keys: string[]; storage: Record<string, string> | null; }

export type Intent =
  | PlayCard
  | ChooseSuit
  | CancelSuit
  | DrawOrPass
  | Deal
  | Daily
  | NextHand
  | NewGame
  | SeeFinal
  | SkipCount
  | ToggleChallenge
  | ChallengeLink
  | CopyLink
  | ReplaceGame
  | KeepGame
  | Export
  | Import
  | ClearAside
  | OpenReplay
  | StepReplay
  | CloseReplay
  | ReviewGo
  | SeePartidas
  | Hint
  | Learn
  | SkipLesson
  | ChoosePace
  | ChooseLevel
  | ChooseSize
  | ForgetGame
  | ForgetUnreadable
  | ToggleSound
  | ChooseForced
  | ChooseFelt
  | ChooseBack;
export type Notice =
  | ResultsClosed
  | GameoverClosed
  | HashChanged
  | StorageChanged
  | StoreFailed;
export type PageEvent = Intent | Notice;
export type EarlyIntent =
  | Deal
  | Daily
  | Learn
  | PlayCard
  | DrawOrPass;

/** The operations of a batch. */
export type Op =
  | [kind: "html", id: string, html: string]
  | [kind: "text", id: string, text: string]
  | [kind: "attr", id: string, name: string, value: string | null]
  | [kind: "dialog", id: string, show: boolean]
  | [kind: "state", name: TableState, pictured: boolean]
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
  | [kind: "probe", name: string, value: unknown]
  | [kind: "sound", name: SoundName];

/** The worker's calls, as PyScript's `sync` object exposes them. */
export interface Calls {
  start(data: string): Promise<string>;
  event(data: string): Promise<string>;
  fire(token: number): Promise<string>;
  locked(token: number, storage: string): Promise<string>;
  games(): Promise<string>;
  gamesClosed(): Promise<string>;
}
