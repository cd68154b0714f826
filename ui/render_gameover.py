"""HTML for the end of a game: the verdict, the standings, the race to 100 and your best and worst hand.

Pure functions of a :class:`Race` (every total after every hand), like
:mod:`ui.render`: the same code runs under pytest and in the page. The race is
drawn as an SVG picture (one line a player, a point after each hand, the line
of 100) with an accessible name, and given again as a real table of the same
numbers, folded under a ``<details>`` for the eye and reachable by keyboard
and screen readers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from itertools import pairwise

from engine.game import TARGET

from .render import HUMAN, join_clauses, seat_name

# The picture's frame, in SVG user units (the picture scales to its box, keeping its shape).
WIDTH, HEIGHT = 340, 200
LEFT, RIGHT, TOP, BOTTOM = 34, 258, 12, 170  # the plot area; the names go right of it
LABEL_GAP = 13  # the least distance between two names at the lines' ends
# Each player's line has its own dash, so the lines never differ by colour alone.
DASHES = ("", "7 4", "2 3")


@dataclass(frozen=True)
class Race:
    """Every player's total before the first hand known and after each hand since.

    ``first`` is the number (from 0) of the first hand known; ``start`` the totals
    before it (zeros for a whole game; an old save may begin part-way);
    ``after`` the totals after each hand from ``first`` on, the last the final ones.
    """

    first: int
    start: tuple[int, ...]
    after: tuple[tuple[int, ...], ...]

    @property
    def players(self) -> int:
        return len(self.start)

    @property
    def final(self) -> tuple[int, ...]:
        return self.after[-1] if self.after else self.start

    def line(self, seat: int) -> list[int]:
        """``seat``'s total at each point of the race: before the first hand, then after each hand."""
        return [self.start[seat], *(totals[seat] for totals in self.after)]

    def taken(self, seat: int) -> list[int]:
        """The points ``seat`` took in each hand (the difference of two totals)."""
        line = self.line(seat)
        return [b - a for a, b in pairwise(line)]

    def hand_names(self) -> list[int]:
        """The number each known hand has on the page (from 1)."""
        return [self.first + i + 1 for i in range(len(self.after))]


def winners_of(totals: Sequence[int]) -> tuple[int, ...]:
    low = min(totals)
    return tuple(s for s, t in enumerate(totals) if t == low)


def verdict(winners: Sequence[int]) -> str:
    """The heading of the end: «Has ganado», «Ha ganado CPU 1», a shared win."""
    if list(winners) == [HUMAN]:
        return "Has ganado"
    if len(winners) == 1:
        return f"Ha ganado {seat_name(winners[0])}"
    names = join_clauses([seat_name(s) for s in winners])
    return f"Victoria compartida: {names}" if HUMAN in winners else f"Han ganado {names}"


def outcome_of(winners: Sequence[int]) -> str:
    """``won``, ``shared`` or ``lost``: how the game ended for the person."""
    if HUMAN not in winners:
        return "lost"
    return "won" if len(winners) == 1 else "shared"


def hands_text(count: int) -> str:
    return "1 mano" if count == 1 else f"{count} manos"


def points_text(points: int) -> str:
    return "1 punto" if points == 1 else f"{points} puntos"


def verdict_sub(race: Race, level: str) -> str:
    """The line under the verdict: who ends with the lowest total, how many hands, the CPU level."""
    final = race.final
    won = winners_of(final)
    if list(won) == [HUMAN]:
        who = "Acabas"
    elif HUMAN in won:
        who = f"{join_clauses([seat_name(s) for s in won])} acabáis"
    else:
        who = f"{join_clauses([seat_name(s) for s in won])} {'acaba' if len(won) == 1 else 'acaban'}"
    played = race.first + len(race.after)
    return (
        f"{who} con {points_text(min(final))}, el total más bajo cuando alguien llegó a {TARGET}, "
        f"en {hands_text(played)}. Rival {level}."
    )


