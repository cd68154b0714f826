"""lab.modal_cost reads a Chromium trace: how many elements a panel's opening styled."""

from __future__ import annotations

from lab.modal_cost import styled_elements


def _thread(tid: int, name: str) -> dict:
    return {"name": "thread_name", "ph": "M", "pid": 7, "tid": tid, "args": {"name": name}}


def _styled(count: int, tid: int = 1) -> dict:
    args = {"elementCount": count}
    return {"name": "UpdateLayoutTree", "ph": "X", "pid": 7, "tid": tid, "ts": 0, "dur": 10, "args": args}


def test_the_largest_style_update_of_the_page_main_thread_is_counted() -> None:
    threads = [_thread(1, "CrRendererMain"), _thread(2, "Compositor")]
    trace = {"traceEvents": [*threads, _styled(3), _styled(266), _styled(1), _styled(900, tid=2)]}
    assert styled_elements(trace) == 266


def test_another_thread_or_no_style_update_counts_nothing() -> None:
    assert styled_elements([_thread(2, "Compositor"), _styled(500, tid=2)]) == 0
    assert styled_elements([_thread(1, "CrRendererMain")]) == 0
