// Before Python is ready (assets/page.js takes over and sets data-ready): the
// table works from the first paint. A returning player sees the picture of
// their table stored with the save (only if it was drawn from this very save),
// and a click on «Repartir», «Partida del día», a card or «Robar» (and the
// table size and «Rival» checked) is remembered for Python, which decides what
// it means. No game logic here: only the click and the progress.
//
// The picture is data, never HTML: for a fixed list of the table's elements,
// a few attributes and a tree of their children ([tag, {attribute: value},
// ...children] or a string of text). ochoLocoPicture.take() writes it from the
// table Python has drawn (assets/page.js stores it after every move) and draw()
// rebuilds it with createElement and textContent, keeping only the tags and
// attributes listed below. The table's own elements (#hand, #main-btn...)
// are never replaced, only their contents; anything unexpected discards the
// whole picture, and Python draws the table from the save as without one.
(() => {
  /** An element of index.html by its id. */
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
  // The hand's cards are sized to the width of their row (--hand-w, see assets/css/table.css),
  // measured here whenever it changes: before the first paint, and then on a turned phone or a
  // resized window.
  if (window.ResizeObserver) {
    new ResizeObserver((entries) => {
      for (const entry of entries) {
        /** @type {HTMLElement} */ (entry.target).style.setProperty("--hand-w", entry.contentRect.width.toFixed(1) + "px");
      }
    }).observe($("my-hand"));
  }
  /** @type {OchoLocoEarly} */
  const early = window.ochoLocoEarly = {click: null, taken: false};
  const say = (/** @type {string} */ text) => { $("status").textContent = text; };
  let waiting = "";
  const PICTURE = "ocho-loco:dibujo";
  const SVG = "http://www.w3.org/2000/svg";
  // Each element of the table in the picture: the attributes of its own kept, and whether its children are.
  /** @type {Record<string, [string[], boolean]>} */
  const PARTS = {
    "opponents": [[], true], "stock": [["disabled", "aria-label"], false], "stock-count": [[], true],
    "active-suit": [["data-suit"], true], "discard": [[], true], "my-hand": [["data-turn"], false],
    "hand-title": [[], true], "hand": [[], true], "main-btn": [["disabled", "aria-label", "data-action"], true],
    "scoreboard": [[], true], "move-log": [[], true], "game-code": [[], true], "copy-link-btn": [["disabled"], false],
    "setup": [["data-playing"], false], "table-now": [[], true],  // a game's setup bar is shorter: no shift
    "more-summary": [[], true],  // «Más opciones» names the choices it folds away
  };
  const TAGS = new Set(["span", "strong", "p", "div", "button", "li", "table", "caption", "thead", "tbody",
    "tr", "th", "td", "svg", "use"]);
  const ATTRS = new Set(["class", "role", "type", "scope", "focusable", "aria-label", "aria-hidden",
    "aria-disabled", "aria-current", "data-card", "data-intent", "data-suit", "data-seat", "data-done", "href"]);
  /** @type {(tag: string, name: string, value: unknown) => boolean} */
  const allowed = (tag, name, value) => ATTRS.has(name) && typeof value === "string" && value.length <= 200 &&
    (name !== "href" || (tag === "use" && /^#(suit-|face-([2-9]|10|[AJQK]))[SHDC]$/.test(value))) &&
    (name !== "type" || value === "button");
  const take = (/** @type {string} */ save) => {
    /** @type {(node: Node) => PictureTree | null} */
    const tree = (node) => {
      if (node.nodeType === Node.TEXT_NODE) return /** @type {Text} */ (node).data;
      const el = /** @type {Element} */ (node);
      const tag = node.nodeType === Node.ELEMENT_NODE ? el.localName : "";
      if (!TAGS.has(tag)) return null;
      /** @type {Record<string, string>} */
      const attrs = {};
      for (const {name, value} of el.attributes) if (allowed(tag, name, value)) attrs[name] = value;
      return [tag, attrs, ...[...node.childNodes].map(tree).filter((kid) => kid !== null)];
    };
    /** @type {Record<string, {a: Record<string, string | null>, c?: PictureTree[]}>} */
    const parts = {};
    for (const [id, [names, kids]] of Object.entries(PARTS)) {
      const el = $(id);
      parts[id] = {a: Object.fromEntries(names.map((name) => [name, el.getAttribute(name)]))};
      if (kids) parts[id].c = [...el.childNodes].map(tree).filter((kid) => kid !== null);
    }
    return JSON.stringify({save, parts});
  };
  // The picture's elements, built apart from the page: throws on anything not listed above.
  /** @param {{parts?: Record<string, {a: Record<string, unknown>, c?: unknown}>}} picture */
  const build = (picture) => {
    let count = 0;
    /** @type {(data: unknown, svg: boolean, depth: number) => Node} */
    const node = (data, svg, depth) => {
      if (++count > 3000 || depth > 8) throw new Error("picture too big");
      if (typeof data === "string") return document.createTextNode(data);
      const [tag, attrs, ...kids] = Array.isArray(data) ? data : [];
      if (!TAGS.has(tag) || !attrs || typeof attrs !== "object" || Array.isArray(attrs)) throw new Error("not a part");
      const inSvg = svg || tag === "svg";
      const el = inSvg ? document.createElementNS(SVG, tag) : document.createElement(tag);
      for (const [name, value] of Object.entries(attrs)) {
        if (!allowed(tag, name, value)) throw new Error("attribute " + name);
        el.setAttribute(name, value);
      }
      for (const kid of kids) el.append(node(kid, inSvg, depth + 1));
      return el;
    };
    const parts = picture.parts;
    if (!parts || typeof parts !== "object") throw new Error("no parts");
    return Object.entries(PARTS).map(([id, [names, kids]]) => {
      const part = parts[id];
      if (!part || typeof part.a !== "object" || !part.a) throw new Error("missing " + id);
      const attrs = names.map((name) => {
        const value = part.a[name] === undefined ? null : part.a[name];
        if (value !== null && !(typeof value === "string" && value.length <= 200)) throw new Error(name);
        return /** @type {[string, string | null]} */ ([name, value]);
      });
      const fragment = document.createDocumentFragment();
      if (kids) {
        if (!Array.isArray(part.c)) throw new Error("no children of " + id);
        for (const kid of part.c) fragment.append(node(kid, false, 0));
      }
      return {id, attrs, kids: kids ? fragment : null};
    });
  };
  /** @param {ReturnType<typeof build>} built */
  const draw = (built) => {
    for (const {id, attrs, kids} of built) {
      const el = $(id);
      for (const [name, value] of attrs) {
        if (value === null) el.removeAttribute(name);
        else el.setAttribute(name, value);
      }
      if (kids) el.replaceChildren(kids);
    }
    $("hand").style.setProperty("--n", String($("hand").querySelectorAll("[data-card]").length || 7));
  };
  window.ochoLocoPicture = {key: PICTURE, take};
  // «Más opciones» opens as the player last left it, before the first paint (nothing moves later);
  // a first visit finds it folded. Only its being open is kept, as "1" (see the comment on it above).
  const MORE = "ocho-loco:opciones";
  const more = $("more-options");
  try {
    if (localStorage.getItem(MORE) === "1") /** @type {HTMLDetailsElement} */ (more).open = true;
  } catch (err) { /* no storage: folded */ }
  more.addEventListener("toggle", () => {
    try {
      if (/** @type {HTMLDetailsElement} */ (more).open) localStorage.setItem(MORE, "1");
      else localStorage.removeItem(MORE);
    } catch (err) { /* no storage: forgotten */ }
  });
  try {
    localStorage.removeItem("ocho-loco:mesa-html");  // the old picture was HTML: never read it
    const save = localStorage.getItem("ocho-loco:partida");
    const text = localStorage.getItem(PICTURE);
    if (text !== null) {
      let built = null;
      try {
        const picture = JSON.parse(text);
        if (!picture || typeof picture !== "object") throw new Error("not a picture");
        if (save && picture.save === save) built = build(picture);
      } catch (err) {
        localStorage.removeItem(PICTURE);  // not a picture this page wrote: a nicety, dropped
      }
      if (built) {
        draw(built);
        /** @type {Element} */ (document.querySelector("#mesa .board")).setAttribute("aria-busy", "true");
        if (window.ochoLocoProbe) window.ochoLocoProbe.picture = true;  // for the tests
        waiting = "Preparando la mesa…";
        say(waiting);
      }
    }
  } catch (err) { /* no storage: Python draws the table */ }
  const root = document.documentElement;
  // decided (see the head): without a picture drawn, the first screen, unless a game link deals
  if (!root.classList.contains("deal-pending") && !$("mesa").querySelector(".board[aria-busy]")) {
    root.classList.remove("at-table");
    // Nothing saved, no link, no anchor: Python shows this first screen with the focus on «Repartir»
    // (ui/table.py). It has it from the first paint, so a window too short to show it (400 % zoom) is
    // scrolled to it before that paint and not when Python is ready (issue 47, seam 3).
    let saved = false;
    try { saved = localStorage.getItem("ocho-loco:partida") !== null; } catch (err) { /* no storage: nothing saved */ }
    if (!saved && location.hash.length <= 1) $("deal-btn").focus();
  }
  root.classList.remove("picture-pending");
  // «Aprende jugando» is offered on a first visit only: nothing saved, no setup kept (ui/lesson.py).
  try {
    const kept = ["partida", "mesa", "nivel", "ritmo"].some((key) => localStorage.getItem("ocho-loco:" + key) !== null);
    if (kept) $("learn-btn").hidden = true;
  } catch (err) { /* no storage: a first visit */ }
  // Honest progress: the runtime file still loading and the bytes received so far.
  const files = ["pyodide.asm.mjs", "python_stdlib.zip", "pyodide.asm.wasm", "app.zip.xz"];
  const done = new Set();
  if (navigator.serviceWorker && navigator.serviceWorker.controller) {
    files.forEach((name) => done.add(name));  // the worker reads them from the precache, unseen here
  }
  let bytes = 0;
  const progress = () => {
    if (!early.click || early.taken) return;
    const next = files.find((name) => !done.has(name));
    const mb = (bytes / 1e6).toLocaleString("es-ES", {maximumFractionDigits: 1});
    say(waiting + (next ? ` Descargando ${next} (${mb} MB recibidos)…` : " Arrancando Python…"));
  };
  let lastFile = Date.now();
  const arrived = (/** @type {string} */ file, /** @type {number} */ size) => {
    bytes += size;
    done.add(file);
    lastFile = Date.now();
  };
  if (window.PerformanceObserver) {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const sent = /** @type {PerformanceResourceTiming} */ (entry);
        arrived(/** @type {string} */ (entry.name.split("/").pop()).split("?")[0], sent.transferSize || sent.encodedBodySize || 0);
      }
      progress();
    }).observe({type: "resource", buffered: true});
  }
  // The worker mode's first visit fetches them in a worker of their own (the head), unseen above.
  for (const {file, bytes: size} of window.ochoLocoFetched || []) arrived(file, size);
  addEventListener("ocho-loco:fetched", (event) => {
    const {detail} = /** @type {CustomEvent} */ (event);
    arrived(detail.file, detail.bytes);
    progress();
  });
  // Neither network nor a copy for offline play: say so instead of «Cargando Python…» forever.
  const stalled = (/** @type {string} */ why) => {
    if (document.body.dataset.ready === "1" || $("loading").hidden) return;
    /** @type {Element} */ (document.querySelector("#loading .loading-title")).textContent = "No llega el motor del juego";
    $("loading-detail").textContent = why +
      " La primera vez el juego necesita conexión para descargarse; después funciona sin ella." +
      " Comprueba la conexión y vuelve a cargar la página.";
    say("No se puede empezar todavía: " + why);
  };
  window.addEventListener("error", (event) => {
    const from = /** @type {HTMLScriptElement & HTMLLinkElement} */ (event.target);
    const url = from && (from.src || from.href);
    if (typeof url === "string" && url.includes("/vendor/")) {
      stalled("La red no ha respondido y este navegador aún no tiene una copia para jugar sin conexión.");
    }
  }, true);
  const watch = () => {
    if (document.body.dataset.ready === "1") return;
    const missing = files.some((name) => !done.has(name));  // all here: Python is only starting
    if (missing && Date.now() - lastFile > 30000) {
      stalled(navigator.onLine ? "La red no responde desde hace más de 30 segundos." : "No hay conexión.");
    }
    setTimeout(watch, 5000);
  };
  setTimeout(watch, 5000);
  // The table size and «Rival» radios: what is checked now (Python keeps a choice made early).
  /** @returns {{players: 2 | 3, level: string}} */
  const choice = () => {
    const three = document.querySelector('input[name="table-size"][value="3"]');
    const level = document.querySelector('input[name="level"]:checked');
    const size = /** @type {HTMLInputElement | null} */ (three);
    return {players: size && size.checked ? 3 : 2, level: level ? /** @type {HTMLInputElement} */ (level).value : ""};
  };
  document.addEventListener("change", (event) => {
    if (early.taken || document.body.dataset.ready === "1") return;
    const name = event.target && /** @type {HTMLInputElement} */ (event.target).name;
    if (name === "table-size" || name === "level") early.choice = choice();
  }, true);
  // «Partida del día» needs no Python to be clicked: it works from the first paint too.
  /** @type {HTMLButtonElement} */ ($("daily-btn")).disabled = false;
  document.addEventListener("click", (event) => {
    if (early.taken || document.body.dataset.ready === "1") return;
    const target = /** @type {Element} */ (event.target);
    const hit = target.closest && target.closest("button");
    if (!hit || !$("mesa").contains(hit)) return;
    // The intents of ui/protocol.py the worker answers first (EarlyIntent): the controls carry them.
    const intent = hit.dataset.intent;
    if (intent === "deal" || intent === "daily") {
      if (early.click) return;  // one deal asked for already: a second click changes nothing
      early.choice = choice();
      early.click = {kind: intent, players: early.choice.players};
      hit.textContent = "Barajando…";
      waiting = "Barajando…";
      document.documentElement.classList.add("at-table");  // the table is the screen from this tap on
    } else if (intent === "learn") {
      if (early.click) return;
      early.click = {kind: intent};
      waiting = "Preparando la lección…";
      document.documentElement.classList.add("at-table");
    } else if (hit.closest("#hand") && hit.dataset.card) {  // a card of the picture (old ones lack data-intent)
      early.click = {kind: "play-card", card: hit.dataset.card};
      waiting = "Preparando la mesa… Tu jugada se hará en cuanto esté lista.";
    } else if (intent === "draw-or-pass") {
      early.click = {kind: intent};
      waiting = "Preparando la mesa… Tu jugada se hará en cuanto esté lista.";
    } else {
      return;
    }
    say(waiting);
    progress();
  }, true);
})();
