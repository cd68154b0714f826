"""Stepwise work run a slice at a time on the screen's timer, with its progress.

The review of a hand («Repaso», :mod:`ui.results`) and the checks of a
challenge's CPU moves (:mod:`ui.challenges`) are iterators of steps, each
yielding the fraction done so far; :func:`run_in_slices` runs one in slices of
the screen's timer (each a ``later(0)``), so the page never freezes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from .screen import Screen


def run_in_slices(
    screen: Screen,
    steps: Iterator[float],
    slice_ms: float,
    *,
    wanted: Callable[[], bool],
    progress: Callable[[int], None] | None,
    done: Callable[[], None],
) -> None:
    """Run ``steps`` on ``screen``'s timer, about ``slice_ms`` of work a slice, then call ``done``.

    Every slice runs at least one step. A slice that finds ``wanted()`` false
    stops the work (closed, or replaced by newer work): ``done`` is never
    called. ``progress`` (when given) gets the percentage done each time it
    passes another 10 points, at most 90 (``done`` says the end).
    """
    said = 0

    def run() -> None:
        nonlocal said
        if not wanted():
            return
        started = time.perf_counter()
        try:
            fraction = next(steps)  # at least one step a slice, then as many as fit
            while (time.perf_counter() - started) * 1000 < slice_ms:
                fraction = next(steps)
        except StopIteration:
            done()
            return
        percent = min(int(fraction * 100) // 10 * 10, 90)
        if progress is not None and percent > said:
            said = percent
            progress(percent)
        screen.later(0, run)

    screen.later(0, run)
