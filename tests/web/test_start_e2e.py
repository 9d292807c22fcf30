"""A table waits for its people (issue 27, item 5), in a real browser at desktop and phone
size: before everyone seated has opened his link nothing moves and every page says whom the
table waits for; the host's page may start the game at once.

Screenshots are saved only when ``PENDRAGON_ARTIFACTS`` names a folder (``tests/web/browser.py``).
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.web.browser import DEVICES, box as box_of, needs_chromium, shot
from tests.web.support import LiveServer, auth

pytest.importorskip("playwright.sync_api", reason="needs the playwright package")

pytestmark = needs_chromium



@pytest.mark.parametrize("device", sorted(DEVICES))
def test_the_table_waits_for_its_people_and_the_host_may_start_it(
    browser: Any, server: LiveServer, device: str,
) -> None:
    seats = [{"kind": "human", "name": "Host"}, {"kind": "human", "name": "Ann"},
             {"kind": "bot", "bot": "random"}]
    response = httpx.post(server.base + "/api/tables", json={"game": "soc", "seats": seats},
                          trust_env=False, timeout=10)
    assert response.status_code == 201, response.text
    created = response.json()
    spectator = auth(created["spectator"]["token"])
    with server.http() as http:
        at_creation = http.get("/api/table", headers=spectator).json()["state"]["version"]
    context = browser.new_context(**DEVICES[device], locale="en-GB")
    errors: list[str] = []
    try:
        ann = context.new_page()
        ann.on("pageerror", lambda error: errors.append(str(error)))
        ann.goto(server.base + created["seats"][1]["link"])
        box = ann.locator("[data-testid=start-box]")
        box.wait_for()
        assert "Waiting for: Host" in box.inner_text()
        assert ann.locator("[data-testid=start-now]").count() == 0, "only the host starts"
        # Nobody is "to move" yet: the heading and the header say the game has not begun.
        assert ann.locator("[data-testid=actions-heading]").inner_text() == (
            "The game has not begun yet")
        assert "Waiting for Host" not in ann.locator("header").inner_text()
        assert ann.locator("button[data-testid=action]").count() == 0, "no move before"
        width = DEVICES[device]["viewport"]["width"]
        drawn = box_of(ann, "[data-testid=start-box]")
        assert drawn is not None and drawn["x"] + drawn["width"] <= width + 1
        shot(ann, f"waiting-for-people-{device}")

        with server.http() as http:
            before = http.get("/api/table", headers=spectator).json()["state"]
        assert before["started"] is False and before["waiting_for"] == [0]
        assert before["version"] == at_creation, "no bot moved while the table waited"

        host = context.new_page()
        host.on("pageerror", lambda error: errors.append(str(error)))
        host.goto(server.base + created["host"]["link"])
        host.locator("[data-testid=start-now]").click()
        ann.locator("[data-testid=start-box]").wait_for(state="detached")
        host.locator("[data-testid=start-box]").wait_for(state="detached")
        with server.http() as http:
            after = http.get("/api/table", headers=spectator).json()["state"]
        assert after["started"] is True and after["waiting_for"] == []
    finally:
        context.close()
    assert errors == []
