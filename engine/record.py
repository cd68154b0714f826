"""The record of a game: its code and every move, replayed through the rules to get any position.

A game is fully described by its :class:`~engine.codes.GameCode` (which fixes
every deal and every reshuffle) and the ordered list of the actions taken,
all hands together. The seat of each move is implied by turn order, and a
move that follows a finished hand deals the next one (led by that hand's
winner), so nothing else is stored. :meth:`Record.replay` rebuilds the
position by applying every move with :meth:`Game.apply
<engine.game.Game.apply>`, which checks each one: an edited record can only
give a different legal game or be refused, never a position the rules
cannot reach.

Text form (URL-safe, for saves, links and files)::

    r2.A2K7QM92.n1.RxA
    |  |        |  `- the moves, 7 bits each, packed into base64url symbols
    |  |        `---- the CPU level: f (fácil), n (normal), d (difícil), and
    |  |              the version of its CPU (1, 2, ...; :mod:`engine.levels`)
    |  `------------- the game code
    `---------------- the record format, version 2

The first format, ``r1.A2K7QM92.n.RxA``, named no CPU version: it still
reads, as version 1 of its level (the only one there was), and keeps its
text (:attr:`Record.legacy`), so both forms round-trip. A record's identity
(:attr:`Record.identity`) is its code, level, version, start and moves: the
same game read from any form is the same game, whatever its text, with or
without its hints.

The fourth format, ``r4.A2K7QM92.n1.<moves>``, is the second with «pista»
entries among the moves: number 70 before the move where the person asked
the hard CPU for a hint (:attr:`Record.hints`, the number of moves played
before each), at most one per position, at least one in the text. Taking
the entries out is writing another text: the ``r2`` spelling of the same
moves would need the move list written again, and a ``r2`` text with an
entry does not read. The third format, ``r3.A2K7QM92.n1p.RxA``, said only
that hints were asked (the flag ``p`` after the CPU version); it still
reads, as one entry before the first move (where the hint was asked is
unknown), and keeps its text (:attr:`Record.flagged`). A game without hints
is still written ``r2``, so every text an older page wrote reads and writes
back unchanged.

A move's number is: 0-51 the card played (``Card`` order; an 8 as a last
card names no suit), 52 + 4 x eight + suit for an 8 naming a suit (eight =
0..3 for 8S, 8H, 8D, 8C; suit in ``S H D C`` order), 68 ``draw``, 69
``pass``. The numbers are written as one bit string, most significant bit
first, cut into 6-bit symbols of the base64url alphabet; the last symbol is
padded with zero bits, so ``n`` moves take ``ceil(7n / 6)`` symbols and the
count is ``floor(6 x symbols / 7)``. Only the canonical text is accepted, so
``str(Record.parse(text)) == text``.

A record may start part-way through a game (only saves from the first
version of the page, which kept one hand's moves, need it). Such a record
carries the hand it starts from, that hand's leader and the totals so far as
a fifth field ``<hand>-<leader>-<total>-<total>[-<total>]``; the deal and the
moves of that hand are verified like any other, the carried totals are not,
so :attr:`Record.verified` is False and nothing that compares scores accepts
it.

>>> from engine.game import Game
>>> game = Game.new("A2K7QM92")
>>> for text in ("10D", "draw"):
...     _ = game.apply(Action.parse(text))
>>> record = Record.of(game)
>>> str(record)
'r2.A2K7QM92.n1.RxA'
>>> Record.parse(str(record)).replay().hands == game.hands
True
>>> old = Record.parse("r1.A2K7QM92.n.RxA")
>>> old.moves, old.version, old == record, str(old)
((Action('10D'), Action('draw')), 1, True, 'r1.A2K7QM92.n.RxA')
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from .actions import DRAW, PASS, PLAY, PLAY8, Action
from .cards import EIGHTS, SUITS
from .codes import CodeError, GameCode
from .game import GAME_OVER, HAND_OVER, MAX_ACTIONS_PER_HAND, MAX_HANDS, TARGET, Game, IllegalAction
from .levels import DEFAULT_LEVEL, NAMES, by_letter, level

FORMAT = "r2"
LEGACY_FORMAT = "r1"  # no CPU version: version 1 of its level
FLAG_FORMAT = "r3"  # the second form with the flag ``p`` after the CPU version: hints were asked (no place)
HINT_FLAG = "p"
HINTS_FORMAT = "r4"  # the second form with «pista» entries among the moves
HINT = 70  # a «pista» entry's number among the moves (r4 only)
MARKED_FORMATS = (FLAG_FORMAT, HINTS_FORMAT)  # a text starting with one of these has hints
MAX_VERSION = 999
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_SYMBOL = {ch: i for i, ch in enumerate(ALPHABET)}
BITS = 7
# The rules' own bound: no game has more hands, no hand more actions (engine.game).
MAX_MOVES = MAX_HANDS * MAX_ACTIONS_PER_HAND
MAX_TEXT = len("r4.A2K7QM92.n999p.") + -(-(2 * MAX_MOVES + 1) * BITS // 6) + len(".199-2-99-99-99")

# Move numbers, both ways.
ACTION_OF: tuple[Action, ...] = (
    *PLAY,
    *(PLAY8[eight][suit] for eight in EIGHTS for suit in SUITS),
    DRAW,
    PASS,
)
NUMBER_OF: dict[Action, int] = {action: n for n, action in enumerate(ACTION_OF)}


class RecordError(ValueError):
    """A record that cannot be read or does not replay; the message is a Spanish sentence.

    ``index`` is the 0-based number of the first move the rules refused
    (``None`` when the text itself is unreadable) and ``reason`` the engine's
    words for it. ``newer`` says the text may be a later page's: a format,
    a CPU level or a CPU version this page does not know (a page that knows
    it may read it).
    """

    def __init__(self, message: str, index: int | None = None, reason: str = "", newer: bool = False) -> None:
        super().__init__(message)
        self.index = index
        self.reason = reason or message
        self.newer = newer


@dataclass(frozen=True)
class Start:
    """Where a partial record begins: hand number, its leader and the totals before it (unverified)."""

    hand: int
    leader: int
    totals: tuple[int, ...]

    def __str__(self) -> str:
        return "-".join(str(n) for n in (self.hand, self.leader, *self.totals))


@dataclass(frozen=True)
class Record:
    """A game as its code, the CPU level (and its version) it is played against and every move in order.

    ``version`` 0 means the level's current version (:attr:`Level.current
    <engine.levels.Level.current>`), which is what a new game plays.
    ``legacy`` says the record was read from the first text form (``r1``,
    version 1 implied) and is written back in it; it is not part of the
    record's identity. ``hints`` are the places where the person asked for a
    hint («Pista»): the number of moves played before each, in order (the
    text form ``r4``). ``flagged`` says the record was read from the third
    text form (``r3``, the flag alone: its one hint reads as before the first
    move) and is written back in it; it is not part of the record either.
    """

    code: GameCode
    moves: tuple[Action, ...] = ()
    level: str = DEFAULT_LEVEL
    start: Start | None = None
    version: int = 0
    legacy: bool = field(default=False, compare=False)
    hints: tuple[int, ...] = ()
    flagged: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        if self.level not in NAMES:
            raise RecordError("El nivel de la CPU de la partida no es válido.")
        if self.version == 0:
            object.__setattr__(self, "version", level(self.level).current)
        if not 1 <= self.version <= level(self.level).current or (self.legacy and self.version != 1):
            newer = self.version > level(self.level).current and not self.legacy
            raise RecordError("La versión de la CPU de la partida no existe en esta página.", newer=newer)
        if len(self.moves) > MAX_MOVES:
            raise RecordError("La partida tiene más jugadas de las que permiten las reglas.")
        hints = self.hints
        if (self.legacy and hints) or (self.flagged and hints != (0,)):
            raise RecordError("La partida no tiene el formato de un registro de Ocho Loco.")
        if hints and not (
            hints[0] >= 0 and hints[-1] <= len(self.moves) and list(hints) == sorted(set(hints))
        ):
            raise RecordError("Las pistas de la partida no están en su sitio.")

    @property
    def marked(self) -> bool:
        """Whether the person asked for a hint in this game («con pistas»)."""
        return bool(self.hints)

    @property
    def verified(self) -> bool:
        """Whether replaying checks the whole game (a record that starts part-way does not)."""
        return self.start is None

    def __str__(self) -> str:
        letter = level(self.level).letter
        numbers = [NUMBER_OF[m] for m in self.moves]
        if self.legacy:
            head = [LEGACY_FORMAT, letter]
        elif self.flagged:
            head = [FLAG_FORMAT, f"{letter}{self.version}{HINT_FLAG}"]
        elif self.hints:
            head = [HINTS_FORMAT, f"{letter}{self.version}"]
            for place in reversed(self.hints):
                numbers.insert(place, HINT)
        else:
            head = [FORMAT, f"{letter}{self.version}"]
        parts = [head[0], self.code.text, head[1], pack(numbers)]
        if self.start is not None:
            parts.append(str(self.start))
        return ".".join(parts)

    def __len__(self) -> int:
        return len(self.moves)

    @classmethod
    def of(cls, game: Game, level: str = DEFAULT_LEVEL, hints: tuple[int, ...] = ()) -> Record:
        """The game so far as its code and every move of every hand, against the CPU ``level``.

        ``hints``: where the person asked for a hint (moves played before each, in order).
        """
        start = None if game.origin is None else Start(*game.origin)
        return cls(game.code, tuple(m.action for m in game.history), level, start, hints=hints)

    def extends(self, other: Record) -> bool:
        """Whether this record is ``other`` with zero or more moves added (the same game, moved on)."""
        return (
            self.code == other.code
            and self.level == other.level
            and self.version == other.version
            and self.start == other.start
            and set(self.hints) >= set(other.hints)
            and self.moves[: len(other.moves)] == other.moves
        )

    def prefix(self, count: int) -> Record:
        """The record of the first ``count`` moves (with the hints asked before the next one)."""
        hints = tuple(place for place in self.hints if place <= count)
        return replace(self, moves=self.moves[:count], hints=hints, flagged=self.flagged and bool(hints))

    def added(self, action: Action) -> Record:
        return replace(self, moves=(*self.moves, action))

    def with_hint(self, place: int | None = None) -> Record:
        """The same game with a hint asked before move ``place`` (by default, after the last move)."""
        place = len(self.moves) if place is None else place
        hints = tuple(sorted({*self.hints, place}))
        return replace(self, hints=hints, flagged=self.flagged and hints == (0,))

    def plain(self) -> Record:
        """The same game without its hints, in the current text form (``r2``)."""
        return replace(self, legacy=False, hints=(), flagged=False)

    @property
    def identity(self) -> tuple[str, str, int, str, str]:
        """What makes two records the same game: code, level, version, start and moves.

        Neither the text form nor the hints: a game read with or without its
        «pista» entries is one game (``==`` tells them apart).
        """
        start = "" if self.start is None else str(self.start)
        moves = pack(NUMBER_OF[m] for m in self.moves)
        return (self.code.text, self.level, self.version, start, moves)

    @classmethod
    def parse(cls, text: object) -> Record:
        """Read a record's text form; raise :class:`RecordError` for anything else.

        Length is checked before any decoding, so an oversized text costs nothing.
        """
        if not isinstance(text, str):
            raise RecordError("La partida guardada no es un texto.")
        if len(text) > MAX_TEXT:
            raise RecordError("La partida tiene más jugadas de las que permiten las reglas.")
        parts = text.split(".")
        if (
            len(parts) < 4
            or parts[0] not in (FORMAT, LEGACY_FORMAT, FLAG_FORMAT, HINTS_FORMAT)
            or len(parts) > 5
        ):
            later = parts[0][:1] == "r" and parts[0][1:].isascii() and parts[0][1:].isdigit()
            newer = later and len(parts[0]) <= 4 and int(parts[0][1:]) > int(HINTS_FORMAT[1:])
            raise RecordError("La partida no tiene el formato de un registro de Ocho Loco.", newer=newer)
        try:
            code = GameCode.parse(parts[1])
        except CodeError as err:
            raise RecordError(f"El código de la partida no es válido: {err}") from None
        if code.text != parts[1]:
            raise RecordError("El código de la partida no está escrito en su forma normal.")
        legacy = parts[0] == LEGACY_FORMAT
        flagged = parts[0] == FLAG_FORMAT
        field_text = parts[2]
        if flagged:
            if not field_text.endswith(HINT_FLAG):
                raise RecordError("La partida no tiene el formato de un registro de Ocho Loco.")
            field_text = field_text[: -len(HINT_FLAG)]
        name, version = _parse_level(field_text, legacy)
        numbers = unpack(parts[3], hints=parts[0] == HINTS_FORMAT)
        moves = tuple(ACTION_OF[n] for n in numbers if n != HINT)
        hints = (
            (0,)
            if flagged
            else tuple(i - n for n, i in enumerate(j for j, m in enumerate(numbers) if m == HINT))
        )
        if parts[0] == HINTS_FORMAT and not hints:  # r4 only with an entry (one text per record)
            raise RecordError("La partida no tiene el formato de un registro de Ocho Loco.")
        start = _parse_start(parts[4], code.players) if len(parts) == 5 else None
        return cls(code, moves, name, start, version, legacy, hints, flagged)

    def replay(self) -> Game:
        """The game after every move, each one checked by the rules.

        Raises :class:`RecordError` naming the first move the rules refuse.
        """
        game = self.first_game()
        for _ in self.games(game):
            pass
        return game

    def games(
        self, game: Game | None = None, on_deal: Callable[[Game], None] | None = None
    ) -> Iterator[Game]:
        """Apply the moves one by one to ``game`` (a fresh one by default), yielding it after each.

        A move after a finished hand first deals the next one; ``on_deal`` is
        then called with the freshly dealt game.
        """
        for index, position in self.positions(game, on_deal):
            self.play(position, index)
            yield position

    def positions(
        self, game: Game | None = None, on_deal: Callable[[Game], None] | None = None
    ) -> Iterator[tuple[int, Game]]:
        """Each move's index with the game just before it; the caller plays it (:meth:`play`) before resuming.

        A move after a finished hand first deals the next one (``on_deal`` is
        then called); a move after the game's end, or one hand longer than the
        rules allow, raises :class:`RecordError`. For a check before each
        move, such as :mod:`engine.verify`'s.
        """
        if game is None:
            game = self.first_game()
        per_hand = 0
        for index, action in enumerate(self.moves):
            if game.phase == HAND_OVER:
                game.next_hand()
                per_hand = 0
                if on_deal is not None:
                    on_deal(game)
            elif game.phase == GAME_OVER:
                raise RecordError(
                    f"La jugada {index + 1} ({action}) llega con la partida ya terminada.",
                    index,
                    "La partida ha terminado.",
                )
            per_hand += 1
            if per_hand > MAX_ACTIONS_PER_HAND:
                raise RecordError(
                    f"La mano {game.hand_no + 1} tiene más jugadas de las que permiten las reglas.",
                    index,
                    "Demasiadas jugadas en una mano.",
                )
            yield index, game

    def play(self, game: Game, index: int) -> None:
        """Apply move ``index`` to ``game``; :class:`RecordError` naming it if the rules refuse it."""
        action = self.moves[index]
        try:
            game.apply(action)
        except IllegalAction as err:
            message = f"La jugada {index + 1} ({action}) no vale: {err}"
            raise RecordError(message, index, str(err)) from None

    def first_game(self) -> Game:
        """The game before the first move: the first hand dealt (or the hand a partial record starts at)."""
        if self.start is None:
            return Game.new(self.code)
        return Game.new(self.code, origin=(self.start.hand, self.start.leader, self.start.totals))


_DIGITS = frozenset("0123456789")


def _parse_level(text: str, legacy: bool) -> tuple[str, int]:
    """The level field: ``n`` in the first form (version 1), ``n1``, ``d12``, ... in the second."""
    letter, digits = text[:1], text[1:]
    try:
        name = by_letter(letter).name
    except KeyError:
        newer = len(letter) == 1 and letter.isascii() and letter.islower()  # a level added later
        raise RecordError("El nivel de la CPU de la partida no es válido.", newer=newer) from None
    if legacy:
        if digits:
            raise RecordError("El nivel de la CPU de la partida no es válido.")
        return name, 1
    # ASCII digits only, no leading zero (one text per record).
    if not (digits and set(digits) <= _DIGITS and digits[0] != "0" and len(digits) <= len(str(MAX_VERSION))):
        raise RecordError("La versión de la CPU de la partida no es válida.")
    return name, int(digits)


def _parse_start(text: str, players: int) -> Start:
    numbers = text.split("-")
    # ASCII digits only: str.isdigit() also accepts "²" and "①", which int() refuses.
    if len(numbers) != 2 + players or not all(n.isascii() and n.isdigit() and len(n) <= 3 for n in numbers):
        raise RecordError("El comienzo de la partida guardada no es válido.")
    hand, leader, *totals = (int(n) for n in numbers)
    if not (0 < hand < MAX_HANDS and leader < players and all(t < TARGET for t in totals)):
        raise RecordError("El comienzo de la partida guardada no es válido.")
    start = Start(hand, leader, tuple(totals))
    if str(start) != text:
        raise RecordError("El comienzo de la partida guardada no está escrito en su forma normal.")
    return start


def pack(numbers: Iterator[int] | Sequence[int]) -> str:
    """Move numbers (0..127) as base64url symbols, 7 bits each, zero-padded at the end.

    >>> pack([68, 69]), unpack(pack([68, 69]))
    ('iRQ', [68, 69])
    """
    out: list[str] = []
    acc = 0
    bits = 0
    for n in numbers:
        acc = (acc << BITS) | n
        bits += BITS
        while bits >= 6:
            bits -= 6
            out.append(ALPHABET[(acc >> bits) & 63])
        acc &= (1 << bits) - 1
    if bits:
        out.append(ALPHABET[(acc << (6 - bits)) & 63])
    return "".join(out)


def unpack(text: str, hints: bool = False) -> list[int]:
    """The move numbers of :func:`pack`'s text; :class:`RecordError` unless it is canonical.

    With ``hints`` (the ``r4`` form) a number may also be :data:`HINT`, a «pista» entry.
    """
    count = len(text) * 6 // BITS
    if len(text) != -(-count * BITS // 6):
        raise RecordError("Las jugadas de la partida no están escritas en su forma normal.")
    out: list[int] = []
    acc = 0
    bits = 0
    for ch in text:
        value = _SYMBOL.get(ch)
        if value is None:
            raise RecordError("Las jugadas de la partida llevan caracteres que no se usan.")
        acc = (acc << 6) | value
        bits += 6
        if bits >= BITS and len(out) < count:
            bits -= BITS
            n = acc >> bits
            if n >= len(ACTION_OF) and not (hints and n == HINT):
                raise RecordError("Las jugadas de la partida tienen un número que no es ninguna jugada.")
            out.append(n)
            acc &= (1 << bits) - 1
    if acc:  # padding bits must be zero, or two texts would mean one record
        raise RecordError("Las jugadas de la partida no están escritas en su forma normal.")
    return out


__all__ = [
    "FLAG_FORMAT",
    "FORMAT",
    "HINT",
    "HINTS_FORMAT",
    "LEGACY_FORMAT",
    "MARKED_FORMATS",
    "MAX_MOVES",
    "Record",
    "RecordError",
    "Start",
    "pack",
    "unpack",
]