def standings_html(race: Race) -> str:
    """The final standings, lowest total first; the winners say so in words."""
    final = race.final
    won = winners_of(final)
    order = sorted(range(race.players), key=lambda s: (final[s], s))
    items = []
    for seat in order:
        mark = ' <span class="standing-won">(gana)</span>' if seat in won else ""
        here = " data-winner" if seat in won else ""
        items.append(
            f'<li data-seat="{seat}"{here}><span class="standing-name">{seat_name(seat)}</span>{mark} '
            f'<span class="standing-total">{points_text(final[seat])}</span></li>'
        )
    return (
        '<ol class="final-standings" aria-label="Clasificación final, de menos a más puntos">'
        f"{''.join(items)}</ol>"
    )


def _x(index: int, points: int) -> float:
    """The picture's x of point ``index`` of ``points`` (the start, then one a hand)."""
    if points <= 1:
        return float(LEFT)
    return LEFT + (RIGHT - LEFT) * index / (points - 1)


def chart_top(race: Race) -> int:
    """The total at the top of the picture: 100, or more when a total went past it (to a ten above)."""
    high = max(max(totals) for totals in (race.start, *race.after))
    return max(TARGET, -(-high // 10) * 10)


def _y(total: int, top: int) -> float:
    return BOTTOM - (BOTTOM - TOP) * total / top


def _num(value: float) -> str:
    return f"{value:.1f}".removesuffix(".0")


def chart_points(race: Race, seat: int) -> list[tuple[float, float]]:
    """Where ``seat``'s line passes: one point before the first hand and one after each hand."""
    line = race.line(seat)
    top = chart_top(race)
    return [(_x(i, len(line)), _y(total, top)) for i, total in enumerate(line)]


def chart_name(race: Race) -> str:
    """The picture's accessible name: what it shows and how each player ended."""
    final = race.final
    ends = join_clauses([f"{seat_name(s)} con {final[s]}" for s in range(race.players)])
    return (
        f"La carrera a {TARGET}: el total de cada jugador después de cada mano, "
        f"{hands_text(len(race.after))}. Acaban {ends}."
    )


def _label_ys(ends: Sequence[float]) -> list[float]:
    """The names' heights at the lines' ends, pushed apart so that none covers another."""
    order = sorted(range(len(ends)), key=lambda s: ends[s])
    placed = [0.0] * len(ends)
    last = None
    for seat in order:
        y = ends[seat] + 4
        if last is not None and y < last + LABEL_GAP:
            y = last + LABEL_GAP
        placed[seat] = y
        last = y
    overflow = max(placed) - (HEIGHT - 4)
    if overflow > 0:
        placed = [y - overflow for y in placed]
    return placed


def chart_svg(race: Race) -> str:
    """The race to 100 as an SVG picture: one line a player, the line of 100, hands along the bottom."""
    top = chart_top(race)
    count = len(race.after) + 1
    name = escape(chart_name(race))
    parts = [
        f'<svg class="race-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{name}"'
        f' focusable="false"><title>{name}</title>'
    ]
    # The scale: 0, every 50, and the top when it is not one of them.
    ticks = sorted({*range(0, top + 1, 50), top})
    for tick in ticks:
        level = _num(_y(tick, top))
        cls = "race-goal" if tick == TARGET else "race-grid"
        parts.append(f'<line class="{cls}" x1="{LEFT}" x2="{RIGHT}" y1="{level}" y2="{level}"/>')
        parts.append(f'<text class="race-tick" x="{LEFT - 4}" y="{_num(_y(tick, top) + 4)}">{tick}</text>')
    # The hands along the bottom: each point after a hand carries its number (every other when crowded).
    step = 1 if count <= 13 else 2
    for i, hand in enumerate(race.hand_names(), start=1):
        if (i - 1) % step == 0 or i == count - 1:
            parts.append(f'<text class="race-hand" x="{_num(_x(i, count))}" y="{BOTTOM + 16}">{hand}</text>')
    parts.append(f'<text class="race-axis" x="{LEFT}" y="{HEIGHT - 1}">Mano</text>')
    ends = []
    for seat in range(race.players):
        points = chart_points(race, seat)
        ends.append(points[-1][1])
        dash = f' stroke-dasharray="{DASHES[seat]}"' if DASHES[seat] else ""
        joined = " ".join(f"{_num(x)},{_num(y)}" for x, y in points)
        parts.append(f'<polyline class="race-line" data-seat="{seat}" points="{joined}"{dash}/>')
        dots = "".join(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="2.5"/>' for x, y in points[1:])
        parts.append(f'<g class="race-dots" data-seat="{seat}">{dots}</g>')
    for seat, height in enumerate(_label_ys(ends)):
        total = race.final[seat]
        parts.append(
            f'<text class="race-name" data-seat="{seat}" x="{RIGHT + 6}" y="{_num(height)}">'
            f"{seat_name(seat)} {total}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def race_table_html(race: Race) -> str:
    """The same numbers as the picture, as a table: a row a hand, a column a player."""
    heads = "".join(f'<th scope="col">{seat_name(s)}</th>' for s in range(race.players))
    rows = []
    if race.first > 0 or any(race.start):
        cells = "".join(f"<td>{t}</td>" for t in race.start)
        rows.append(f'<tr><th scope="row">Antes de la mano {race.first + 1}</th>{cells}</tr>')
    for hand, totals in zip(race.hand_names(), race.after, strict=True):
        cells = "".join(f"<td>{t}</td>" for t in totals)
        rows.append(f'<tr><th scope="row">{hand}</th>{cells}</tr>')
    return (
        '<table class="race-table"><caption>Total de puntos de cada jugador después de cada mano</caption>'
        f'<thead><tr><th scope="col">Mano</th>{heads}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
    )


def race_html(race: Race) -> str:
    """The picture with its table folded under it."""
    return (
        '<figure class="race"><figcaption class="race-caption">La carrera a 100</figcaption>'
        f"{chart_svg(race)}"
        '<details class="race-numbers"><summary>Los puntos, mano a mano</summary>'
        f"{race_table_html(race)}</details></figure>"
    )


def _hands_named(hands: Sequence[int]) -> str:
    if len(hands) == 1:
        return f"la mano {hands[0]}"
    if len(hands) <= 3:
        return "las manos " + join_clauses([str(h) for h in hands])
    return f"la mano {hands[0]} y {len(hands) - 1} más"


def best_and_worst(race: Race) -> list[str]:
    """Your best hand (the one that added fewest points to your total) and your worst (the most)."""
    taken = race.taken(HUMAN)
    names = race.hand_names()
    if not taken:
        return []
    if len(taken) == 1:
        return [f"Solo se jugó una mano: te sumó {points_text(taken[0])}."]
    low, high = min(taken), max(taken)
    if low == high:
        return [f"Todas tus manos te sumaron lo mismo: {points_text(low)} cada una."]
    best = [h for h, p in zip(names, taken, strict=True) if p == low]
    worst = [h for h, p in zip(names, taken, strict=True) if p == high]
    return [
        f"Tu mejor mano, la que menos puntos te sumó: {_hands_named(best)}, con {points_text(low)}.",
        f"Tu peor mano, la que más puntos te sumó: {_hands_named(worst)}, con {points_text(high)}.",
    ]


def hands_html(race: Race) -> str:
    lines = best_and_worst(race)
    if not lines:
        return ""
    items = "".join(f"<li>{escape(line)}</li>" for line in lines)
    return f'<ul class="best-worst" aria-label="Tus manos">{items}</ul>'


def gameover_body_html(race: Race) -> str:
    """The view's body: the standings, the race, your best and worst hand."""
    return standings_html(race) + race_html(race) + hands_html(race)


__all__ = [
    "Race",
    "best_and_worst",
    "chart_name",
    "chart_points",
    "chart_svg",
    "chart_top",
    "gameover_body_html",
    "outcome_of",
    "race_html",
    "race_table_html",
    "standings_html",
    "verdict",
    "verdict_sub",
]
