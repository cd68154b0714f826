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


# Version 2's prior: the margins of the moves the review's choice made over the moves played,
# measured (``python -m lab.review_check fit``, docs/review.md), in points, with their weights.
PRIOR_2: dict[int, tuple[tuple[float, float], ...]] = {
    2: (
        (-10, 0.0017),
        (-3, 0.0189),
        (-2, 0.0063),
        (-1, 0.0066),
        (0, 0.3137),
        (1, 0.2357),
        (2, 0.0246),
        (3, 0.0549),
        (4, 0.1097),
        (5, 0.0698),
        (6, 0.0229),
        (7, 0.0148),
        (8, 0.0456),
        (12, 0.0451),
        (13, 0.0078),
        (17, 0.0012),
        (18, 0.0104),
        (22, 0.0012),
        (23, 0.001),
        (25, 0.0032),
        (28, 0.0025),
        (35, 0.0021),
    ),
    3: (
        (-2, 0.0262),
        (-1, 0.0201),
        (0, 0.1486),
        (1, 0.3541),
        (2, 0.0281),
        (3, 0.1503),
        (4, 0.0171),
        (5, 0.1013),
        (6, 0.0473),
        (7, 0.0033),
        (8, 0.0231),
        (9, 0.0259),
        (10, 0.0179),
        (11, 0.0165),
        (15, 0.0069),
        (16, 0.0053),
        (21, 0.0026),
        (22, 0.0041),
        (26, 0.0015),
    ),
}
SCALE_2: dict[int, float] = {2: 0.975, 3: 1.0}

