"""Where Chromium is and how it is launched, for the browser tests and the load benchmark.

Playwright cannot download a browser here, so Debian's Chromium is driven
instead (``apt-get install chromium``; ``.ci/run`` does it when missing).
"""

from __future__ import annotations

import os

CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")

# Headless as root in a sandbox with no network but loopback: without the
# background-networking flags Chromium keeps trying to reach its own services.
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def find() -> str | None:
    """``$CHROMIUM_PATH`` if it exists, else the first system Chromium found, else None."""
    env = os.environ.get("CHROMIUM_PATH")
    if env:
        return env if os.path.exists(env) else None
    for candidate in CANDIDATES:
        if os.path.exists(candidate):
            return candidate
    return None
