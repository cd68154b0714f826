"""The hard level, ``dificil``: a determinized search with the cpu's rules playing every seat out.

:class:`DificilBot` starts a :class:`Search` for a decision; the page runs it
in slices (:meth:`Search.step`) between frames.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..actions import DRAW, PLAY, Action
from ..cards import EIGHT, POINTS, RANK_OF
from ..equity import equity
from ..view import SeatView
from .cpu import DEFAULT_CPU, CpuBot, CpuParams, Reading, read_history
from .evidence import read_evidence, sample_world
from .playout import move_of, playout
from .simple import decision_rng

# What a playout is worth to the searching seat: ``value(hands, winner, totals, me)``,
# from the hands it left, its winner and the totals before the hand.
PlayoutValue = Callable[[Sequence[Sequence[int]], int, Sequence[int], int], int]
# A world sampled for a view: the other hands, the stock, and the int seed of its reshuffles.
World = tuple[list[list[int]], list[int], int]


@dataclass(frozen=True)
class DificilParams:
    """The knobs of :class:`DificilBot`; :data:`DIFICIL_PARAMS` holds the measured choice per table size."""

    # Playouts per decision, shared among the candidate moves (each sampled
    # world is played out once per candidate).
    playouts: int = 400
    # At least this many sampled worlds, however many candidates there are.
    min_worlds: int = 12
    # Trust in the cpu's own choice: another move must beat it by this many
    # points a world on average (sampling noise otherwise swaps a good move
    # for a lucky one).
    margin: int = 3
    # Actions (draws, passes, plays) over all playouts, after which no new world is
    # started: long hands, full of draws and reshuffles, cost the most to play out.
    max_actions: int = 20_000
    # Deals tried per sampled world to find one where the others' past plays
    # are what the cpu's rules would have chosen (see :class:`Evidence`).
    tries: int = 8
    # How the others' past moves are read and their hands dealt (:func:`read_evidence`):
    # 1 in every shipped setting; 2, for research (``docs/review.md``), takes a card
    # played straight after a draw for the card drawn and deals hands newest card first.
    dealer: int = 1
    # Actions charged to ``max_actions`` for each hand the sampler deals (and
    # checks): with many checks to pass, dealing costs as much as playing out.
    deal_cost: int = 0
    # At three players only: value a playout by the chance to win the game
    # from the totals after its hand (:func:`engine.equity.equity`, in basis
    # points) instead of the hand alone (the others' penalties minus
    # (players - 1) x its own); ``margin`` is then in basis points too.
    equity: bool = False
    # Any other valuation, for research (e.g. ``lab.valuation.GameGaps``): it
    # replaces both above. ``None`` in every shipped setting.
    value: PlayoutValue | None = None
    # The cpu the search models: every seat of its playouts plays by these
    # rules, the others' past moves are read by them, and its own choice is
    # the one ``margin`` trusts.
    cpu: CpuParams = DEFAULT_CPU


# The measured settings for each table size (see the README). Two players: 300
# playouts and a 15,000-action budget win as often as 400 and 20,000 did, and keep
# the page within its time budget. Three players: 600 playouts and a 25,000-action
# budget chose better than 400 and 20,000 (lab/dificil_regret.py), within the
# page's budget; dealing is charged to the budget, because its slowest decisions
# are the ones whose worlds are hard to deal. A playout is valued by the chance to
# win the game (the equity table), which chose better than the saturating gaps
# (lab.valuation.GameGaps(40), margin 3) move by move, and the margin is 100 basis points.
DIFICIL_PARAMS: dict[int, DificilParams] = {
    2: DificilParams(playouts=300, max_actions=15_000),
    3: DificilParams(playouts=600, max_actions=25_000, margin=100, deal_cost=8, equity=True),
}


def playout_worth(
    hands: Sequence[Sequence[int]],
    winner: int,
    totals: Sequence[int],
    me: int,
    *,
    by_equity: bool = False,
) -> int:
    """What a playout that ``winner`` won, leaving ``hands``, is worth to seat ``me``.

    With ``by_equity`` (three players), the chance to win the game from the
    totals after the hand, in basis points (:func:`engine.equity.equity`).
    Else the hand alone: the others' penalties minus (players - 1) x its own.
    """
    penalties = [0 if s == winner else sum(POINTS[c] for c in hand) for s, hand in enumerate(hands)]
    if by_equity:
        mine = totals[me] + penalties[me]
        a, b = (t + p for s, (t, p) in enumerate(zip(totals, penalties, strict=True)) if s != me)
        return equity(mine, a, b)
    return sum(penalties) - len(hands) * penalties[me]


def world_playout(
    view: SeatView, reading: Reading, world: World, action: Action, cpu: CpuParams
) -> tuple[list[list[int]], int, int]:
    """Play ``action`` from ``view`` in ``world``, then the hand out by ``cpu``'s rules in every seat.

    ``reading`` is :func:`read_history`'s of ``view``; ``world`` is left as it
    was, to be played again with another action. Returns the hands the hand
    left, its winner and the actions it took.
    """
    hands, stock, seed = world
    copy = [list(h) for h in hands]
    winner, actions = playout(
        copy,
        list(stock),
        list(view.pile),
        active=view.active_suit,
        turn=view.seat,
        draws=view.draws_used,
        short=[list(r) for r in reading.short],
        known=reading.known,
        rng=seed,
        first=move_of(action),
        cpu=cpu,
    )
    return copy, winner, actions


def candidates(view: SeatView) -> list[Action]:
    """The legal actions worth weighing.

    8s are alike, so one 8 per named suit is enough; and no draw while a
    non-8 card fits (drawing by choice measured far worse for the cpu, and
    leaving it out often leaves a single move, which needs no search).
    """
    out: list[Action] = []
    seen_eight_suits: set[int | None] = set()
    follows = any(RANK_OF[c] != EIGHT for c in view.legal_cards())
    for action in view.legal:
        if action is DRAW and follows:
            continue
        card = action.card
        if card is not None and RANK_OF[card] == EIGHT:
            suit = None if action.suit is None else int(action.suit)
            if suit in seen_eight_suits:
                continue
            seen_eight_suits.add(suit)
        out.append(action)
    return out


def same_move(action: Action, moves: list[Action]) -> Action | None:
    """``action`` or the move among ``moves`` that is alike (another 8 naming the same suit)."""
    if action in moves:
        return action
    card = action.card
    if card is not None and RANK_OF[card] == EIGHT:
        for move in moves:
            if move.card is not None and RANK_OF[move.card] == EIGHT and move.suit == action.suit:
                return move
    return None


class Search:
    """One decision of :class:`DificilBot`, run in slices: ``step`` until it returns an action.

    ``step(n)`` plays at most ``n`` more playouts and returns ``None`` while
    the search is unfinished, then the chosen action (and the same action on
    every later call). The work is a fixed sequence: world 0 played out with
    every candidate in turn, then world 1, ..., all drawn from one generator
    in that order, so the answer is the same however the playouts are sliced
    (``choose`` runs it in one go). ``playouts`` is the total it will play;
    ``done`` how many it has.
    """

    __slots__ = (
        "_evidence",
        "_reading",
        "_world",
        "actions",
        "candidates",
        "done",
        "params",
        "playouts",
        "result",
        "rng",
        "totals",
        "view",
        "worlds",
    )

    def __init__(self, view: SeatView, params: DificilParams) -> None:
        if not view.my_turn:
            raise ValueError("the search needs a view of the seat on turn")
        if params.equity and view.players != 3:
            raise ValueError("the equity table is for three players")
        self.view = view
        self.params = params
        self.candidates = candidates(view)
        self.totals = [0] * len(self.candidates)
        self.done = 0
        self.actions = 0
        self.result: Action | None = None
        self._world: World | None = None
        self._reading = read_history(view)
        self._evidence = read_evidence(view, params.cpu, params.dealer)
        self.rng = decision_rng("dificil", view)
        k = len(self.candidates)
        self.worlds = max(params.min_worlds, params.playouts // max(k, 1))
        self.playouts = self.worlds * k
        # A card that empties the hand wins it: nothing to weigh.
        if len(view.hand) == 1 and view.legal_cards():
            self.result = PLAY[view.hand[0]]
        elif k == 1:
            self.result = self.candidates[0]
        if self.result is not None:
            self.playouts = 0

    def step(self, max_playouts: int) -> Action | None:
        """Play up to ``max_playouts`` more playouts; the chosen action once all are played."""
        if self.result is not None:
            return self.result
        view = self.view
        k = len(self.candidates)
        me = view.seat
        value = self.params.value
        by_equity = self.params.equity
        budget = max_playouts
        while budget > 0 and self.done < self.playouts:
            j = self.done % k
            if j == 0:
                hands, stock, dealt = sample_world(view, self._evidence, self.rng, self.params.tries)
                self.actions += self.params.deal_cost * dealt
                # An int seed: Random(float) seeds differently from one Python version to another.
                self._world = (hands, stock, int(self.rng.random() * (1 << 53)))
            assert self._world is not None
            copy, winner, actions = world_playout(
                view, self._reading, self._world, self.candidates[j], self.params.cpu
            )
            if value is None:
                self.totals[j] += playout_worth(copy, winner, view.totals, me, by_equity=by_equity)
            else:
                self.totals[j] += value(copy, winner, view.totals, me)
            self.actions += actions
            self.done += 1
            budget -= 1
            # A world is weighed with every candidate or not at all; past the budget, no new world.
            worlds, part = divmod(self.done, k)
            over = self.actions >= self.params.max_actions
            if over and not part and worlds >= self.params.min_worlds:
                self.worlds = worlds
                self.playouts = self.done
        if self.done < self.playouts:
            return None
        self.result = self._pick()
        return self.result

    def _pick(self) -> Action:
        """The best total, unless the cpu's own choice is within the margin; ties in legal order."""
        preferred = same_move(CpuBot(self.params.cpu).choose(self.view), self.candidates)
        best = max(self.totals)
        first_best = self.candidates[self.totals.index(best)]
        if preferred is None:
            return first_best
        own = self.totals[self.candidates.index(preferred)]
        return first_best if best - own > self.params.margin * self.worlds else preferred

    def run(self) -> Action:
        """Finish the search in one go."""
        action = self.step(self.playouts - self.done + 1)
        assert action is not None
        return action