# Version 3: the same choice and margin samples, 8s naming a suit only with a reason to, and each
# reason checked in a sample of its own; the prior and scale fitted on three kinds of learner.
CHECK_WORLDS_3 = 150
CHECK_ACTIONS_3 = 6_000
BACKING_3 = 2.0
# Version 3's priors, fitted (``python -m lab.review_reasons fit``, docs/review.md) on two stand-ins
# (drawer, eights: 50 games each) and checked on three (high held out): the pooled prior, then one per
# kind of move played (:func:`move_class`).
# fmt: off
PRIOR_3: dict[int, tuple[tuple[float, float], ...]] = {
    2: (
        (-5, 0.004), (-4, 0.0015), (-2, 0.0168), (-1, 0.0441), (0, 0.2546), (1, 0.189), (2, 0.0915),
        (3, 0.0827), (4, 0.0735), (5, 0.0624), (6, 0.0247), (7, 0.0273), (8, 0.0252), (9, 0.0095),
        (10, 0.0238), (11, 0.008), (12, 0.0049), (13, 0.02), (14, 0.0051), (15, 0.0016), (16, 0.0059),
        (19, 0.008), (24, 0.0087), (27, 0.0031), (31, 0.003), (43, 0.001),
    ),
    3: (
        (-3, 0.0027), (-2, 0.003), (-1, 0.0119), (0, 0.2837), (1, 0.1019), (2, 0.1268), (3, 0.1315),
        (4, 0.0641), (5, 0.0923), (6, 0.0443), (7, 0.0462), (8, 0.0103), (9, 0.0155), (10, 0.0096),
        (12, 0.0265), (16, 0.011), (17, 0.0019), (20, 0.0076), (24, 0.0038), (32, 0.0018), (41, 0.0014),
        (45, 0.001), (65, 0.0011),
    ),
}
PRIORS_3: dict[int, tuple[tuple[str, tuple[tuple[float, float], ...]], ...]] = {
    2: (
        ("robar", (
            (-10, 0.0014), (-5, 0.0074), (-4, 0.0023), (-2, 0.0212), (-1, 0.0521), (0, 0.1768),
            (1, 0.1723), (2, 0.0989), (3, 0.185), (4, 0.0799), (5, 0.0374), (6, 0.0353), (7, 0.0508),
            (8, 0.0018), (10, 0.0207), (11, 0.0019), (12, 0.012), (13, 0.0087), (14, 0.0083),
            (15, 0.0019), (16, 0.0046), (19, 0.0053), (20, 0.0014), (24, 0.0082), (25, 0.001),
            (32, 0.0021), (43, 0.0011),
        )),
        ("ocho", (
            (-3, 0.0018), (-2, 0.0186), (-1, 0.1059), (0, 0.0556), (1, 0.0376), (2, 0.1798),
            (3, 0.0152), (4, 0.1306), (5, 0.0223), (6, 0.0285), (7, 0.041), (8, 0.0539), (9, 0.0645),
            (10, 0.0611), (11, 0.0366), (12, 0.0287), (13, 0.0415), (14, 0.0146), (15, 0.0032),
            (16, 0.0054), (17, 0.0099), (18, 0.0038), (19, 0.0019), (20, 0.0031), (21, 0.0041),
            (22, 0.0087), (23, 0.0048), (27, 0.0097), (30, 0.004), (51, 0.0018), (67, 0.0018),
        )),
        ("carta", (
            (-2, 0.0218), (-1, 0.0435), (0, 0.3187), (1, 0.2232), (2, 0.0729), (3, 0.0571), (4, 0.0502),
            (5, 0.0701), (6, 0.0152), (7, 0.0151), (8, 0.0298), (9, 0.0128), (10, 0.0168), (11, 0.0047),
            (13, 0.0165), (14, 0.0011), (17, 0.0045), (18, 0.0055), (19, 0.0022), (24, 0.0076),
            (25, 0.0025), (29, 0.0035), (31, 0.0022), (67, 0.001), (79, 0.0013),
        )),
    ),
    3: (
        ("robar", (
            (-3, 0.0037), (-1, 0.0034), (0, 0.1286), (1, 0.1879), (2, 0.0641), (3, 0.1599), (4, 0.2139),
            (5, 0.0902), (6, 0.0546), (7, 0.0276), (8, 0.0067), (9, 0.0052), (10, 0.0067), (12, 0.0102),
            (13, 0.0058), (16, 0.0151), (20, 0.0095), (21, 0.0022), (25, 0.0047),
        )),
        ("ocho", (
            (-4, 0.0213), (-3, 0.0061), (-1, 0.0022), (0, 0.1408), (1, 0.2629), (2, 0.0666), (3, 0.165),
            (4, 0.0038), (7, 0.1509), (8, 0.0199), (9, 0.0068), (10, 0.0772), (11, 0.0148),
            (12, 0.0491), (13, 0.0025), (16, 0.01),
        )),
        ("carta", (
            (-1, 0.0229), (0, 0.3735), (1, 0.0861), (2, 0.1648), (3, 0.0836), (4, 0.01), (5, 0.0975),
            (6, 0.0138), (7, 0.0525), (8, 0.0139), (9, 0.0203), (11, 0.0013), (12, 0.0199),
            (17, 0.0122), (20, 0.0019), (21, 0.005), (24, 0.0055), (32, 0.0039), (41, 0.0029),
            (45, 0.0022), (49, 0.0011), (55, 0.0019), (65, 0.0023), (69, 0.0011),
        )),
    ),
}
# fmt: on
SCALE_3: dict[int, float] = {2: 0.931, 3: 0.931}
# The kinds of reason the lab's report backs at least 80 % of the time, both on the games the kinds
# were chosen on and on games that chose nothing (docs/review.md): «guardas el 8» (77 %) and «CPU 1 no
# tiene picas» (72 %) fell under on the second and are not said.
KINDS_3: tuple[str, ...] = ("una-carta", "robar-8", "no-robar", "mas-palo", "pareja")

