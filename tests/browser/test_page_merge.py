"""assets/merge.js: a part of the table written without drawing it anew, in Chromium.

The worker mode's page writes the opponents, the pile, the suit in force, the move log and the
scoreboard after every move. ``merge(el, markup)`` must leave ``el`` exactly as
``el.innerHTML = markup`` would, while keeping the nodes that stay (a CPU that plays loses one
card back from its fan; the log grows at its top), so the browser styles and lays out only what
changed (issue 26).
"""

from __future__ import annotations

import random

MERGE_JS = """
async (pairs) => {
  const {merge} = await import(new URL("assets/merge.js", location.href).href);
  const wrong = [];
  for (const [before, after] of pairs) {
    const el = document.createElement("div");
    el.innerHTML = before;
    merge(el, after);
    const want = document.createElement("div");
    want.innerHTML = after;
    if (el.innerHTML !== want.innerHTML) wrong.push({before, after, got: el.innerHTML, want: want.innerHTML});
  }
  return wrong;
}
"""

# Which nodes of the first markup are still in the element after the merge (by their order).
KEPT_JS = """
async ([before, after]) => {
  const {merge} = await import(new URL("assets/merge.js", location.href).href);
  const el = document.createElement("div");
  el.innerHTML = before;
  const nodes = [];
  const walk = (node) => { for (const child of node.childNodes) { nodes.push(child); walk(child); } };
  walk(el);
  merge(el, after);
  return nodes.map((node) => el.contains(node));
}
"""

BACK = '<span class="card back" aria-hidden="true"></span>'
WORDS = ("Tú", "CPU 1", "roba", "juega 8♥", "pasa", "")


def _markup(rng: random.Random, depth: int = 0) -> str:
    parts = []
    for _ in range(rng.randint(0, 4 if depth < 2 else 2)):
        kind = rng.random()
        if kind < 0.2:
            parts.append(rng.choice(WORDS))
        elif kind < 0.35:
            parts.append(BACK)
        elif kind < 0.45:
            suit = rng.choice("SHDC")
            parts.append(f'<svg class="suit" aria-hidden="true"><use href="#suit-{suit}"/></svg>')
        else:
            tag = rng.choice(("div", "span", "p", "li"))
            attrs = ""
            if rng.random() < 0.5:
                attrs += f' class="{rng.choice(("opponent", "opponent turn", "card", "rank"))}"'
            if rng.random() < 0.4:
                attrs += f' data-seat="{rng.randint(1, 2)}"'
            if rng.random() < 0.3:
                attrs += f' data-card="{rng.choice(("8H", "QS", "3D"))}"'
            if rng.random() < 0.3:
                attrs += f' aria-label="{rng.choice(WORDS)}"'
            inner = _markup(rng, depth + 1) if depth < 3 else rng.choice(WORDS)
            parts.append(f"<{tag}{attrs}>{inner}</{tag}>")
    return "".join(parts)


def _pairs(count: int) -> list[tuple[str, str]]:
    rng = random.Random(26)
    pairs = []
    for _ in range(count):
        before = _markup(rng)
        roll = rng.random()
        if roll < 0.4:
            after = _markup(rng)  # anything
        elif roll < 0.7:
            after = before + _markup(rng)  # grown at the end
        else:
            after = _markup(rng) + before  # grown at the start
        pairs.append((before, after) if rng.random() < 0.8 else (after, before))  # or shrunk
    return pairs


def test_a_merged_part_reads_as_the_markup_written_whole(page, site_url):
    page.goto(site_url)
    wrong = page.evaluate(MERGE_JS, _pairs(400))
    assert wrong == [], wrong[:3]


def test_a_fan_that_loses_a_card_keeps_its_other_cards(page, site_url):
    page.goto(site_url)
    seat = '<div class="opponent{turn}" data-seat="1"><p>CPU 1</p><div class="mini-fan">{backs}</div></div>'
    before = seat.format(turn=" turn", backs=BACK * 5)
    after = seat.format(turn="", backs=BACK * 4)
    kept = page.evaluate(KEPT_JS, [before, after])
    # the seat, its name and text, the fan and four of its five backs stay
    assert kept == [True, True, True, True, True, True, True, True, False]


def test_the_move_log_keeps_its_lines_when_a_turn_comes_on_top(page, site_url):
    page.goto(site_url)
    before = '<li data-seat="1">CPU 1 roba.</li><li data-seat="0">Tú: juegas 8♥.</li>'
    after = '<li data-seat="2">CPU 2 pasa.</li>' + before
    assert page.evaluate(KEPT_JS, [before, after]) == [True, True, True, True]
