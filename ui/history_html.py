"""HTML for «Tus partidas» and for a challenge's comparison: pure functions, Spanish text.

Every number comes from :mod:`engine.stats`; names typed by people are
escaped and shown as plain text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from html import escape
from typing import TYPE_CHECKING

from engine.challenge import Challenge, compare, verdict
from engine.codes import TABLE_SIZES as TABLES
from engine.daily import daily_code
from engine.record import MARKED_FORMATS

if TYPE_CHECKING:
    from engine.stats import Outcome, Stats, Tally

from .history import Past
from .history_file import thousands
from .kept import BROKEN, NEWER, PENDING, REFUSED, Entry
from .links import link_hash

TABLE_NAMES = {2: "1 contra 1", 3: "3 en la mesa"}
HINTS_PREFIXES = tuple(form + "." for form in MARKED_FORMATS)  # a game where the person asked for a hint
RESULT_TEXT = {
    "ganada": "Ganada",
    "compartida": "Ganada (compartida)",
    "perdida": "Perdida",
    "abandonada": "Abandonada",
}
# A kept game that does not count (yet): said in words, not by colour.
UNCHECKED_TEXT = {
    PENDING: "Sin comprobar todavía (no cuenta aún)",
    REFUSED: "No cuadra con las reglas o con la CPU: no cuenta",
}
# A pending game this page could not check: why, in the row and in one line above the list.
LATER_TEXT = {
    NEWER: "Pendiente: es de una versión más nueva de la página (no cuenta aún)",
    BROKEN: "Pendiente: no se ha podido comprobar aquí (no cuenta aún)",
}
LOADING = '<p id="partidas-loading" class="muted" role="status">Cargando tus partidas…</p>'


def waiting_line(waiting: Mapping[str, int]) -> str:
    """«3 partidas de una versión más nueva: se contarán cuando la página se actualice.», and the like."""
    parts = []
    newer, broken = waiting.get(NEWER, 0), waiting.get(BROKEN, 0)
    if newer:
        games = "1 partida" if newer == 1 else f"{newer} partidas"
        parts.append(f"{games} de una versión más nueva: se contarán cuando la página se actualice.")
    if broken:
        games = "1 partida no se ha" if broken == 1 else f"{broken} partidas no se han"
        parts.append(f"{games} podido comprobar en esta visita: se comprobarán otra vez en la próxima.")
    return f'<p id="waiting-line" class="small">{" ".join(parts)}</p>' if parts else ""


EXPLAIN = (
    "Cada partida terminada o dejada a medias se guarda entera en este dispositivo (su código, el nivel "
    "de la CPU y todas sus jugadas) y ninguna se resume ni se descarta. Tus números salen solo de las "
    "partidas que este dispositivo ha vuelto a jugar y comprobado, jugadas de la CPU incluidas: de un "
    "archivo importado se leen las jugadas, nunca resultados ni resúmenes. Una partida que dejas a medias "
    "para empezar otra cuenta como jugada y no ganada. Un empate abajo cuenta como victoria compartida y no "
    "corta la racha."
)


def number(value: float, decimals: int = 1) -> str:
    """Spanish decimal comma: ``12,5``."""
    return f"{value:.{decimals}f}".replace(".", ",")


def percent(tally: Tally) -> str:
    rate = tally.win_rate
    return "—" if rate is None else f"{round(rate * 100)} %"


def _won(tally: Tally) -> str:
    return f"{tally.won} ({tally.shared} compartidas)" if tally.shared else str(tally.won)


ROWS: tuple[tuple[str, Callable[[Tally], str]], ...] = (
    ("Partidas jugadas", lambda t: str(t.played)),
    ("Ganadas", _won),
    ("Abandonadas", lambda t: str(t.abandoned)),
    ("Porcentaje de victorias", percent),
    ("Racha actual de victorias", lambda t: str(t.streak)),
    ("Mejor racha", lambda t: str(t.best_streak)),
    ("Mejor total (el más bajo)", lambda t: "—" if t.best_total is None else str(t.best_total)),
    ("Castigo medio por mano", lambda t: "—" if t.average is None else number(t.average)),
)


def stats_table(stats: Stats) -> str:
    tallies = [stats.by_table[n] for n in TABLES] + [stats.overall]
    head = "".join(f'<th scope="col">{TABLE_NAMES[n]}</th>' for n in TABLES) + '<th scope="col">En total</th>'
    body = []
    for label, fn in ROWS:
        cells = "".join(f"<td>{fn(t)}</td>" for t in tallies)
        body.append(f'<tr><th scope="row">{label}</th>{cells}</tr>')
    return (
        '<div class="table-scroll" tabindex="0" role="region" aria-labelledby="stats-caption">'
        '<table id="stats-table" class="stats-table"><caption id="stats-caption">Tus números</caption>'
        f"<thead><tr><td></td>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
    )


def recent_table(entries: list[Entry], later: Mapping[str, str] | None = None) -> str:
    if not entries:
        return '<p class="muted">Todavía no hay partidas en este dispositivo.</p>'
    rows = []
    for e in entries:
        code = e.code
        o = e.outcome if e.counted else None
        points = "—" if o is None else str(o.total)
        why = (later or {}).get(e.text) if e.status == PENDING else None
        if o is not None:
            result = RESULT_TEXT[o.result]
        else:
            result = LATER_TEXT[why] if why is not None else UNCHECKED_TEXT[e.status]
        if e.text.startswith(HINTS_PREFIXES):
            result += " (con pistas)"
        rows.append(
            f'<tr data-code="{code.text}"><td>{e.date}</td><td><code>{code.pretty()}</code></td>'
            f"<td>{TABLE_NAMES[code.players]}</td><td>{points}</td><td>{result}</td>"
            f'<td><a href="{escape(link_hash(code))}" aria-label="Jugar otra vez el reparto {code.pretty()}">'
            f"Jugar otra vez</a> {forget_button(e)}</td></tr>"
        )
    return (
        '<div class="table-scroll" tabindex="0" role="region" aria-labelledby="recent-caption">'
        '<table id="recent-table" class="recent-table">'
        f'<caption id="recent-caption">{recent_caption(len(entries))}</caption>'
        '<thead><tr><th scope="col">Fecha</th><th scope="col">Código</th><th scope="col">Mesa</th>'
        '<th scope="col">Tus puntos</th><th scope="col">Resultado</th><th scope="col">Reparto</th>'
        "</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def forget_button(entry: Entry) -> str:
    """«Borrar» for one kept game (the page asks first; «No» keeps it)."""
    return (
        f'<button type="button" class="link-btn" data-intent="forget-game" data-key="{escape(entry.text)}" '
        f'aria-label="Borrar la partida {entry.code.pretty()} del {entry.date}">Borrar</button>'
    )


def waiting_table(entries: list[Entry], later: Mapping[str, str], unreadable: int = 0) -> str:
    """The games this page cannot check (kept for a later page), and how many kept lines are no game.

    Listed apart from :func:`recent_table`, so however many there are, they never hide a game of
    this page.
    """
    rows = []
    for e in entries:
        code = e.code
        why = LATER_TEXT.get(later.get(e.text, ""), UNCHECKED_TEXT[PENDING])
        rows.append(
            f"<tr><td>{e.date}</td><td><code>{code.pretty()}</code></td>"
            f"<td>{TABLE_NAMES[code.players]}</td><td>{why} {forget_button(e)}</td></tr>"
        )
    table = (
        '<div class="table-scroll" tabindex="0" role="region" aria-labelledby="waiting-caption">'
        '<table id="waiting-table" class="recent-table">'
        f'<caption id="waiting-caption">{waiting_caption(len(entries), max(len(later), len(entries)))}'
        "</caption>"
        '<thead><tr><th scope="col">Fecha</th><th scope="col">Código</th><th scope="col">Mesa</th>'
        '<th scope="col">Estado</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
        if rows
        else ""
    )
    lines = "1 línea guardada no es" if unreadable == 1 else f"{unreadable} líneas guardadas no son"
    junk = (
        f'<p id="unreadable-line" class="small">No se puede leer: {lines} una partida de esta página '
        'y no cuentan. <button type="button" class="link-btn" data-intent="forget-unreadable">'
        "Borrar estas líneas</button></p>"
        if unreadable
        else ""
    )
    return table + junk


def waiting_caption(count: int, total: int) -> str:
    """«La partida que espera a una versión más nueva», «Las 3 partidas que esperan…» or «20 de las 250…»."""
    if count == total == 1:
        return "La partida que espera a una versión más nueva"
    if count == total:
        return f"Las {count} partidas que esperan a una versión más nueva"
    return f"{count} de las {thousands(total)} partidas que esperan a una versión más nueva"


def recent_caption(count: int) -> str:
    """«Tu última partida» or «Tus últimas 12 partidas» (never «Últimas 1 partidas»)."""
    return "Tu última partida" if count == 1 else f"Tus últimas {count} partidas"


MONTHS = (
    "enero", "febrero", "marzo", "abril", "mayo", "junio",
    "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre",
)  # fmt: skip


def day_words(today: str) -> str:
    """``2026-12-02`` as a person says it: «2 de diciembre» (the text itself if it is not a date)."""
    try:
        _year, month, day = (int(part) for part in today.split("-"))
        return f"{day} de {MONTHS[month - 1]}"
    except (ValueError, IndexError):
        return today


def daily_line(today: str, played: dict[int, Entry | None]) -> str:
    """Today's deal for each table in «Tus partidas»: played or not, and its code, for whoever wants it."""
    parts = []
    for n in TABLES:
        entry = played.get(n)
        o = None if entry is None else entry.outcome
        state = "sin jugar todavía" if o is None else f"jugada, {o.total} puntos"
        parts.append(f"{TABLE_NAMES[n]}, {state} (código {daily_code(today, n).pretty()})")
    return (
        f'<p id="daily-line" class="daily-line">Partida del día de hoy, {day_words(today)}: '
        f"{'; '.join(parts)}.</p>"
    )