# Version 4: version 3 with the margin shrunk per kind of decision (:func:`decision_class`: the kinds
# of the move played and of the review's choice, «ocho>carta», «carta+>carta»), fitted (``python -m
# lab.review_reasons fit --by choice``, docs/review.md) on two stand-ins (drawer, eights: games 0–3319)
# and checked on three (high held out) on games no fit saw; at two players each kind has its own scale.
# fmt: off
PRIOR_4: dict[int, tuple[tuple[float, float], ...]] = {
    2: (
        (-10, 0.0014), (-5, 0.0014), (-4, 0.0028), (-3, 0.0035), (-2, 0.0076), (-1, 0.0209), (0, 0.2801),
        (1, 0.2046), (2, 0.0707), (3, 0.0926), (4, 0.0718), (5, 0.0557), (6, 0.041), (7, 0.0341),
        (8, 0.0203), (9, 0.0196), (10, 0.006), (11, 0.0193), (12, 0.0099), (13, 0.0039), (14, 0.0043),
        (15, 0.007), (16, 0.0029), (17, 0.0051), (18, 0.0013), (20, 0.004), (21, 0.0039), (22, 0.0011),
        (26, 0.0022), (32, 0.0011),
    ),
    3: (
        (-4, 0.0053), (-2, 0.0012), (-1, 0.0205), (0, 0.2521), (1, 0.1604), (2, 0.1056), (3, 0.129),
        (4, 0.0915), (5, 0.0595), (6, 0.0514), (7, 0.0402), (8, 0.0113), (9, 0.0158), (10, 0.005),
        (11, 0.0156), (12, 0.0094), (13, 0.0018), (15, 0.0056), (16, 0.0044), (17, 0.0019), (20, 0.0047),
        (21, 0.0013), (24, 0.0018), (25, 0.0017), (31, 0.0011), (32, 0.0015),
    ),
}
PRIORS_4: dict[int, tuple[tuple[str, tuple[tuple[float, float], ...]], ...]] = {
    2: (
        ("carta+>carta", (
            (-2, 0.0162), (-1, 0.079), (0, 0.3981), (1, 0.2431), (2, 0.068), (3, 0.031), (4, 0.0426),
            (5, 0.0216), (6, 0.0242), (7, 0.003), (8, 0.012), (9, 0.0254), (10, 0.0128), (11, 0.0035),
            (12, 0.0043), (13, 0.0034), (15, 0.0015), (20, 0.0087), (30, 0.0016),
        )),
        ("carta>carta", (
            (-3, 0.0067), (-2, 0.0034), (-1, 0.0062), (0, 0.3432), (1, 0.2415), (2, 0.0462), (3, 0.108),
            (4, 0.0621), (5, 0.0415), (6, 0.0415), (7, 0.0314), (8, 0.0148), (9, 0.0172), (11, 0.0039),
            (12, 0.0082), (13, 0.0048), (14, 0.0014), (15, 0.0027), (16, 0.0025), (17, 0.0012),
            (18, 0.0018), (19, 0.0015), (20, 0.0015), (21, 0.0041), (25, 0.0016), (28, 0.0012),
        )),
        ("carta>ocho", (
            (-7, 0.013), (-6, 0.0223), (-5, 0.0081), (-4, 0.0103), (-3, 0.0319), (-2, 0.0072), (-1, 0.0013),
            (0, 0.1847), (1, 0.0172), (2, 0.0498), (3, 0.1372), (4, 0.0052), (5, 0.073), (6, 0.0528),
            (7, 0.0574), (8, 0.0016), (10, 0.0058), (11, 0.0725), (12, 0.0122), (14, 0.008), (15, 0.0415),
            (16, 0.0013), (19, 0.0045), (20, 0.0218), (21, 0.0185), (22, 0.0182), (29, 0.0037),
            (30, 0.0194), (32, 0.0078), (38, 0.0163), (39, 0.0021), (48, 0.007), (53, 0.0075), (57, 0.0011),
            (58, 0.0093), (61, 0.0061), (66, 0.0026), (67, 0.0096), (70, 0.0012), (74, 0.003), (75, 0.0018),
            (80, 0.0245),
        )),
        ("ocho>carta", (
            (3, 0.0437), (4, 0.0283), (5, 0.0358), (6, 0.128), (7, 0.2285), (8, 0.1598), (9, 0.0936),
            (10, 0.0654), (11, 0.0573), (12, 0.0455), (13, 0.0266), (14, 0.0156), (15, 0.0134),
            (16, 0.0187), (17, 0.0187), (18, 0.0024), (22, 0.0039), (23, 0.0033), (24, 0.006), (25, 0.0055),
        )),
        ("ocho>ocho", (
            (-10, 0.0046), (-8, 0.0023), (-4, 0.0195), (-3, 0.013), (-2, 0.0152), (-1, 0.0526), (0, 0.0279),
            (1, 0.1007), (2, 0.1247), (3, 0.0978), (4, 0.1272), (5, 0.0273), (6, 0.0068), (7, 0.0786),
            (8, 0.0551), (9, 0.0381), (10, 0.0212), (11, 0.0253), (12, 0.0455), (13, 0.0055), (14, 0.0076),
            (15, 0.0252), (17, 0.0325), (20, 0.0061), (21, 0.013), (22, 0.0023), (26, 0.009), (30, 0.0029),
            (32, 0.0015), (33, 0.0042), (35, 0.0033), (36, 0.0017), (41, 0.002),
        )),
        ("ocho>robar", (
            (-4, 0.0248), (-3, 0.0167), (-2, 0.0068), (-1, 0.024), (0, 0.2199), (1, 0.2722), (2, 0.0906),
            (3, 0.0298), (4, 0.076), (5, 0.0801), (6, 0.0362), (7, 0.0221), (8, 0.0306), (9, 0.0258),
            (10, 0.01), (11, 0.0184), (12, 0.0017), (17, 0.0127), (37, 0.0014),
        )),
        ("robar>carta", (
            (-10, 0.0019), (-4, 0.0029), (-3, 0.0016), (-2, 0.0032), (-1, 0.0178), (0, 0.1964), (1, 0.215),
            (2, 0.1785), (3, 0.0758), (4, 0.1017), (5, 0.0782), (6, 0.033), (7, 0.0222), (8, 0.0189),
            (10, 0.0125), (11, 0.0118), (13, 0.0021), (14, 0.0053), (15, 0.005), (16, 0.0049), (19, 0.0014),
            (20, 0.0043), (23, 0.0021), (26, 0.0022), (31, 0.0014),
        )),
        ("robar>ocho", (
            (-10, 0.0061), (-5, 0.0129), (-3, 0.0093), (-2, 0.0032), (-1, 0.1082), (0, 0.0061), (1, 0.172),
            (2, 0.0636), (3, 0.0936), (4, 0.1161), (5, 0.0998), (6, 0.0082), (7, 0.1021), (8, 0.034),
            (9, 0.0026), (10, 0.0065), (11, 0.0564), (12, 0.0391), (13, 0.0062), (14, 0.003), (17, 0.0233),
            (18, 0.0013), (21, 0.005), (25, 0.006), (26, 0.0064), (37, 0.0033), (40, 0.0019), (47, 0.0039),
        )),
    ),
    3: (
        ("carta+>carta", (
            (-5, 0.001), (-2, 0.0014), (-1, 0.1715), (0, 0.5718), (1, 0.0289), (2, 0.0276), (3, 0.1016),
            (4, 0.0044), (5, 0.0036), (6, 0.046), (7, 0.0046), (9, 0.0049), (10, 0.0232), (17, 0.0023),
            (18, 0.0035), (21, 0.002), (47, 0.0016),
        )),
        ("carta>carta", (
            (-4, 0.0016), (-1, 0.0011), (0, 0.2661), (1, 0.2205), (2, 0.1372), (3, 0.116), (4, 0.0711),
            (5, 0.0577), (6, 0.0233), (7, 0.0425), (8, 0.0142), (9, 0.019), (10, 0.0011), (11, 0.0121),
            (12, 0.0039), (13, 0.0032), (16, 0.0045), (17, 0.0014), (24, 0.0033),
        )),
        ("carta>ocho", (
            (-6, 0.0109), (-5, 0.0296), (-4, 0.0374), (-3, 0.017), (-2, 0.0117), (-1, 0.0203), (0, 0.0549),
            (1, 0.1868), (2, 0.0092), (3, 0.0167), (4, 0.0633), (7, 0.0577), (8, 0.0013), (9, 0.0822),
            (10, 0.0028), (11, 0.0281), (12, 0.0299), (15, 0.0015), (16, 0.0364), (17, 0.0328),
            (18, 0.0041), (19, 0.0017), (20, 0.0063), (21, 0.0404), (22, 0.0325), (23, 0.0027),
            (26, 0.0045), (27, 0.0105), (28, 0.0085), (29, 0.0042), (30, 0.0053), (31, 0.033), (38, 0.0084),
            (40, 0.0256), (41, 0.0042), (45, 0.0162), (49, 0.0113), (50, 0.0039), (55, 0.0106),
            (60, 0.0084), (65, 0.0089), (68, 0.0021), (71, 0.007), (72, 0.0035), (80, 0.0057),
        )),
        ("ocho>carta", (
            (3, 0.0207), (4, 0.1105), (5, 0.0523), (6, 0.0779), (7, 0.1591), (8, 0.1428), (9, 0.0946),
            (10, 0.0968), (11, 0.1121), (12, 0.0648), (13, 0.0206), (14, 0.0111), (15, 0.0176),
            (16, 0.0191),
        )),
        ("ocho>ocho", (
            (-10, 0.0013), (-4, 0.0117), (-3, 0.0025), (-2, 0.0115), (-1, 0.0545), (0, 0.2448), (1, 0.1282),
            (2, 0.0733), (3, 0.2152), (4, 0.0108), (6, 0.0355), (7, 0.1072), (8, 0.0109), (9, 0.0056),
            (10, 0.0442), (11, 0.0048), (12, 0.0073), (13, 0.0048), (14, 0.0014), (15, 0.0145),
            (20, 0.0042), (22, 0.0049), (32, 0.0011),
        )),
        ("ocho>robar", (
            (-4, 0.0029), (-3, 0.0022), (-2, 0.0032), (-1, 0.0317), (0, 0.2909), (1, 0.4562), (2, 0.1575),
            (3, 0.0345), (4, 0.0083), (5, 0.0015), (11, 0.0021), (12, 0.0044), (13, 0.0016), (29, 0.003),
        )),
        ("robar>carta", (
            (-4, 0.0012), (-3, 0.0033), (-2, 0.0011), (-1, 0.0061), (0, 0.0786), (1, 0.2258), (2, 0.1422),
            (3, 0.1672), (4, 0.1702), (5, 0.0502), (6, 0.0985), (7, 0.0176), (8, 0.0071), (11, 0.0117),
            (12, 0.0055), (16, 0.0069), (20, 0.0029), (21, 0.0013), (25, 0.0013), (33, 0.0014),
        )),
        ("robar>ocho", (
            (-10, 0.0018), (-2, 0.0535), (-1, 0.0299), (0, 0.0061), (1, 0.0917), (2, 0.165), (3, 0.1022),
            (4, 0.0757), (5, 0.1715), (6, 0.0205), (7, 0.0513), (8, 0.0673), (9, 0.0067), (10, 0.0589),
            (12, 0.0123), (13, 0.0233), (15, 0.0043), (16, 0.0056), (17, 0.0219), (19, 0.0044),
            (20, 0.0102), (26, 0.0087), (27, 0.0045), (34, 0.0026),
        )),
    ),
}
SCALE_4: dict[int, float] = {2: 1.027, 3: 0.943}
SCALES_4: dict[int, tuple[tuple[str, float], ...]] = {
    2: (
        ("carta+>carta", 0.976), ("carta>carta", 1.105), ("carta>ocho", 1.209), ("ocho>carta", 1.023),
        ("ocho>ocho", 0.988), ("ocho>robar", 0.925), ("robar>carta", 0.878), ("robar>ocho", 1.085),
    ),
    3: (),
}
# fmt: on

