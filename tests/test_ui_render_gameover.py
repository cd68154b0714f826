"""The end of a game's view, drawn from the totals after each hand (ui/render_gameover.py)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from itertools import pairwise

from ui.render_gameover import (
    HEIGHT,
    Race,
    best_and_worst,
    chart_points,
    chart_svg,
    chart_top,
    race_html,
    race_table_html,
    standings_html,
    verdict,
    verdict_sub,
)

# Three players, five hands: CPU 1 passes 100 in the last one, you end lowest.
RACE = Race(
    first=0,
    start=(0, 0, 0),
    after=((0, 12, 30), (25, 12, 51), (25, 40, 51), (33, 72, 60), (33, 104, 77)),
)


class Parsed(HTMLParser):
    """The elements of a piece of markup: (tag, attributes), and each table's cells as text."""

    def __init__(self, markup: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.rows: list[list[str]] = []
        self.cell: list[str] | None = None
        self.feed(markup)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "tr":
            self.rows.append([])
        if tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append("".join(self.cell))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)

    def all(self, tag: str) -> list[dict[str, str | None]]:
        return [attrs for name, attrs in self.tags if name == tag]


def points_of(attrs: dict[str, str | None]) -> list[tuple[float, float]]:
    pairs = (attrs["points"] or "").split()
    return [(float(x), float(y)) for x, y in (p.split(",") for p in pairs)]


def test_the_race_draws_one_line_a_player_through_the_totals_after_each_hand() -> None:
    markup = chart_svg(RACE)
    svg = Parsed(markup)
    assert chart_top(RACE) == 110, "104 goes past 100: the picture reaches the next ten"
    # The line of 100, across the picture; with the line of 0 it gives the scale to read totals back.
    grid = {g.get("class"): float(g["y1"] or 0) for g in svg.all("line") if g.get("class") == "race-goal"}
    zero = next(float(g["y1"] or 0) for g in svg.all("line") if g.get("class") == "race-grid")
    assert len([g for g in svg.all("line") if g.get("class") == "race-goal"]) == 1
    per_point = (zero - grid["race-goal"]) / 100
    lines = svg.all("polyline")
    assert [line["data-seat"] for line in lines] == ["0", "1", "2"], "one line a player"
    for seat, line in enumerate(lines):
        drawn = points_of(line)
        assert len(drawn) == len(RACE.after) + 1, "the start, then one point after each hand"
        xs = [x for x, _ in drawn]
        assert xs == sorted(xs) and len(set(xs)) == len(xs), "hands left to right"
        totals = [round((zero - y) / per_point) for _, y in drawn]
        assert totals == [0, *(after[seat] for after in RACE.after)], f"seat {seat}"
        assert drawn == [(round(x, 1), round(y, 1)) for x, y in chart_points(RACE, seat)]
    # Not by colour alone: each line has its own dash, and its name and total at its end.
    assert len({line.get("stroke-dasharray") for line in lines}) == 3
    names = re.findall(
        r'<text class="race-name" data-seat="\d" x="[\d.]+" y="([\d.]+)">([^<]*)</text>', markup
    )
    assert [n for _, n in names] == ["Tú 33", "CPU 1 104", "CPU 2 77"]
    ys = sorted(float(y) for y, _ in names)
    assert all(b - a >= 12 for a, b in pairwise(ys)) and ys[-1] <= HEIGHT


def test_the_race_has_an_accessible_name_and_a_table_of_the_same_numbers() -> None:
    markup = race_html(RACE)
    parsed = Parsed(markup)
    (svg,) = parsed.all("svg")
    assert svg["role"] == "img"
    name = svg["aria-label"] or ""
    assert "carrera a 100" in name and "Tú con 33, CPU 1 con 104 y CPU 2 con 77" in name
    assert f"<title>{name}</title>" in markup
    # The table alternative: a real table inside a <details> the keyboard opens.
    assert re.search(r"<details[^>]*><summary>[^<]+</summary><table", markup)
    table = Parsed(race_table_html(RACE))
    assert table.rows[0] == ["Mano", "Tú", "CPU 1", "CPU 2"]
    body = [[int(cell) for cell in row] for row in table.rows[1:]]
    assert body == [[hand, *after] for hand, after in enumerate(RACE.after, start=1)]
    assert all(attrs.get("scope") for attrs in table.all("th")), "every header says what it heads"
    assert "<caption>" in race_table_html(RACE)


def test_a_game_known_only_part_way_starts_its_race_and_table_there() -> None:
    race = Race(first=2, start=(10, 40), after=((10, 101),))
    lines = Parsed(chart_svg(race)).all("polyline")
    assert [len(points_of(line)) for line in lines] == [2, 2]
    rows = Parsed(race_table_html(race)).rows
    assert rows[1] == ["Antes de la mano 3", "10", "40"] and rows[2] == ["3", "10", "101"]


def test_best_and_worst_hand_are_yours_and_say_what_they_mean() -> None:
    # You took 0, 25, 0, 8, 0: the best is the hands of 0 points, the worst the hand of 25.
    assert best_and_worst(RACE) == [
        "Tu mejor mano, la que menos puntos te sumó: las manos 1, 3 y 5, con 0 puntos.",
        "Tu peor mano, la que más puntos te sumó: la mano 2, con 25 puntos.",
    ]
    one = Race(first=0, start=(0, 0), after=((12, 100),))
    assert best_and_worst(one) == ["Solo se jugó una mano: te sumó 12 puntos."]


def test_the_verdict_names_the_winner() -> None:
    assert verdict((0,)) == "Has ganado"
    assert verdict((1,)) == "Ha ganado CPU 1"
    assert verdict((0, 2)) == "Victoria compartida: Tú y CPU 2"
    assert verdict((1, 2)) == "Han ganado CPU 1 y CPU 2"


def test_the_standings_go_from_the_lowest_total_and_say_who_wins_in_words() -> None:
    shared = Race(first=0, start=(0, 0, 0), after=((40, 110, 40),))
    markup = standings_html(shared)
    assert re.findall(r'<li data-seat="(\d)"', markup) == ["0", "2", "1"]
    assert markup.count("(gana)") == 2 and markup.count("data-winner") == 2


def test_the_line_under_the_verdict_says_who_ends_lowest_and_in_how_many_hands() -> None:
    assert verdict_sub(RACE, "Normal") == (
        "Acabas con 33 puntos, el total más bajo cuando alguien llegó a 100, en 5 manos. Rival Normal."
    )
    lost = Race(first=0, start=(0, 0, 0), after=((60, 20, 20), (120, 30, 30)))
    assert verdict_sub(lost, "Difícil").startswith("CPU 1 y CPU 2 acaban con 30 puntos")
