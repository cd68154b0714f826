"""Plant known bugs in the shipped code, one at a time, and check that the tests catch each one.

    python -m lab.planted_bugs [--list] [--only NAME[,NAME...]] [--full] [--clean]

Each bug is one exact text replacement in one shipped file (``engine/``, ``ui/``, ``assets/``,
``index.html``, the build's tools), or a few planted together (``also``: a rename made on one
side of the seam and not the other). For each, the script checks the files are unchanged from
git, replaces ``old`` (it must occur exactly once: a refactor that moved the code fails
loudly here, so the bug is planted again by hand rather than silently skipped) by ``new``,
runs the tests named as catching it::

    .venv/bin/python -m pytest -p no:cacheprovider -x -q <targets>

and always writes the files back (``git diff --quiet`` on each is checked afterwards). A target
``check:tsc`` (or ``check:eslint``, ``check:mypy``) is one of ``tools/test.sh``'s static checks,
run before the tests, in the order given: a bug one refuses is caught there. A bug
is *caught* when a test fails, *MISSED* when every test it ran passed, and *NOT RUN* when
nothing ran (every target skipped, say with no Chromium). The browser tests build the site
from the working tree once per pytest session, so they test the planted bug too.

``--only`` plants only the bugs named; ``--full`` runs the whole suite for each bug instead
of its targets (slow: for checking that a bug is caught at all, not by which test);
``--clean`` first runs every bug's targets once on the unchanged tree, where they must pass
(else a "caught" would mean nothing). ``--list`` prints the bugs and stops. The table at
the end (Markdown) is the one in ``docs/measurements.md`` ("Planted bugs"). This is a check
of the suite, not a test: it plants bugs in the working tree and takes minutes.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = ROOT / ".venv" / "bin" / "python"
TIMEOUT = 1800  # seconds for one bug's run: a hung page must not hang the whole check

# The categories issue 35 asks for, in its order.
CATEGORIES = (
    "rule",
    "save field",
    "record byte",
    "CPU-check step",
    "protocol field",
    "focus move",
    "dialog default",
    "layout at 390 px",
    "offline start",
    "picture",
    "import",
    "challenge",
)


@dataclass(frozen=True)
class Bug:
    """One planted bug: ``old`` becomes ``new`` in ``path``; ``targets`` are the tests expected to fail."""

    name: str
    category: str
    path: str
    old: str
    new: str
    targets: tuple[str, ...]
    what: str
    k: str = ""  # a -k expression that narrows the targets' tests
    also: tuple[tuple[str, str, str], ...] = ()  # more (path, old, new) planted with it

    def edits(self) -> tuple[tuple[str, str, str], ...]:
        """Every replacement of this bug: ``(path, old, new)``."""
        return ((self.path, self.old, self.new), *self.also)

    def args(self) -> tuple[str, ...]:
        """The targets as pytest arguments."""
        return (*self.targets, "-k", self.k) if self.k else self.targets


# tools/test.sh's static checks, as targets ("check:NAME").
STATIC_CHECKS = {
    "check:tsc": ["node_modules/.bin/tsc", "-p", "tsconfig.json"],
    "check:eslint": ["node_modules/.bin/eslint", "assets"],
    "check:mypy": [str(ROOT / ".venv" / "bin" / "mypy")],
}

T_RULES = "tests/test_rules.py"
T_STORAGE = "tests/test_ui_storage.py"
T_HISTORY = "tests/test_ui_history.py"
B = "tests/browser/"

BUGS: tuple[Bug, ...] = (
    Bug(
        "draws-4",
        "rule",
        "engine/game.py",
        "MAX_DRAWS = 3\n",
        "MAX_DRAWS = 4\n",
        (f"{T_RULES}::test_rule_07_up_to_3_draws_even_holding_a_legal_card_then_play_any_legal",),
        "rule 7: four draws a turn instead of three",
    ),
    Bug(
        "next-hand-field",
        "save field",
        "ui/storage.py",
        'if ui.get("next_hand") is True and game.phase == HAND_OVER:',
        'if ui.get("nextHand") is True and game.phase == HAND_OVER:',
        (f"{T_STORAGE}::test_a_next_hand_already_dealt_is_reopened_dealt",),
        "the save's `ui.next_hand` read under another name: a dealt next hand reopens undealt",
    ),
    Bug(
        "v1-reshuffles",
        "save field",
        "engine/save.py",
        'game.reshuffles = _int(data, "reshuffles", 0, 10**6)',
        "game.reshuffles = 0",
        ("tests/test_save.py",),
        "a version-1 snapshot's `reshuffles` field ignored on load",
    ),
    Bug(
        "eight-numbers",
        "record byte",
        "engine/record.py",
        "*(PLAY8[eight][suit] for eight in EIGHTS for suit in SUITS),",
        "*(PLAY8[eight][suit] for suit in SUITS for eight in EIGHTS),",
        ("tests/test_record.py", "engine/record.py"),
        "an 8 naming a suit numbered suit-major: every record with one reads as other moves",
    ),
    Bug(
        "check-seat-1-only",
        "CPU-check step",
        "engine/verify.py",
        "if seat != HUMAN and len(game.legal_actions()) > 1:",
        "if seat == 1 and len(game.legal_actions()) > 1:",
        ("tests/test_verify.py",),
        "the CPU check skips the second CPU seat of a three-player game",
    ),
    Bug(
        "by-key-field",
        "protocol field",
        "assets/intents.js",
        'case "see-final": return {kind, by_key: byKey};',
        'case "see-final": return {kind, bykey: byKey};',
        ("check:tsc", f"{B}test_page_pacing.py"),
        "an intent's `by_key` sent as `bykey`: a key press reads as a mouse click",
    ),
    Bug(
        "replay-key-field",
        "protocol field",
        "ui/worker.py",
        "table.results.replay_go(e.where)",
        "table.results.replay_go(e.key)",
        ("check:mypy", "tests/test_ui_worker.py"),
        "the worker reads a replay step's `where` as `key`: arrow keys no longer step the replay",
    ),
    Bug(
        "replay-key-page",
        "protocol field",
        "assets/intents.js",
        'send({kind: "replay-step", where});',
        'send({kind: "replay-step", key: where});',
        (
            "check:tsc",
            f"{B}test_page_review.py::test_repaso_lists_each_decision_and_jumps_to_it_by_click_and_keyboard",
        ),
        "the page sends a replay step's `where` as `key` (the page's side of the replay-key-field bug)",
    ),
    Bug(
        "pace-field-renamed",
        "protocol field",
        "ui/protocol.py",
        "    pace: Pace\n",
        "    speed: Pace\n",
        ("check:tsc", "check:mypy"),
        "the pace intent's field renamed in the declaration, its types and the page, the worker left"
        " reading `pace` (issue 45: every fast test passed while a pace choice was ignored)",
        also=(
            ("assets/protocol.d.ts", 'kind: "pace"; pace: Pace;', 'kind: "pace"; speed: Pace;'),
            ("assets/intents.js", 'send({kind: "pace", pace: ', 'send({kind: "pace", speed: '),
        ),
    ),
    Bug(
        "rescue-any-card",
        "focus move",
        "assets/focus.js",
        'for (const selector of ["#hand button.card.legal", "#main-btn:not([disabled])",',
        'for (const selector of ["#hand button.card", "#main-btn:not([disabled])",',
        (f"{B}test_nothing_lost.py::test_focus_moves_on_when_the_third_draw_disables_robar",),
        "a focus rescued from a disabled «Robar» goes to the first card, not the first that fits",
    ),
    Bug(
        "replace-default-yes",
        "dialog default",
        "ui/table.py",
        'self.screen.focus("replace-no")',
        'self.screen.focus("replace-yes")',
        (T_STORAGE,),
        "the replace question opens on «Jugar la del enlace», not «Seguir con la mía»",
    ),
    Bug(
        "phone-breakpoint",
        "layout at 390 px",
        "assets/css/screens.css",
        "@media (max-width: 520px) {\n  :root { --card-w: 50px; --card-h: 72px; }",
        "@media (max-width: 380px) {\n  :root { --card-w: 50px; --card-h: 72px; }",
        (f"{B}test_page_geometry.py::test_focused_control_is_in_view_and_uncovered_in_every_state",),
        "the phone rules stop at 380 px: a 390 px phone gets the tablet table",
        k="390x844",
    ),
    Bug(
        "precache-no-wasm",
        "offline start",
        "tools/sw.mjs",
        "webmanifest,zip,wasm,svg,",
        "webmanifest,zip,svg,",
        (f"{B}test_offline.py::test_after_one_visit_the_game_loads_and_plays_offline",),
        "the service worker's precache leaves out the runtime's .wasm",
    ),
    Bug(
        "picture-no-hand",
        "picture",
        "assets/inline/first-paint.js",
        '"hand": [[], true],',
        '"hand": [[], false],',
        (
            f"{B}test_first_paint.py::"
            "test_a_returning_player_sees_their_table_before_python_and_the_live_one_matches",
        ),
        "the stored picture keeps the hand's element but not its cards",
    ),
    Bug(
        "import-any-date",
        "import",
        "ui/history_file.py",
        "return text, day_text(date)",
        "return text, date",
        (T_HISTORY,),
        "an imported game's date taken unchecked («ayer» kept as a date)",
    ),
    Bug(
        "import-any-format",
        "import",
        "ui/history_file.py",
        ' or data.get("format") != EXPORT_FORMAT:',
        ":",
        (T_HISTORY, "tests/test_ui_history_trust.py"),
        "an import file's `format` not checked (only `app` and `version`)",
    ),
    Bug(
        "tie-wins",
        "challenge",
        "engine/challenge.py",
        "if mine < theirs:",
        "if mine <= theirs:",
        (T_HISTORY, "tests/test_review.py"),
        "a tied challenge is announced as won",
    ),
)


@dataclass
class Result:
    """What one run of the targets gave: counts, the first failing test and the verdict."""

    verdict: str
    ran: int
    failed: str
    seconds: float
    why: str = ""


def by_name(names: list[str]) -> list[Bug]:
    known = {bug.name: bug for bug in BUGS}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise SystemExit(f"unknown bug(s): {', '.join(unknown)}; --list shows them")
    return [known[n] for n in names]


def clean(path: str) -> bool:
    return subprocess.run(["git", "diff", "--quiet", "--", path], cwd=ROOT, check=False).returncode == 0


def pytest(targets: tuple[str, ...] | None) -> Result:
    """Run pytest on ``targets`` (None: the whole suite) and read its JUnit report."""
    python = str(PYTHON if PYTHON.exists() else Path(sys.executable))
    env = dict(os.environ, HYPOTHESIS_PROFILE="ci")
    with tempfile.TemporaryDirectory(prefix="planted-") as tmp:
        report = Path(tmp) / "junit.xml"
        command = [python, "-m", "pytest", "-p", "no:cacheprovider", "-x", "-q", f"--junitxml={report}"]
        began = time.monotonic()
        try:
            done = subprocess.run(
                [*command, *(targets or ())],
                cwd=ROOT,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                timeout=TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return Result("TIMEOUT", 0, "", time.monotonic() - began)
        seconds = time.monotonic() - began
        if not report.exists() or done.returncode not in (0, 1):
            sys.stdout.write(done.stdout[-3000:])
            return Result(f"ERROR (pytest exit {done.returncode})", 0, "", seconds)
        ran = 0
        failed = ""
        for case in ET.parse(report).iter("testcase"):
            if case.find("skipped") is not None:
                continue
            ran += 1
            if not failed and (case.find("failure") is not None or case.find("error") is not None):
                module = (case.get("classname") or "").rsplit(".", 1)[-1]
                failed = f"{module}::{case.get('name')}"
    if done.returncode == 1:
        # The first line of the failure's explanation: evidence that the planted bug is what failed.
        why = next((line[:300] for line in done.stdout.splitlines() if line.startswith("E  ")), "")
        return Result("caught", ran, failed or "(collection)", seconds, why)
    return Result("MISSED" if ran else "NOT RUN", ran, "", seconds)


def plant(bug: Bug, full: bool) -> Result:
    """Plant ``bug``, run its tests (or all), and write the files back whatever happens."""
    originals: dict[str, bytes] = {}
    for name, old, _new in bug.edits():
        if not clean(name):
            raise SystemExit(f"{name} has uncommitted changes: commit or stash them first")
        count = (ROOT / name).read_bytes().decode().count(old)
        if count != 1:
            raise SystemExit(f"{bug.name}: the text to replace occurs {count} times in {name}, not once")
    try:
        for name, old, new in bug.edits():
            path = ROOT / name
            originals.setdefault(name, path.read_bytes())
            text = path.read_bytes().decode()
            path.write_text(text.replace(old, new), encoding="utf-8", newline="")
        for check in (t for t in bug.targets if t.startswith("check:")):
            began = time.monotonic()
            done = subprocess.run(
                STATIC_CHECKS[check],
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                check=False,
            )
            if done.returncode:
                why = next((line[:300] for line in done.stdout.splitlines() if "error" in line.lower()), "")
                return Result("caught", 1, check, time.monotonic() - began, why)
        tests = tuple(t for t in bug.args() if not t.startswith("check:"))
        return pytest(None if full else tests)
    finally:
        for name, original in originals.items():
            (ROOT / name).write_bytes(original)
            if not clean(name):
                raise SystemExit(f"{name} was not restored: check `git diff {name}`")


def short(target: str) -> str:
    """A test target without its folder (``test_rules.py::test_rule_07_...``); any other path whole."""
    return target.rsplit("/", 1)[-1] if target.startswith("tests/") else target


def row(bug: Bug, result: Result) -> str:
    caught_by = "<br>".join(f"`{short(t)}`" for t in bug.targets) + (f'<br>`-k "{bug.k}"`' if bug.k else "")
    got = f"caught by `{result.failed}`" if result.verdict == "caught" else f"**{result.verdict}**"
    files = "<br>".join(f"`{name}`" for name in dict.fromkeys(name for name, _, _ in bug.edits()))
    cells = [f"`{bug.name}`", bug.category, files, bug.what, caught_by, got]
    return "| " + " | ".join(cells) + " |"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Plant known bugs one at a time; check that tests catch each."
    )
    parser.add_argument("--list", action="store_true", help="print the bugs and stop")
    parser.add_argument("--only", action="append", default=[], help="plant only these (comma-separated)")
    parser.add_argument("--full", action="store_true", help="run the whole suite for each bug (slow)")
    parser.add_argument("--clean", action="store_true", help="first check the targets pass unchanged")
    args = parser.parse_args(argv)
    bugs = by_name([n for item in args.only for n in item.split(",") if n]) if args.only else list(BUGS)
    missing = sorted(set(CATEGORIES) - {bug.category for bug in BUGS})
    if missing:
        raise SystemExit(f"no bug planted for: {', '.join(missing)}")
    if args.list:
        for bug in bugs:
            print(f"{bug.name:20} {bug.category:17} {bug.path:20} {bug.what}")
        return 0
    if args.clean:
        # One run for the bugs without -k, one for each with: every test that would catch must pass here.
        runs = [
            tuple(
                dict.fromkeys(
                    t for bug in bugs if not bug.k for t in bug.targets if not t.startswith("check:")
                )
            )
        ]
        runs += [bug.args() for bug in bugs if bug.k]
        for targets in filter(None, runs):
            result = pytest(targets)
            passed = result.verdict == "MISSED"  # nothing failed: what the unchanged tree must give
            said = "all passed" if passed else f"{result.verdict} {result.failed}"
            print(f"unchanged tree: {said}, {result.ran} tests, {result.seconds:.0f} s", flush=True)
            if not passed:
                print(f"a target fails or did not run on the unchanged tree: {result.failed}")
                return 1
    rows = []
    for bug in bugs:
        print(f"{bug.name}: planted in {bug.path} ...", end=" ", flush=True)
        result = plant(bug, args.full)
        print(f"{result.verdict} {result.failed} ({result.ran} tests, {result.seconds:.0f} s)")
        if result.why:
            print(f"    {result.why}", flush=True)
        rows.append((bug, result))
    print()
    print("| bug | category | file | what | caught by | result |")
    print("|---|---|---|---|---|---|")
    for bug, result in rows:
        print(row(bug, result))
    return 0 if all(result.verdict == "caught" for _, result in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