# Every shipped version, by table size: a stored review names its version, so these never change.
VERSIONS: tuple[dict[int, ReviewSettings], ...] = (
    {
        2: ReviewSettings(base=1, playouts=1000, max_actions=50_000, deal_cost=0, threshold=5.0),
        3: ReviewSettings(base=1, playouts=1000, max_actions=50_000, deal_cost=8, threshold=4.0),
    },
    {
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
    },
    {
        players: ReviewSettings(
            base=1,
            playouts=PLAYOUTS_2,
            max_actions=ACTIONS_2,
            deal_cost=8 if players == 3 else 0,
            threshold=4.0,
            measure_worlds=MEASURE_WORLDS_2,
            measure_actions=MEASURE_ACTIONS_2,
            prior=PRIOR_3[players],
            priors=PRIORS_3[players],
            scale=SCALE_3[players],
            check_worlds=CHECK_WORLDS_3,
            check_actions=CHECK_ACTIONS_3,
            backing=BACKING_3,
            kinds=KINDS_3,
        )
        for players in (2, 3)
    },
    {
        players: ReviewSettings(
            base=1,
            playouts=PLAYOUTS_2,
            max_actions=ACTIONS_2,
            deal_cost=8 if players == 3 else 0,
            threshold=4.0,
            measure_worlds=MEASURE_WORLDS_2,
            measure_actions=MEASURE_ACTIONS_2,
            prior=PRIOR_4[players],
            priors=PRIORS_4[players],
            by_choice=True,
            scale=SCALE_4[players],
            scales=SCALES_4[players],
            check_worlds=CHECK_WORLDS_3,
            check_actions=CHECK_ACTIONS_3,
            backing=BACKING_3,
            kinds=KINDS_3,
        )
        for players in (2, 3)
    },
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
        self._evidence = read_evidence(view, params.cpu)
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