def past_line(past: Past | None) -> str:
    """The summary an earlier page kept instead of older games: a figure of the past, never counted."""
    if past is None:
        return ""
    return (
        '<p id="past-line" class="muted small">Antes de guardar cada partida entera, esta página resumía '
        f"tus partidas más antiguas en un total sin sus jugadas: {past.played} jugadas, {past.won} ganadas. "
        "Es una cifra del pasado que no se puede comprobar, así que no entra en tus números.</p>"
    )


def history_html(
    stats: Stats | None,
    recent: list[Entry],
    today: str,
    daily: dict[int, Entry | None],
    *,
    past: Past | None = None,
    kept: int | None = None,
    later: Mapping[str, str] | None = None,
    waiting: Mapping[str, int] | None = None,
    waiting_entries: list[Entry] | None = None,
    unreadable: int = 0,
    loading: bool = False,
) -> str:
    """«Tus partidas»: today's deal, your figures, the games kept; while the store loads, only that."""
    if loading or stats is None:
        return daily_line(today, daily) + LOADING
    total = "" if kept is None else f'<p id="kept-line" class="small">Partidas guardadas: {kept}.</p>'
    # Before any game, a table of zeros and dashes says nothing: one sentence says it instead.
    figures = (
        stats_table(stats)
        if stats.overall.played
        else '<p id="stats-empty" class="muted">Tus números aparecerán aquí cuando acabes o dejes tu '
        "primera partida.</p>"
    )
    return (
        daily_line(today, daily)
        + figures
        + f'<p class="muted small">{EXPLAIN}</p>'
        + total
        + waiting_line(waiting or {})
        + past_line(past)
        + recent_table(recent, later)
        + waiting_table(waiting_entries or [], later or {}, unreadable)
    )


