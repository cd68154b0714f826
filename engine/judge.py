"""The one judge: the hard CPU's review search, asked the same way by «Pista» and «Repaso».

:class:`Choice` weighs the search's candidates (:func:`~engine.bots.candidates`)
from a seat's view alone (:func:`~engine.view.seat_view`) in the worlds of
``decision_rng("review", view)``, each world played out to the end of the hand
with the CPU's rules in every seat (:class:`Weighing`). Its settings are
versioned (:data:`VERSIONS`, :func:`settings`), like the CPU levels: the same
view and version always give the same choice, the same totals and the same
reason, whoever asks. :mod:`engine.review` turns choices into verdicts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from .actions import DRAW, PLAY, Action
from .advice import Seen, named_with_reason, reason_kind, tail, why
from .bots import (
    DificilBot,
    DificilParams,
    World,
    candidates,
    decision_rng,
    playout_worth,
    read_evidence,
    read_history,
    sample_world,
    world_playout,
)
from .cards import EIGHT, POINTS, RANK_OF
from .review_priors import (
    PRIOR_2,
    PRIOR_3,
    PRIOR_4,
    PRIORS_3,
    PRIORS_4,
    SCALE_2,
    SCALE_3,
    SCALE_4,
    SCALES_4,
)
from .verify import level_bot
from .view import SeatView

HUMAN = 0
# Playouts per step: a few milliseconds in the page, as a Difícil search's slice.
PLAYOUTS_PER_STEP = 12

# Version 2: the choice's playouts and action budget (also «Pista»'s), and the second sample's.
PLAYOUTS_2 = 600
ACTIONS_2 = 24_000
MEASURE_WORLDS_2 = 300
MEASURE_ACTIONS_2 = 12_000


@dataclass(frozen=True)
class ReviewSettings:
    """One version of the review's search at one table size.

    The search is the hard CPU's of ``base`` (level ``dificil`` at that
    version: its evidence, sampler and the cpu its playouts model) with
    ``playouts``, ``max_actions`` and ``deal_cost`` of its own; ``threshold``
    is the margin, in points, that a better move must beat to call the move
    played a mistake (``docs/review.md``).

    Version 1 stated the margin the choosing search itself found. From
    version 2 the choice (which «Pista» shares) and the margin come from two
    samples: when the move played is not the one chosen, the two moves are
    played in ``measure_worlds`` other worlds (at most ``measure_actions``
    actions), and the mean difference is shrunk by its noise towards what
    margins usually are (``prior``: margins in points and their weights,
    measured), then scaled by ``scale`` (measured against the real hidden hands).

    From version 3 a reason is said only when a sample that did not choose
    the move backs it: the second sample against the move played, or
    ``check_worlds`` worlds of its own (at most ``check_actions`` actions,
    seed ``review-why``) against the runner-up. It backs the reason when the
    move the reason argues for did better there by at least ``backing``
    standard errors, and only reasons of the kinds in ``kinds`` are said
    (the kinds the lab's report backs, ``docs/review.md``).
    """

    base: int
    playouts: int
    max_actions: int
    deal_cost: int
    threshold: float
    measure_worlds: int = 0
    measure_actions: int = 0
    prior: tuple[tuple[float, float], ...] = ()
    scale: float = 1.0
    check_worlds: int = 0
    check_actions: int = 0
    backing: float = 0.0
    kinds: tuple[str, ...] = ()
    priors: tuple[tuple[str, tuple[tuple[float, float], ...]], ...] = ()
    by_choice: bool = False
    scales: tuple[tuple[str, float], ...] = ()

    def params(self, players: int) -> DificilParams:
        bot = level_bot("dificil", self.base, players)
        assert isinstance(bot, DificilBot) and bot.params is not None
        return replace(
            bot.params,
            playouts=self.playouts,
            max_actions=self.max_actions,
            deal_cost=self.deal_cost,
            equity=False,
            value=None,
        )

    def sample_params(self, players: int, worlds: int, max_actions: int) -> DificilParams:
        """The params of a sample of ``worlds`` worlds weighing two moves (the margin's, the reason's)."""
        return replace(
            self.params(players),
            playouts=2 * worlds,
            max_actions=max_actions,
            min_worlds=min(worlds, 12),
        )

    @property
    def checks(self) -> bool:
        """Whether a reason is checked in a sample of its own (version 3 on)."""
        return self.check_worlds > 0

    @property
    def measures(self) -> bool:
        """Whether a margin is measured in a second sample (version 2 on)."""
        return self.measure_worlds > 0

    def kind_of(self, played: Action | None, best: Action | None = None) -> str:
        """The kind of decision whose prior (and scale) shrinks its margin: ``""`` for the pooled one.

        Version 3: the kind of move played (:func:`move_class`). From version 4
        (:attr:`by_choice`): that and the kind of move the review chose instead
        (:func:`decision_class`, «ocho>carta»: an 8 spent where another card was better).
        """
        if played is None or not self.priors:
            return ""
        if self.by_choice:
            return "" if best is None else decision_class(played, best)
        return move_class(played)

    def stated(
        self, mean: float, se: float, played: Action | None = None, best: Action | None = None
    ) -> float:
        """The margin to state for a measured mean difference ``mean`` with standard error ``se``.

        The posterior mean under :attr:`prior` (a normal error of ``se``), times :attr:`scale`.
        From version 3 the prior is the one of the kind of move played (:func:`move_class`:
        a draw, an 8, another card), as :attr:`priors` lists them; from version 4 the one of
        the kind of decision (:meth:`kind_of`: the move played and the review's choice ``best``),
        times that kind's scale when :attr:`scales` has one.
        """
        kind = self.kind_of(played, best)
        prior = dict(self.priors).get(kind, self.prior) if kind else self.prior
        scale = dict(self.scales).get(kind, self.scale) if kind else self.scale
        if not prior:
            return mean * scale
        se = max(se, 0.25)
        # Weights relative to the grid point nearest the mean, so that exp never underflows to zero.
        nearest = min(((mean - x) / se) ** 2 for x, _w in prior)
        top = below = 0.0
        for x, weight in prior:
            w = weight * math.exp(-0.5 * (((mean - x) / se) ** 2 - nearest))
            top += w * x
            below += w
        return scale * top / below


def move_class(action: Action) -> str:
    """The kind of a move, for the prior of version 3: «robar», «ocho» or «carta» (a pass: «pasar»)."""
    if action is DRAW:
        return "robar"
    if action.card is None:
        return "pasar"
    return "ocho" if RANK_OF[action.card] == EIGHT else "carta"


def decision_class(played: Action, best: Action) -> str:
    """The kind of a decision, for the prior of version 4: the kinds of the move played and of the choice.

    «ocho>carta» is an 8 spent where the review would play another card, «robar>carta» a draw while a
    card fitted, «ocho>robar» an 8 spent where the review would rather draw (no other card fitted),
    «carta+>carta» a card worth more points played where the review would play a cheaper one.
    """
    mine, its = move_class(played), move_class(best)
    dearer = mine == its == "carta" and POINTS[played.card or 0] > POINTS[best.card or 0]
    return f"{'carta+' if dearer else mine}>{its}"


# The priors and scales of versions 2-4 are in engine/review_priors.py.
# Version 3: the same choice and margin samples, 8s naming a suit only with a reason to, and each
# reason checked in a sample of its own; the prior and scale fitted on three kinds of learner.
CHECK_WORLDS_3 = 150
CHECK_ACTIONS_3 = 6_000
BACKING_3 = 2.0
# The kinds of reason the lab's report backs at least 80 % of the time, both on the games the kinds
# were chosen on and on games that chose nothing (docs/review.md): «guardas el 8» (77 %) and «CPU 1 no
# tiene picas» (72 %) fell under on the second and are not said.
KINDS_3: tuple[str, ...] = ("una-carta", "robar-8", "no-robar", "mas-palo", "pareja")
# Version 4 says only the kinds that its check on games 3420–3619 (which no fit and no choice of kinds
# saw) still backs at least 80 % of the time at that table size (docs/review.md): at two players
# «robar-8» (74 %), «mas-palo» (75 %) and «pareja» (74 %) fell under; at three players «robar-8» and
# «pareja» were said too seldom there to be backed (5 and 15 times).
KINDS_4: dict[int, tuple[str, ...]] = {2: ("una-carta", "no-robar"), 3: ("una-carta", "no-robar", "mas-palo")}
# Version 5 is version 4 without «mas-palo» at three players: on games 3620–3819, which neither the fit
# nor the choice of kinds saw, it was backed 77 % of the times said (61), 79 % with games 3420–3619
# (126); «una-carta» and «no-robar» held there at both table sizes (85–88 %).
KINDS_5: dict[int, tuple[str, ...]] = {2: ("una-carta", "no-robar"), 3: ("una-carta", "no-robar")}


# Version 2: one judge with «Pista», the margin measured in a second sample, a fitted prior.
_VERSION_2: dict[int, ReviewSettings] = {
    players: ReviewSettings(
        base=1,
        playouts=PLAYOUTS_2,
        max_actions=ACTIONS_2,
        deal_cost=8 if players == 3 else 0,
        threshold=4.0,
        measure_worlds=MEASURE_WORLDS_2,
        measure_actions=MEASURE_ACTIONS_2,
        prior=PRIOR_2[players],
        scale=SCALE_2[players],
    )
    for players in (2, 3)
}

# Version 3: version 2's choice and margin samples, each reason checked in a sample of its own, and a
# prior per kind of move played (version 4 starts from it).
_VERSION_3: dict[int, ReviewSettings] = {
    players: replace(
        _VERSION_2[players],
        prior=PRIOR_3[players],
        priors=PRIORS_3[players],
        scale=SCALE_3[players],
        check_worlds=CHECK_WORLDS_3,
        check_actions=CHECK_ACTIONS_3,
        backing=BACKING_3,
        kinds=KINDS_3,
    )
    for players in (2, 3)
}

# Version 4: version 3's searches, samples and reason checks, with another shrinkage and fewer kinds.
_VERSION_4: dict[int, ReviewSettings] = {
    players: replace(
        _VERSION_3[players],
        prior=PRIOR_4[players],
        priors=PRIORS_4[players],
        by_choice=True,
        scale=SCALE_4[players],
        scales=SCALES_4[players],
        kinds=KINDS_4[players],
    )
    for players in (2, 3)
}

# Every shipped version, by table size: a stored review names its version, so these never change.
VERSIONS: tuple[dict[int, ReviewSettings], ...] = (
    {
        2: ReviewSettings(base=1, playouts=1000, max_actions=50_000, deal_cost=0, threshold=5.0),
        3: ReviewSettings(base=1, playouts=1000, max_actions=50_000, deal_cost=8, threshold=4.0),
    },
    _VERSION_2,
    _VERSION_3,
    _VERSION_4,
    {players: replace(_VERSION_4[players], kinds=KINDS_5[players]) for players in (2, 3)},  # fewer kinds
)
CURRENT = len(VERSIONS)


def settings(version: int, players: int) -> ReviewSettings:
    """Version ``version``'s settings for ``players`` seats; KeyError when there is no such version."""
    if not 1 <= version <= len(VERSIONS):
        raise KeyError(f"no review version {version}")
    return VERSIONS[version - 1][players]


class Weighing:
    """One decision's search over sampled worlds, in steps (the same loop as the hard CPU's).

    ``totals[j]`` sums move ``j``'s worth over the worlds: the others' penalties
    minus ``players`` times the seat's own, i.e. ``players - 1`` times its lead
    over the average opponent.
    """

    def __init__(
        self, view: SeatView, moves: list[Action], params: DificilParams, seed: str = "review"
    ) -> None:
        self.view = view
        self.moves = moves
        self.params = params
        k = len(moves)
        self.totals = [0] * k
        self.worlds = max(params.min_worlds, params.playouts // k)
        self.playouts = self.worlds * k
        self.done = 0
        self.actions = 0
        # Seeded by the position (``seed`` is another name for the margin's sample, or to measure noise).
        self.rng = decision_rng(seed, view)
        self._reading = read_history(view)
        self._evidence = read_evidence(view, params.cpu, params.dealer)
        self._world: World | None = None
        # Version 2's margin: the sum of (move 0 - move 1) a world and of its square.
        self.diff_sum = 0
        self.diff_squares = 0
        self._first = 0
        # What each move did for the seat: worlds where it emptied its hand first, points left in it.
        self.wins = [0] * k
        self.kept = [0] * k

    def step(self, max_playouts: int) -> bool:
        """Play up to ``max_playouts`` more playouts; True once the weighing is over."""
        view, params = self.view, self.params
        k = len(self.moves)
        me = view.seat
        while max_playouts > 0 and self.done < self.playouts:
            j = self.done % k
            if j == 0:
                hands, stock, dealt = sample_world(view, self._evidence, self.rng, params.tries)
                self.actions += params.deal_cost * dealt
                self._world = (hands, stock, int(self.rng.random() * (1 << 53)))
            assert self._world is not None
            copy, winner, actions = world_playout(view, self._reading, self._world, self.moves[j], params.cpu)
            worth = playout_worth(copy, winner, view.totals, me)
            self.totals[j] += worth
            if winner == me:
                self.wins[j] += 1
            else:
                self.kept[j] += sum(POINTS[c] for c in copy[me])
            if j == 0:
                self._first = worth
            elif j == 1:
                self.diff_sum += self._first - worth
                self.diff_squares += (self._first - worth) ** 2
            self.actions += actions
            self.done += 1
            max_playouts -= 1
            worlds, part = divmod(self.done, k)
            if self.actions >= params.max_actions and not part and worlds >= params.min_worlds:
                self.worlds = worlds
                self.playouts = self.done
        return self.done >= self.playouts

    def difference(self) -> tuple[float, float]:
        """The mean of (move 0 - move 1) a world and its standard error, in units of worth."""
        n = self.done // len(self.moves)
        if n < 2:
            return (self.diff_sum / n if n else 0.0, 0.0)
        variance = max(self.diff_squares - self.diff_sum * self.diff_sum / n, 0) / (n - 1)
        return (self.diff_sum / n, math.sqrt(variance / n))

    def seen(self, a: int, b: int) -> Seen | None:
        """What the worlds showed of moves ``a`` and ``b`` (None before the first world is done)."""
        worlds = self.done // len(self.moves)
        if not worlds:
            return None
        return (
            self.wins[a] / worlds,
            self.wins[b] / worlds,
            self.kept[a] / worlds,
            self.kept[b] / worlds,
        )


def decides_at_once(view: SeatView, moves: list[Action]) -> bool:
    """A single move worth weighing, or a last card that wins the hand: nothing to search."""
    return len(moves) <= 1 or (len(view.hand) == 1 and bool(view.legal_cards()))


class Choice:
    """What the hard CPU's review search chooses from a view: the one judge of «Pista» and «Repaso».

    It weighs the search's candidates (:func:`~engine.bots.candidates`; from
    version 3, an 8 names a suit only with a reason to, :func:`~engine.advice.suit_note`) in the
    worlds of ``decision_rng("review", view)`` with the review's settings of
    ``version`` (version 2 on); ``best`` is the move with the best total
    (the first in order on a tie). Run it with :meth:`step` until it returns
    True (or :meth:`run`). From version 3, with ``explain``, the steps go on
    to check the reason against the runner-up in a sample of its own
    (:class:`Because`). The same view always gives the same choice, the
    same totals and the same reason, whoever asks.
    """

    def __init__(self, view: SeatView, version: int = 0, explain: bool = True) -> None:
        self.view = view
        self.version = version or CURRENT
        self.settings = settings(self.version, view.players)
        self.moves = candidates(view)
        if self.settings.checks:
            self.moves = [m for m in self.moves if named_with_reason(view, m)]
        self.weighing: Weighing | None = None
        self.explain = explain and self.settings.checks
        self.because: Because | None = None
        if decides_at_once(view, self.moves):
            if len(view.hand) == 1 and view.legal_cards():
                self.moves = [PLAY[view.hand[0]]]
            self.moves = self.moves[:1]
        else:
            self.weighing = Weighing(view, self.moves, self.settings.params(view.players))

    @property
    def playouts(self) -> int:
        return 0 if self.weighing is None else self.weighing.playouts

    @property
    def done(self) -> int:
        return 0 if self.weighing is None else self.weighing.done

    def step(self, max_playouts: int) -> bool:
        if self.weighing is not None and not self.weighing.step(max_playouts):
            return False
        if not self.explain:
            return True
        if self.because is None:
            self.because = self.checking(self.runner_up)
            return self.because.step(0)
        return self.because.step(max_playouts)

    def run(self) -> Action:
        while not self.step(10_000):
            pass
        return self.best

    @property
    def totals(self) -> tuple[int, ...]:
        return () if self.weighing is None else tuple(self.weighing.totals)

    @property
    def worlds(self) -> int:
        return 0 if self.weighing is None else self.weighing.worlds

    @property
    def best(self) -> Action:
        totals = self.totals
        return self.moves[totals.index(max(totals))] if totals else self.moves[0]

    @property
    def runner_up(self) -> Action | None:
        """The second best move the search weighed (None when it weighed one)."""
        totals = self.totals
        if len(totals) < 2:
            return None
        best = totals.index(max(totals))
        return self.moves[max((j for j in range(len(totals)) if j != best), key=lambda j: totals[j])]

    def checking(self, versus: Action | None) -> Because:
        """Version 3: the check of the reason for the choice over ``versus`` (a sample of its own)."""
        return Because(self.view, self.best, versus, self.settings)

    def reason(self, versus: Action | None = None, seen: Seen | None = None) -> str:
        """Why the choice, against ``versus`` (by default the runner-up, with what its worlds showed).

        From version 3, the words that follow the move (:func:`~engine.advice.tail`), once
        :meth:`step` has checked them.
        """
        if self.settings.checks:
            if self.because is None:
                raise ValueError("the reason is checked once the choice is made (explain=True)")
            return self.because.words()
        other = versus if versus is not None else self.runner_up
        view = self.view
        if other is None and len(view.hand) == 1 and self.best.card is not None:
            return "es tu última carta"
        if other is None and self.best is not DRAW and DRAW in view.legal:
            other = DRAW  # the one move worth weighing: the draw is what was left out
        if other is None:
            return ""
        if versus is None and self.weighing is not None:
            seen = self.weighing.seen(self.moves.index(self.best), self.moves.index(other))
        return why(self.view, self.best, other, seen)


class Because:
    """Version 3: the reason for ``best`` over ``versus``, said only if a sample that did not choose backs it.

    The sample is ``sample`` when given (the review's second sample, the two
    moves in order), else one of its own: ``check_worlds`` worlds of
    ``decision_rng("review-why", view)``, run by :meth:`step`. The reason
    (:func:`~engine.advice.reason_kind`, its figures from that sample) is
    kept when it is of a kind :attr:`ReviewSettings.kinds` lists and the
    move it argues for did better there by at least
    :attr:`ReviewSettings.backing` standard errors; ``one_sided=False``
    drops it whatever the sample says (an «Igual de buena»). The 8's suit
    note is a fact of the position, always said.
    """

    def __init__(
        self,
        view: SeatView,
        best: Action,
        versus: Action | None,
        s: ReviewSettings,
        sample: Weighing | None = None,
    ) -> None:
        self.view, self.best, self.versus, self.settings = view, best, versus, s
        self.sample = sample
        last_card = len(view.hand) == 1 and best.card is not None
        if sample is None and versus is not None and not last_card:
            params = s.sample_params(view.players, s.check_worlds, s.check_actions)
            self.sample = Weighing(view, [best, versus], params, "review-why")

    def step(self, max_playouts: int) -> bool:
        return self.sample is None or self.sample.step(max_playouts)

    def kind(self) -> tuple[str, str, bool]:
        """(kind, words, backed) of the one-sided reason before it is kept or dropped."""
        view, versus, sample = self.view, self.versus, self.sample
        if versus is None or sample is None:
            return ("", "", False)
        kind, words = reason_kind(view, self.best, versus, sample.seen(0, 1))
        mean, se = sample.difference()
        return (kind, words, mean > 0 and mean >= self.settings.backing * se)

    def reason(self, one_sided: bool = True) -> str:
        """The one-sided reason said, or ``""``."""
        if not one_sided:
            return ""
        if len(self.view.hand) == 1 and self.best.card is not None:
            return "es tu última carta"
        kind, words, backed = self.kind()
        return words if backed and kind in self.settings.kinds else ""

    def words(self, one_sided: bool = True) -> str:
        """What follows the move's words: «: tienes 3», «, porque guardas el 8» (:func:`~engine.advice.tail`).

        ``one_sided=False`` (an «Igual de buena») keeps the 8's suit note only.
        """
        return tail(self.view, self.best, self.reason(one_sided))
