"""lab.long_tasks reads a Chromium trace: what the main thread's long tasks were spent on."""

from __future__ import annotations

from lab.long_tasks import causes


def _event(name: str, ts_ms: float, dur_ms: float, tid: int = 1, stack: list[str] | None = None) -> dict:
    args = {"beginData": {"stackTrace": [{"functionName": f} for f in stack]}} if stack else {}
    times = {"ts": ts_ms * 1000, "dur": dur_ms * 1000}
    return {"name": name, "ph": "X", "pid": 7, "tid": tid, **times, "args": args}


def _thread(tid: int, name: str) -> dict:
    return {"name": "thread_name", "ph": "M", "pid": 7, "tid": tid, "args": {"name": name}}


def test_a_long_task_is_split_into_what_forced_layout_the_frame_paint_and_script() -> None:
    trace = {
        "traceEvents": [
            _thread(1, "CrRendererMain"),
            _thread(2, "Compositor"),
            _event("RunTask", 0, 90),
            _event("UpdateLayoutTree", 10, 20, stack=["dialog", "settle"]),
            _event("Layout", 40, 10),
            _event("Paint", 60, 10),
            _event("PaintImage", 62, 5),  # inside the paint: counted with it
            _event("RunTask", 100, 30),  # short: not counted
            _event("Layout", 105, 20, stack=["focus"]),
            _event("RunTask", 0, 500, tid=2),  # another thread
        ]
    }
    assert causes(trace) == {"script": 50.0, "dialog": 20.0, "frame": 10.0, "paint": 10.0}


def test_a_trace_without_the_page_main_thread_has_no_causes() -> None:
    assert causes([_thread(2, "Compositor"), _event("RunTask", 0, 90, tid=2)]) == {}
