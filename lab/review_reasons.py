"""The review's reasons and margins played against outcomes, on several kinds of learner.

Usage::

    python -m lab.review_reasons rows   --learner drawer --players 2 --games 12 --start 0 --out d2-fit.json
    python -m lab.review_reasons fit    --rows d2-fit.json e2-fit.json [--by choice] [--scale-per-kind]
    python -m lab.review_reasons report --rows d2.json e2.json h2.json [--prior-from d2-fit.json e2-fit.json]
                                        [--version 3]

``rows`` plays whole games (seed ``review-check``, as :mod:`lab.review_check`)
where seat 0 is the stand-in ``--learner`` (:data:`lab.review_learner.STAND_INS`)
and the other seats Normal, and judges every decision of seat 0 with more
than one legal action (not a winning last card) with the current review
version. For each it keeps, as plain numbers:

- where the move played is not the review's choice, the second sample's
  margin and its standard error, and the margin of the two moves measured
  from the **real** hidden hands (``--oracle`` playouts a move, only the
  stock's order shuffled, the cpu's rules playing on: :func:`lab.review_check.oracle`);
- the reason the review would argue, before it is kept or dropped: its kind
  (:data:`engine.advice.KINDS`), the margin and standard error of the sample
  that checks it (the second sample against the move played, else the
  reason's own sample against the runner-up), and the margin of the same
  two moves from the real hands.

``--worlds N`` plays the margin sample in ``N`` worlds instead of the
version's (its action budget in proportion): the same decisions, choices
and real-hands margins, a finer or coarser measured margin.

Each row also keeps what the position showed (:func:`position`: the non-8
cards that fitted, the 8s in hand, the hand's size, the fewest cards an
opponent held, the stock), to try finer kinds of decision on the same rows.

``fit`` fits the priors and scale (as ``lab.review_check fit``) on row files
and prints them: one prior per kind of decision (``--by choice``, version 4:
the kinds of the move played and of the review's choice), per kind of move
played (``--by played``, version 3) or one (``--by pooled``), and with
``--scale-per-kind`` a scale per kind. ``report`` prints, per stand-in (the row files of one
stand-in pooled, as games 3000–3019 and 3020–3059 run apart; one table
size at a time), the band table of stated and real-hands margins under the shipped
settings (or under a prior fitted on ``--prior-from``), and per kind of
reason how often the move it argues for did better from the real hands:
for the reasons the review says (backed by their sample, and not on an
«Igual de buena») and, for comparison, for all it would argue unchecked.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.actions import Action
from engine.advice import KINDS
from engine.cards import EIGHT, RANK_OF
from engine.judge import Because, Choice, Weighing, decision_class, move_class, settings
from engine.record import ACTION_OF, NUMBER_OF
from engine.review import CURRENT, _followed, measured
from engine.view import SeatView
from lab.review_check import _chunks, _map, band_table, collect, fit_prior, oracle


def position(view: SeatView) -> dict[str, int]:
    """What a decision's position showed, for fits by finer kinds of move: the non-8 cards that fitted,
    the 8s in hand, the hand's size, the fewest cards an opponent held, the stock."""
    fitting = [c for c in view.legal_cards() if RANK_OF[c] != EIGHT]
    return {
        "fits": len(fitting),
        "eights": sum(RANK_OF[c] == EIGHT for c in view.hand),
        "hand": len(view.hand),
        "least": min(n for seat, n in enumerate(view.hand_counts) if seat != view.seat),
        "stock": view.stock_count,
    }


