// The head's first script (index.html), before anything is painted: which screen the first paint
// shows (classes on <html>), and a first visit's runtime files as the worker reports them.
//
// A returning player's table is drawn from its stored picture by the first-paint script further
// down (assets/inline/first-paint.js); until it has decided, the table is not painted and the setup
// bar has a game's layout, so nothing moves when the picture comes (a cold load can paint before
// that script runs).
try {
  if (localStorage.getItem("ocho-loco:dibujo") !== null && localStorage.getItem("ocho-loco:partida") !== null) {
    document.documentElement.classList.add("picture-pending", "at-table");
  }
} catch (err) { /* no storage: no picture */ }
// In play the table is the whole screen ("at-table", assets/css/in-play.css; assets/page.js keeps it from
// the table's state): a stored picture or a game link has it from the first paint.
// A game link (#partida=…) deals at once: until Python has dealt it, only the loading box of the
// table is painted (the setup bar, the notice about the link and the dealt table then appear
// together, and nothing painted before them moves).
if (/^#(.*&)?partida=/.test(location.hash)) document.documentElement.classList.add("deal-pending", "at-table");
// A first visit: Python's worker starts at once (assets/page.js) and downloads the runtime itself,
// keeping copies of the big files for the service worker to precache instead of downloading them
// again (assets/runtime.js; tools/sw-src.mjs takes each copy, checks it and deletes them). It tells
// each runtime file's bytes here, which the first-paint script shows (ochoLocoFetched), and when
// every copy is stored: the service worker is registered only then (ochoLocoHandoff, assets/inline/sw-register.js).
if (!(navigator.serviceWorker && navigator.serviceWorker.controller)) {
  /** @type {{file: string, bytes: number}[]} */
  const fetched = window.ochoLocoFetched = [];
  window.ochoLocoHandoff = [new Promise(/** @param {(value?: unknown) => void} resolve */ (resolve) => {
    setTimeout(resolve, 30000);  // a worker that never says: the service worker downloads them
    if (!window.BroadcastChannel) return resolve();
    const channel = new BroadcastChannel("ocho-loco-runtime");
    channel.addEventListener("message", ({data}) => {
      if (data.file && !fetched.some((seen) => seen.file === data.file)) {
        fetched.push({file: data.file, bytes: data.bytes});
        dispatchEvent(new CustomEvent("ocho-loco:fetched", {detail: {file: data.file, bytes: data.bytes}}));
      }
      if (data.all) {
        channel.close();
        resolve();
      }
    });
  })];
}
