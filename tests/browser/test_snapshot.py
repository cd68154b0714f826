"""A returning player's Python restored from a memory snapshot made on this device (issue 44).

``assets/snapshot.js`` is the interpreter PyScript loads; after a start that
was not a restore, the page makes a snapshot in a worker of its own and keeps
it in Cache Storage (``assets/snapshot-keeper.js``, docs/worker.md). These
tests take that path on every run, so that a runtime whose private snapshot
API changed fails here instead of slowing every return visit down quietly:

* the first visit makes a snapshot and the reload restores it (the probe
  says how Python started), reaching the very batch a normal start sends,
  with the page's Python written back from the restored heap: app.zip.xz is
  not asked for;
* a corrupt, stale, oversized or foreign-build snapshot is dropped, Python
  starts as without one, and the saved game is still there.

Only pages that ask for it make a snapshot (``ochoLocoProbe.keepSnapshot``):
each making is a Python start in the background that other tests have no use
for.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from conftest import PageLog
from helpers import assert_no_errors, play_a_move, raw_save, wait_controlled, wait_for_python, wait_state

CODE = "A2C6-P4JZ"  # a 1-against-1 deal, you to play
KEEP_JS = "window.ochoLocoProbe.keepSnapshot = true;"
# Every batch the page reads from the worker, as the text it came in (the page parses each with
# JSON.parse: arrays of operations, each an array naming its kind first).
BATCHES_JS = """
(() => {
  const parse = JSON.parse;
  const batches = window.ochoLocoBatches = [];
  JSON.parse = function (text, ...rest) {
    const value = parse.call(this, text, ...rest);
    if (Array.isArray(value) && value.every((op) => Array.isArray(op) && typeof op[0] === "string")) {
      batches.push(text);
    }
    return value;
  };
})();
"""
CACHE = "ocho-loco-snapshot"
KEYS_JS = "() => Object.fromEntries(Object.keys(localStorage).map((key) => [key, localStorage.getItem(key)]))"
PUT_KEYS_JS = """(keys) => {
  localStorage.clear();
  for (const [key, value] of Object.entries(keys)) localStorage.setItem(key, value);
}"""
# The kept snapshot with `change(bytes)` applied and `headers` set, kept again: with a SHA-256 of the
# changed bytes (as the page would keep them) or, for `resum` false, with the old one.
REWRITE_JS = """async ([cache, change, headers, resum]) => {
  const store = await caches.open(cache);
  const url = new URL('snapshot', location.href).href;
  const found = await store.match(url);
  const bytes = (new Function('bytes', change))(new Uint8Array(await found.arrayBuffer()));
  const kept = new Headers(found.headers);
  for (const [name, value] of Object.entries(headers)) kept.set(name, value);
  if (resum) {
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    kept.set('X-Snapshot-Sha256', [...digest].map((b) => b.toString(16).padStart(2, '0')).join(''));
  }
  await store.put(url, new Response(bytes, {headers: kept}));
}"""


def asked(page) -> list[str]:
    """Every request of the page and its workers from now on, by address."""
    seen: list[str] = []
    page.on("request", lambda request: seen.append(request.url))
    return seen


def open_table(page, base: str, *, resume: bool = False) -> None:
    """Deal the test's game from its link, or resume the saved one; the player to move."""
    page.goto(base if resume else f"{base}#partida={CODE}&mesa=2")
    wait_for_python(page)
    assert wait_state(page) == "human"


def how_it_started(page) -> dict:
    page.wait_for_function("() => !!window.ochoLocoProbe.snapshot")
    return page.evaluate("() => window.ochoLocoProbe.snapshot")


def made(page) -> dict:
    page.wait_for_function("() => !!window.ochoLocoProbe.snapshotMade", timeout=90_000)
    return page.evaluate("() => window.ochoLocoProbe.snapshotMade")


def first_batch(page) -> str:
    """The start call's batch as the worker sent it, less its probe figures (a time, never the same)."""
    batches = page.evaluate("() => window.ochoLocoBatches")
    assert batches, "no batch read"
    return batches[0]


def without_figures(batch: str) -> list:
    return [op for op in json.loads(batch) if op[0] != "probe"]


