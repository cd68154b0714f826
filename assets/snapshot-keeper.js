// The page's side of the snapshot (docs/worker.md, "The snapshot"): it hears how Python's worker
// started (assets/snapshot.js says so on a BroadcastChannel) and, after a start that was not a
// restore, once the table is ready and the page idle, outside the player's own turn, starts the
// snapshot maker (assets/snapshot-maker.js) in a worker of its own: the page's main thread only
// creates it and hears its answer. Only a page controlled by the service worker makes one: its
// files then come from the precache, and nothing crosses the network again for it.

const CHANNEL = "ocho-loco-snapshot";
const TURN = new Set(["human", "chooser"]);  // the player is choosing a move: no making now

/**
 * Listen for how Python starts (before PyWorker is created); `keep()` once the table is ready.
 * With the probe switch on, the page records it (`snapshot`, `snapshotMade`) and makes a
 * snapshot only where a test or a bench asks for it (`keepSnapshot: true`): each making costs
 * a Python start in the background, which most tests have no use for.
 * @param {OchoLocoProbe | null} probe
 */
export function watchSnapshot(probe) {
  /** @type {unknown} */
  let started = null;
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
  if (channel) {
    channel.onmessage = (event) => {
      started = event.data;
      if (probe) probe.snapshot = event.data;
      channel.close();
    };
  }
  return {
    keep() {
      const restored = !!started && /** @type {{start?: string}} */ (started).start === "restored";
      if (restored || (probe && probe.keepSnapshot !== true)) return;
      const sw = navigator.serviceWorker;
      if (!sw || typeof Worker !== "function") return;
      if (sw.controller) whenIdle(() => makeOne(probe));
      // A first visit whose service worker is still precaching: once it controls the page, if ever.
      else sw.addEventListener("controllerchange", () => whenIdle(() => makeOne(probe)), {once: true});
    },
  };
}

/** Run `work` in an idle moment outside the player's turn. @param {() => void} work */
function whenIdle(work) {
  const body = document.body;
  const idle = window.requestIdleCallback || ((fn) => setTimeout(fn, 200));
  const attempt = () => idle(() => {
    if (!TURN.has(body.dataset.state || "")) {
      work();
      return;
    }
    const watch = new MutationObserver(() => {
      if (TURN.has(body.dataset.state || "")) return;
      watch.disconnect();
      attempt();
    });
    watch.observe(body, {attributes: true, attributeFilter: ["data-state"]});
  });
  attempt();
}

/** @param {OchoLocoProbe | null} probe */
function makeOne(probe) {
  if (probe) probe.snapshotBegun = performance.now();  // the making's window, for lab.snapshot_bench
  const worker = new Worker(new URL("./snapshot-maker.js", import.meta.url), {type: "module"});
  const done = (/** @type {unknown} */ what) => {
    if (probe) {
      probe.snapshotEnded = performance.now();
      probe.snapshotMade = what;
    }
    worker.terminate();
  };
  worker.onmessage = (event) => done(event.data);
  worker.onerror = (event) => {
    event.preventDefault();
    done({made: false, why: "failed: " + event.message});
  };
}