def challenge_banner(challenge: Challenge) -> str:
    """``Te reta Ana: 37 puntos con este reparto.``: plain text, shown with ``textContent`` only."""
    who = f"Te reta {challenge.name}" if challenge.name else "Te retan"
    hints = " (con pistas, según su enlace)" if challenge.record.marked else ""
    return f"{who}: {challenge.total} puntos con este reparto{hints}."


def hints_line(challenge: Challenge) -> str:
    """What the challenge's hint mark says, and no more (docs/formats.md, «Hints»): one short phrase."""
    if challenge.record.marked:
        return "Según su enlace, pidió pistas."
    return "Su enlace no marca pistas, y eso no prueba que no las pidiera."


def comparison_html(challenge: Challenge, mine: Outcome) -> str:
    """Both games hand by hand, then the totals and who wins the challenge."""
    name = escape(challenge.name) if challenge.name else "Quien te retó"
    rows = []
    for row in compare(challenge.outcome, mine):
        theirs = "—" if row.theirs is None else str(row.theirs)
        yours = "—" if row.mine is None else str(row.mine)
        rows.append(f'<tr><th scope="row">Mano {row.hand}</th><td>{theirs}</td><td>{yours}</td></tr>')
    rows.append(
        f'<tr class="total"><th scope="row">Total</th><td>{challenge.total}</td><td>{mine.total}</td></tr>'
    )
    return (
        '<div id="challenge-compare" class="challenge-compare">'
        '<table class="compare-table"><caption>El reto, mano a mano (puntos de castigo)</caption>'
        f'<thead><tr><th scope="col">Mano</th><th scope="col">{name}</th><th scope="col">Tú</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
        f'<p class="challenge-verdict">{escape(verdict(challenge.total, mine.total, challenge.name))}</p>'
        f'<p class="small">{hints_line(challenge)}</p>'
        "</div>"
    )