def make_snapshot(context, base: str):
    """A first visit (no game yet: the snapshot is never made in the player's turn) that makes one."""
    page = context.new_page()
    log = PageLog().attach(page)  # a script error or a CSP violation shows here, the workers' too
    page.add_init_script(KEEP_JS)
    # Every response from the start: the maker may begin its reads as soon as the service worker is in
    # control, before this test could look (a listener added later missed them once in a full run).
    fetched: list[tuple[str, bool]] = []
    page.on("response", lambda response: fetched.append((response.url, response.from_service_worker)))
    page.goto(base)
    wait_for_python(page)
    assert wait_state(page) == "setup"
    wait_controlled(page)
    assert how_it_started(page)["start"] == "normal"
    done = made(page)
    assert done["made"] is True, done
    assert 0 < done["heap"] <= 31457280 and done["stored"] > done["heap"], done  # the heap and a header
    assert_no_errors(log)
    # What the maker read came from the service worker's precache: of the runtime's files, only the
    # first visit's own reads, Python's worker starting before any service worker, crossed the network.
    network = Counter(
        url for url, sw in fetched if not sw and ("/vendor/pyodide/" in url or "app.zip.xz" in url)
    )
    assert network and max(network.values()) == 1, network
    return page


def test_a_return_visit_restores_the_snapshot_and_sends_the_same_first_batch(ctx, site_url):
    ctx.add_init_script(BATCHES_JS)
    page = make_snapshot(ctx, site_url)
    open_table(page, site_url)
    play_a_move(page)
    wait_state(page, "human")
    page.close()

    restored = ctx.new_page()
    log = PageLog().attach(restored)
    seen = asked(restored)
    open_table(restored, site_url, resume=True)
    assert how_it_started(restored)["start"] == "restored"
    assert [url for url in seen if "app.zip.xz" in url] == []  # the app came back with the heap
    batch = first_batch(restored)
    keys = restored.evaluate(KEYS_JS)
    play_a_move(restored)  # the restored Python plays on
    assert_no_errors(log)
    assert restored.evaluate("() => window.ochoLocoProbe.snapshotMade") is None  # nothing to make again
    restored.evaluate(PUT_KEYS_JS, keys)  # the next start finds the storage this one found
    restored.evaluate("(cache) => caches.delete(cache)", CACHE)
    restored.close()

    normal = ctx.new_page()
    seen = asked(normal)
    open_table(normal, site_url, resume=True)
    assert how_it_started(normal)["why"] == "missing"
    assert [url for url in seen if "app.zip.xz" in url], "a start from scratch unpacks the archive"
    assert without_figures(first_batch(normal)) == without_figures(batch)
    assert len(without_figures(batch)) > 5  # a whole table drawn


SAME = "return bytes;"
GROW = "const more = new Uint8Array(bytes.length + 65536); more.set(bytes); return more;"
# kind: (what changes the kept bytes, in JavaScript; the headers changed; a new SHA-256; what the start says)
BAD = {
    # a byte of the kept snapshot changed: its SHA-256 is not the one kept with it
    "corrupt": ("bytes[bytes.length >> 1] ^= 0xff; return bytes;", {}, False, "corrupt"),
    # another build's snapshot (its key is not this build's)
    "stale": (SAME, {"X-Snapshot-Key": "0" * 64}, False, "stale"),
    # a heap larger than a fresh start can hold (Pyodide bug #6254)
    "oversized": (GROW, {}, True, "oversized"),
    # Pyodide's own check: the snapshot's build id is not the runtime's
    "foreign build": ("bytes[16] ^= 0xff; return bytes;", {}, True, "build id mismatch"),
}


@pytest.mark.parametrize("kind", list(BAD))
def test_a_bad_snapshot_is_dropped_and_python_starts_as_without_one(ctx, site_url, kind):
    page = make_snapshot(ctx, site_url)
    open_table(page, site_url)
    play_a_move(page)
    wait_state(page, "human")
    saved = raw_save(page)
    change, headers, resum, why = BAD[kind]
    page.evaluate(REWRITE_JS, [CACHE, change, headers, resum])
    page.close()

    again = ctx.new_page()  # no keepSnapshot: nothing makes a new one behind the test's back
    open_table(again, site_url, resume=True)
    started = how_it_started(again)
    assert started["start"] == "normal", started
    assert why in started["why"], started
    assert again.evaluate("async (cache) => (await (await caches.open(cache)).keys()).length", CACHE) == 0
    assert raw_save(again) == saved  # the game is where it was
    play_a_move(again)
    assert wait_state(again) in ("human", "results")