class DificilBot:
    """The hard level: for each candidate move, play sampled worlds out to the end of the hand.

    Determinized search: it deals the cards it cannot see at random, but only
    in ways that fit what its seat has seen (:func:`sample_world` with
    :func:`read_evidence`: its own hand, the face-up pile, every hand's size,
    what the others' draws, passes, 8s and plays say about their hands read
    as the cpu's rules, and which old discards a reshuffle put back in the
    stock), never the real hidden cards; then it plays each candidate move
    in each world and lets the cpu's rules play every seat to the end of the
    hand, and keeps the move with the best total value (the others'
    penalties minus its own; at three players, the chance to win the game
    from the totals after the hand, :func:`engine.equity.equity`), unless
    the cpu's own choice comes within ``margin`` a world of it. It stops early, between worlds,
    once its playouts (and, at ``deal_cost`` each, the hands its sampler
    dealt) have taken ``max_actions`` actions. All its randomness
    comes from :func:`decision_rng`, so the same view always gives the same
    action and a game replays from its record on any Python.

    For the page, which must not block the browser for long: ``start(view)``
    returns a :class:`Search`; call ``search.step(n)`` with a small ``n``
    (each playout is a fraction of a millisecond) between frames until it
    returns the action. ``choose(view)`` is ``start(view).run()`` and gives
    the same action.
    """

    __slots__ = ("params",)

    def __init__(self, params: DificilParams | None = None) -> None:
        # None: the measured settings for the table's size (:data:`DIFICIL_PARAMS`).
        self.params = params

    def start(self, view: SeatView) -> Search:
        """A search for ``view``'s decision, to be run with :meth:`Search.step`."""
        return Search(view, self.params or DIFICIL_PARAMS[view.players])

    def choose(self, view: SeatView) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        return self.start(view).run()
