"""What the browser tests share: Debian's Chromium driven by Playwright, where screenshots go,
and how long a whole game may take.

``browser`` (a fixture of ``tests/web/conftest.py``) launches Chromium once per test module;
a module of browser tests marks itself ``pytestmark = needs_chromium``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

#: Debian's Chromium (``scripts/system-deps.sh`` installs it).
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-sync",
]
#: Where the browser tests save their screenshots: only when ``PENDRAGON_ARTIFACTS`` names a
#: folder (``PENDRAGON_ARTIFACTS=test-artifacts make test``). A full-page picture is not free
#: (about a seventh of the friends' and lobby's browser modules' time), and no test reads one.
ARTIFACTS = Path(os.environ["PENDRAGON_ARTIFACTS"]) if os.environ.get("PENDRAGON_ARTIFACTS") \
    else None
#: Longest a whole game may take in these tests.
GAME_SECONDS = 240
#: The two sizes every page is tried at: a desktop window and a 390 px phone.
DEVICES = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
              "device_scale_factor": 2},
}


def shot(page: Any, name: str, full_page: bool = True) -> None:
    """Save a screenshot of ``page`` as ``name.png`` in :data:`ARTIFACTS`, when screenshots
    are asked for; ``full_page=False``: what the screen shows (a full page would draw a
    pinned strip mid-page)."""
    if ARTIFACTS is None:
        return
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


needs_chromium = pytest.mark.skipif(
    not os.path.exists(CHROMIUM),
    reason="needs Debian's Chromium at /usr/bin/chromium (scripts/system-deps.sh installs it)",
)


@contextmanager
def chromium_browser() -> Iterator[Any]:
    """A headless Chromium, closed afterwards (skips the test without Playwright)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


def choose_action(page: Any, text: str, timeout: float = 2000) -> None:
    """Play the legal move ``text`` as a person would: its button, or, for a decision of
    many numbered choices (issue 27, item 6), its number typed in the number field."""
    button = page.locator(f'button[data-testid=action][data-action="{text}"]:not([disabled])')
    if button.is_visible():
        button.click(timeout=timeout)
        return
    number = button.get_attribute("data-n", timeout=timeout)
    form = page.locator(f'[data-testid=number-choice][data-prefix="{text.split(":")[0]}"]')
    form.locator("[data-testid=number-choice-input]").fill(str(number), timeout=timeout)
    play = form.locator("[data-testid=number-choice-play]")
    assert play.get_attribute("data-action") == text, (text, number)
    play.click(timeout=timeout)


def show_tab(page: Any, tab: str) -> None:
    """On a phone, open the table page's tab ``tab`` ("play", "board", "table", "talk":
    issue 39, item 11); on a wider screen every panel is shown and nothing is done."""
    page.locator("[data-testid=phone-tabs]").wait_for(state="attached")  # the page is drawn
    button = page.locator(f"[data-testid=phone-tab-{tab}]")
    if button.is_visible():
        button.click()


#: Resolves once every running animation of a fixed length (cards sliding in, figures
#: gliding: ``motion.js``, the boards' own) has finished; a looping one is not waited for.
SETTLED = """() => Promise.all(document.getAnimations()
  .filter((a) => a.playState === "running" && a.effect
    && a.effect.getComputedTiming().endTime !== Infinity)
  .map((a) => a.finished.catch(() => null)))"""


def settle(page: Any) -> None:
    """Wait until what moves on the page has arrived (for a screenshot or a measure): the
    animations' own end, not a pause guessed to outlast them."""
    page.evaluate(SETTLED)


def replay_step(page: Any) -> int:
    """The replay's position: the first number of its "Action N of M" line."""
    text: str = page.locator("[data-testid=replay-step]").inner_text()
    return int(re.findall(r"\d+", text)[0])


def replay_next(page: Any) -> int:
    """Click the replay's "next" and wait until the page shows the position it moved to
    (fetched, then drawn); returns it."""
    before = replay_step(page)
    page.click("[data-testid=replay-next]")
    page.wait_for_function(
        "(before) => Number(document.querySelector('[data-testid=replay-step]')"
        ".innerText.match(/\\d+/)[0]) !== before", arg=before)
    return replay_step(page)


#: The box of the first element a selector matches, read in one step of the page's own
#: JavaScript, or None when nothing matches or it is not drawn (no box, like Playwright's).
BOX = """(selector) => {
  const found = document.querySelector(selector);
  const r = found ? found.getBoundingClientRect() : null;
  return r && r.width && r.height ? { x: r.x, y: r.y, width: r.width, height: r.height } : null;
}"""


def box(page: Any, selector: str) -> dict[str, float] | None:
    """Where ``selector``'s element is on the screen (CSS px from the viewport's top left).
    ``locator.bounding_box()`` finds the element, then asks for its box: a push redrawn
    between the two steps (the table page replaces its elements) leaves it None."""
    found: dict[str, float] | None = page.evaluate(BOX, selector)
    return found
