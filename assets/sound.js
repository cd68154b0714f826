// The table's sounds, made in the browser with Web Audio: no file is downloaded, so they cost no
// bytes and work offline. assets/page.js plays one when a batch says so (the worker names the event;
// it sends none while «Sonido» is off). Each is short and quiet, well under speech, so a screen
// reader is never drowned: a card is a soft brush of noise, the shuffle a ripple of them, the 8 two
// notes, «te toca» one soft bell, and the end of a hand or a game a few notes up (won) or down.
// Nothing sounds before the person's first tap or key (browsers forbid it anyway): the audio context
// is made then. «Ritmo» sets the pace of the longer ones, as it does for the cards' travel.
// No rule of the game here.

/** @typedef {import("./protocol").SoundName} SoundName  the names, declared once in ui/screen.py */

const LOUD = 0.12;  // the loudest any sound gets (speech is about 1)
/** @type {AudioContext | null} */
let audio = null;
let unlocked = false;
/** @type {AudioBuffer | null} */
let noise = null;

/** Make the audio context on the person's first gesture (the page calls this from its listeners). */
export function unlock() {
  if (unlocked) return;
  unlocked = true;
  const Context = window.AudioContext;
  if (!Context) return;
  try {
    audio = new Context();
    if (audio.state === "suspended") audio.resume().catch(() => {});
  } catch {
    audio = null;
  }
}

/** The pace's factor (1 at «Normal»), from the style sheet's --tempo, as assets/motion.js reads it. */
function tempo() {
  const t = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--tempo"));
  return Number.isFinite(t) && t > 0 ? t : 1;
}

/** @param {AudioContext} ctx */
function whiteNoise(ctx) {
  if (noise && noise.sampleRate === ctx.sampleRate) return noise;
  const length = Math.round(ctx.sampleRate * 0.3);
  noise = ctx.createBuffer(1, length, ctx.sampleRate);
  const data = noise.getChannelData(0);
  let seed = 7;
  for (let i = 0; i < length; i++) {  // a fixed noise: the same card sound every time
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    data[i] = seed / 0x3fffffff - 1;
  }
  return noise;
}

/**
 * A card brushing the felt: filtered noise with a quick rise and fall.
 * @param {AudioContext} ctx @param {number} at @param {number} length seconds @param {number} pitch Hz
 */
function brush(ctx, at, length, pitch) {
  const source = ctx.createBufferSource();
  source.buffer = whiteNoise(ctx);
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = pitch;
  filter.Q.value = 0.9;
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(LOUD, at + 0.012);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start(at, 0, length + 0.02);
}

/**
 * A soft sine note with a bell's fall.
 * @param {AudioContext} ctx @param {number} at @param {number} freq @param {number} length @param {number} [level]
 */
function note(ctx, at, freq, length, level = LOUD * 0.6) {
  const osc = ctx.createOscillator();
  osc.type = "sine";
  osc.frequency.value = freq;
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(level, at + 0.015);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.05);
}

// Notes (Hz): a major triad on C5 for the good news, a minor fall for the bad.
const C5 = 523.25, E5 = 659.25, G5 = 783.99, C6 = 1046.5, A4 = 440, F4 = 349.23, D4 = 293.66;

/**
 * Play ``name`` now (nothing before the first gesture, nothing without Web Audio).
 * @param {SoundName} name
 */
export function play(name) {
  const ctx = audio;
  if (!ctx || ctx.state === "closed") return;
  const t = ctx.currentTime + 0.01;
  const pace = tempo();
  switch (name) {
    case "deal":
      for (let i = 0; i < 4; i++) brush(ctx, t + i * 0.06 * pace, 0.07, 2600);
      break;
    case "draw":
      brush(ctx, t, 0.11, 1800);
      break;
    case "play":
      brush(ctx, t, 0.09, 3200);
      break;
    case "shuffle":
      for (let i = 0; i < 9; i++) brush(ctx, t + i * 0.035 * pace, 0.05, 2000 + 300 * (i % 3));
      break;
    case "eight":
      brush(ctx, t, 0.08, 3200);
      note(ctx, t + 0.06, G5, 0.22);
      note(ctx, t + 0.06 + 0.1 * pace, C6, 0.3);
      break;
    case "turn":
      note(ctx, t, E5, 0.35, LOUD * 0.45);
      break;
    case "hand-won":
      [C5, E5, G5].forEach((f, i) => note(ctx, t + i * 0.09 * pace, f, 0.3));
      break;
    case "hand-lost":
      [A4, F4].forEach((f, i) => note(ctx, t + i * 0.12 * pace, f, 0.32));
      break;
    case "game-won":
      [C5, E5, G5, C6].forEach((f, i) => note(ctx, t + i * 0.1 * pace, f, i === 3 ? 0.6 : 0.3));
      break;
    case "game-lost":
      [A4, F4, D4].forEach((f, i) => note(ctx, t + i * 0.14 * pace, f, i === 2 ? 0.55 : 0.32));
      break;
    default: {
      /** @type {never} */
      const unknown = name;
      void unknown;
    }
  }
}