def _rows_chunk(args: tuple[str, int, int, int, int, int]) -> list[dict[str, Any]]:
    """Each decision's numbers (see the module's docstring), judged as :func:`engine.review.judging` does.

    The margin sample plays ``worlds`` worlds (the current version's number leaves it as it is), its
    action budget in proportion.
    """
    learner, players, start, games, playouts, worlds = args
    out: list[dict[str, Any]] = []
    s = settings(CURRENT, players)
    s = replace(s, measure_worlds=worlds, measure_actions=s.measure_actions * worlds // s.measure_worlds)
    scale = players - 1
    for view, game, played in collect(players, start, games, learner=learner):
        choice = Choice(view, explain=False)
        choice.run()
        best = choice.best
        followed = _followed(choice, played)
        row: dict[str, Any] = {"followed": followed, "played": NUMBER_OF[played], "best": NUMBER_OF[best]}
        row.update(position(view))
        if not followed:
            sample = Weighing(
                view,
                [best, played],
                s.sample_params(players, s.measure_worlds, s.measure_actions),
                "review-margin",
            )
            while not sample.step(10_000):
                pass
            raw, se = measured((sample.worlds, sample.diff_sum, sample.diff_squares), players)
            values = oracle(view, game, [best, played], playouts)
            row.update(raw=round(raw, 4), se=round(se, 4), real=round(values[0] - values[1], 4))
            kind, _words, _backed = Because(view, best, played, s, sample).kind()
            if kind:
                row.update(kind=kind, check=[row["raw"], row["se"]], check_real=row["real"])
        else:
            other = choice.runner_up
            because = choice.checking(other)
            while not because.step(10_000):
                pass
            kind, _words, _backed = because.kind()
            if kind and other is not None and because.sample is not None:
                mean, se = because.sample.difference()
                values = oracle(view, game, [best, other], playouts)
                row.update(
                    kind=kind,
                    check=[round(mean / scale, 4), round(se / scale, 4)],
                    check_real=round(values[0] - values[1], 4),
                )
        out.append(row)
    return out


def _played(row: dict[str, Any]) -> Action | None:
    return ACTION_OF[row["played"]] if "played" in row else None


def stated_of(rows: list[dict[str, Any]], s: Any) -> list[list[float]]:
    """``lab.review_check``'s row form: [followed, raw, se, stated, real] under settings ``s``."""
    out: list[list[float]] = []
    for r in rows:
        if r["followed"]:
            out.append([1, 0.0, 0.0, 0.0, 0.0])
        else:
            out.append([0, r["raw"], r["se"], s.stated(r["raw"], r["se"], _played(r), _best(r)), r["real"]])
    return out


# Fewer decisions than this of a kind, and that kind is shrunk towards the pooled prior (and scaled by the
# pooled scale); fewer than SCALE_ROWS of it stated over 3 points, and it takes the pooled scale.
PER_CLASS = 60
SCALE_ROWS = 30


def _best(row: dict[str, Any]) -> Action | None:
    return ACTION_OF[row["best"]] if "best" in row else None


def fit(rows: list[dict[str, Any]], players: int, by: str = "choice", scale_per_kind: bool = False) -> Any:
    """Settings with priors and a scale fitted on ``rows`` (as ``lab.review_check fit``).

    One prior for all the decisions, and one per kind of decision that has at least
    :data:`PER_CLASS` decisions: ``by="played"`` the kind of move played (:func:`engine.judge.move_class`,
    version 3), ``by="choice"`` that and the kind of the review's choice (:func:`engine.judge.decision_class`,
    version 4), ``by="pooled"`` none. The scale brings the shrunk margins over 3 points to the real hands'
    (sum over sum); with ``scale_per_kind``, one per kind with at least :data:`SCALE_ROWS` such decisions.
    The other settings are the current version's.
    """
    base = replace(settings(CURRENT, players), by_choice=by == "choice", priors=(), scales=(), scale=1.0)
    other = [r for r in rows if not r["followed"]]
    if by == "choice" and any("best" not in r for r in other):
        raise SystemExit("rows without the review's choice ('best'): fit them --by played")
    table = [[0, r["raw"], r["se"], 0.0, r["real"]] for r in other]

    def kind(r: dict[str, Any]) -> str:
        played, best = _played(r), _best(r)
        assert played is not None
        if by == "choice":
            assert best is not None
            return decision_class(played, best)
        return move_class(played) if by == "played" else ""

    kinds = [kind(r) for r in other]
    names = ("robar", "ocho", "carta") if by == "played" else tuple(sorted(set(kinds) - {""}))
    priors = []
    for name in names:
        inside = [t for t, k in zip(table, kinds, strict=True) if k == name]
        if len(inside) >= PER_CLASS:
            priors.append((name, tuple(fit_prior(inside))))
    fitted = replace(base, prior=tuple(fit_prior(table)), priors=tuple(priors))
    shrunk = [fitted.stated(r["raw"], r["se"], _played(r), _best(r)) for r in other]

    def ratio(pairs: list[tuple[float, float]]) -> float:
        return round(sum(o for _p, o in pairs) / sum(p for p, _o in pairs), 3) if pairs else 1.0

    top = [(p, r["real"], k) for p, r, k in zip(shrunk, other, kinds, strict=True) if p > 3.0]
    scale = ratio([(p, o) for p, o, _k in top])
    scales = []
    if scale_per_kind:
        for name, _prior in priors:
            pairs = [(p, o) for p, o, k in top if k == name]
            if len(pairs) >= SCALE_ROWS:
                scales.append((name, ratio(pairs)))
    return replace(fitted, scale=scale, scales=tuple(scales))


def reasons_table(rows: list[dict[str, Any]], s: Any) -> dict[str, dict[str, int]]:
    """Per kind: reasons argued and said, and how often the real hands back each."""
    out: dict[str, dict[str, int]] = {}
    for r in rows:
        kind = r.get("kind")
        if not kind:
            continue
        mean, se = r["check"]
        backed = mean > 0 and mean >= s.backing * se
        said = backed
        if not r["followed"]:
            said = backed and s.stated(r["raw"], r["se"], _played(r), _best(r)) > s.threshold
        line = out.setdefault(kind, {"argued": 0, "argued_held": 0, "said": 0, "said_held": 0})
        held = r["check_real"] > 0
        line["argued"] += 1
        line["argued_held"] += held
        if said:
            line["said"] += 1
            line["said_held"] += held
    return {k: out[k] for k in KINDS if k in out}


def _read(paths: Sequence[str]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            rows += json.load(f)["rows"]
    return rows


def pooled(files: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The rows of the files of each stand-in together, named by stand-in and games (contiguous runs joined).

    A game may be in one file only (else its decisions would count twice).
    """
    by: dict[str, list[dict[str, Any]]] = {}
    for data in files:
        by.setdefault(data["meta"]["learner"], []).append(data)
    out: dict[str, list[dict[str, Any]]] = {}
    for learner, group in by.items():
        group.sort(key=lambda d: d["meta"]["start"])
        spans: list[list[int]] = []
        for data in group:
            start, games = data["meta"]["start"], data["meta"]["games"]
            if spans and start < spans[-1][1]:
                raise SystemExit(f"{learner}: games from {start} are in two row files")
            if spans and start == spans[-1][1]:
                spans[-1][1] = start + games
            else:
                spans.append([start, start + games])
        games = ", ".join(f"{a}–{b - 1}" for a, b in spans)
        out[f"{learner} games {games}"] = [row for data in group for row in data["rows"]]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    doc = __doc__.split("\n\n")[0]
    parser = argparse.ArgumentParser(prog="python -m lab.review_reasons", description=doc)
    parser.add_argument("what", choices=("rows", "fit", "report"))
    parser.add_argument("--learner", default="learner")
    parser.add_argument("--players", type=int, choices=(2, 3), default=2)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--oracle", type=int, default=200)
    parser.add_argument("--worlds", type=int, default=0, help="rows: margin sample's worlds")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out")
    parser.add_argument("--rows", nargs="*", default=[])
    parser.add_argument("--prior-from", nargs="*", default=[])
    parser.add_argument(
        "--by",
        choices=("choice", "played", "pooled"),
        default="choice",
        help="fit a prior per kind of decision (version 4), of move played (version 3), or one",
    )
    parser.add_argument("--scale-per-kind", action="store_true", help="fit: a scale per kind of decision")
    parser.add_argument("--version", type=int, help="report: the settings of this version (default: current)")
    parser.add_argument("--scale", type=float, help="report: another scale for the stated margins")
    parser.add_argument("--backing", type=float, help="report: standard errors a reason's sample must show")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    if args.what == "rows":
        chunks = [(args.start + s, n) for s, n in _chunks(args.games, args.jobs)]
        worlds = args.worlds or settings(CURRENT, args.players).measure_worlds
        work = [(args.learner, args.players, s, n, args.oracle, worlds) for s, n in chunks]
        parts = _map(args.jobs, _rows_chunk, work)
        rows = [row for part in parts for row in part]
        meta = {
            "learner": args.learner,
            "players": args.players,
            "games": args.games,
            "start": args.start,
            "oracle": args.oracle,
            "version": CURRENT,
            "worlds": worlds,
            "seconds": round(time.perf_counter() - began, 1),
        }
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump({"meta": meta, "rows": rows}, f)
        print(json.dumps({**meta, "decisions": len(rows)}))
        return 0
    files = {}
    for path in args.rows:
        with open(path, encoding="utf-8") as f:
            files[path] = json.load(f)
    players = {f["meta"]["players"] for f in files.values()}
    assert len(players) == 1, "one table size at a time"
    (n_players,) = players
    if args.what == "fit":
        fitted = fit(_read(args.rows), n_players, args.by, args.scale_per_kind)
        out = {"prior": fitted.prior, "priors": fitted.priors, "scale": fitted.scale, "scales": fitted.scales}
        print(json.dumps(out))
        return 0
    s = settings(args.version or CURRENT, n_players)
    if args.prior_from:
        s = fit(_read(args.prior_from), n_players, args.by, args.scale_per_kind)
    if args.backing is not None:
        s = replace(s, backing=args.backing)
    if args.scale is not None:
        s = replace(s, scale=args.scale)
    summary: dict[str, Any] = {"players": n_players, "tables": {}, "reasons": {}}
    for name, rows in pooled(list(files.values())).items():
        table = band_table(stated_of(rows, s))
        summary["tables"][name] = {"decisions": len(rows), "bands": table}
        print(f"{name}: {len(rows)} decisions, {sum(not r['followed'] for r in rows)} not the choice")
        for line in table:
            print(
                f"  stated {line['band']:>6}: {line['decisions']:5d}, stated {line['stated']:6.2f}, "
                f"real {line['measured']:6.2f} (se {line['se']:.2f}), ratio {line['ratio']}"
            )
    every = [r for data in files.values() for r in data["rows"]]
    reasons = reasons_table(every, s)
    summary["reasons"] = reasons
    print("reasons (all files): kind, argued (real hands back), said (real hands back)")
    for kind, counts in reasons.items():
        a, ah, d, dh = counts["argued"], counts["argued_held"], counts["said"], counts["said_held"]
        pct = f"{100 * dh / d:.0f} %" if d else "–"
        print(f"  {kind:>14}: argued {a:5d} ({100 * ah / a:.0f} %), said {d:5d} ({pct})")
    summary["seconds"] = round(time.perf_counter() - began, 1)
    print(json.dumps(summary, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
