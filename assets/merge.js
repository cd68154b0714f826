// Writing a part of the page without drawing it anew (assets/page.js): the element keeps the
// nodes that stay, so the browser styles and lays out only what changed. No rule of the game here.

// Make el's children the nodes of markup (a string of HTML), as el.innerHTML = markup would.
/**
 * @param {Element} el
 * @param {string} markup
 */
export function merge(el, markup) {
  mergeNodes(el, parse(markup));
}

/**
 * The nodes of markup, not yet in the page: for a writer that looks at them before it merges.
 * @param {string} markup
 */
export function parse(markup) {
  const template = document.createElement("template");
  template.innerHTML = markup;
  return template.content;
}

// Make el's children those of fresh (a node), keeping the nodes that stay: the runs that are the
// same at the start and at the end are left alone (the move log grows at its top, a fan loses its
// last card); in between, an element of the same kind (tag, id, card, seat) takes the new
// attributes and its children are merged in turn, and anything else is replaced.
/**
 * @param {Node} el
 * @param {Node} fresh
 */
export function mergeNodes(el, fresh) {
  const old = [...el.childNodes];
  const want = [...fresh.childNodes];
  let start = 0;
  while (start < old.length && start < want.length && old[start].isEqualNode(want[start])) start++;
  let endOld = old.length;
  let endWant = want.length;
  while (endOld > start && endWant > start && old[endOld - 1].isEqualNode(want[endWant - 1])) {
    endOld--;
    endWant--;
  }
  const paired = Math.min(endOld, endWant) - start;
  for (let i = start; i < start + paired; i++) {
    const now = old[i];
    const next = want[i];
    if (now.nodeType === Node.TEXT_NODE && next.nodeType === Node.TEXT_NODE) {
      now.nodeValue = next.nodeValue;
    } else if (alike(now, next)) {
      const wanted = /** @type {Element} */ (next);
      for (const name of now.getAttributeNames()) if (!wanted.hasAttribute(name)) now.removeAttribute(name);
      for (const name of wanted.getAttributeNames()) {
        const value = wanted.getAttribute(name) || "";
        if (now.getAttribute(name) !== value) now.setAttribute(name, value);
      }
      mergeNodes(now, next);
    } else {
      el.replaceChild(next, now);
    }
  }
  for (let i = start + paired; i < endOld; i++) old[i].remove();
  const before = endOld < old.length ? old[endOld] : null;
  for (let i = start + paired; i < endWant; i++) el.insertBefore(want[i], before);
}

const KEYS = ["id", "data-card", "data-seat"];  // what makes two elements of one tag the same thing

/**
 * @param {Node} a
 * @param {Node} b
 * @returns {a is Element}
 */
function alike(a, b) {
  if (a.nodeType !== Node.ELEMENT_NODE || b.nodeType !== Node.ELEMENT_NODE) return false;
  const x = /** @type {Element} */ (a);
  const y = /** @type {Element} */ (b);
  return x.tagName === y.tagName && KEYS.every((name) => x.getAttribute(name) === y.getAttribute(name));
}
