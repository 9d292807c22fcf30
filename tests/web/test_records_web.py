"""The record of a finished web game (issue 31 item 1; docs/records.md, "Ruling: what a
finished game's record reveals"): ``GET /api/replay/record`` behind the replay's own rule,
a download that replays to the table's game, with the names people chose and no seed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pendragon.i18n import catalog
from pendragon.records import loads, replay_record
from tests.web.browser import needs_chromium
from tests.web.support import LiveServer, auth, play_to_the_end, view, wait_for


def first_legal(state: dict[str, Any]) -> int:
    action: int = state["legal"][0]["id"]
    return action


def test_the_record_downloads_only_once_the_game_is_over(server: LiveServer) -> None:
    """Before the end: ``not_finished`` (as the replay); without a token: refused; after
    the end, a file the record reader accepts, named for the download."""
    with server.http() as http:
        created = server.create(http, [{"kind": "human", "name": "Ann"},
                                        {"kind": "bot", "bot": "random"},
                                        {"kind": "bot", "bot": "random"}])
        ann = created["seats"][0]["token"]
        early = http.get("/api/replay/record", headers=auth(ann))
        assert early.status_code == 409 and early.json()["error"]["code"] == "not_finished"
        assert http.get("/api/replay/record").status_code == 401
        assert http.get("/api/replay/record", headers=auth("nonsense")).status_code in (401, 403)
        play_to_the_end(http, ann, first_legal)
        response = http.get("/api/replay/record", headers=auth(ann))
        table = view(http, ann)
    assert response.status_code == 200, response.text
    disposition = response.headers["content-disposition"]
    assert disposition == f'attachment; filename="soc-{created["table"]}.json"'
    assert response.headers["content-type"].startswith("application/json")
    record = loads(response.text)
    # The name the person chose; the bots' seats, unnamed at the table, after their bot.
    assert [s["name"] for s in table["table"]["seats"]] == ["Ann", "", ""]
    assert [(s.name, s.bot) for s in record.seats] == [
        ("Ann", None), ("random", "random"), ("random", "random")]
    assert record.result is not None
    assert list(record.result.returns) == table["state"]["returns"]
    assert len(record.actions) == table["state"]["version"]


@pytest.mark.parametrize("game", ["soc", "soc-card", "grail-cup"])
def test_the_download_is_the_table_game_without_its_seed(server: LiveServer, game: str) -> None:
    """What ``replay_record`` rebuilds from the download is the table's game: the same
    actions, every seat's and the spectators' view at the end equal to the replay's; the
    seed, which never leaves the server, is not in it."""
    with server.http() as http:
        response = http.post("/api/tables", json={
            "game": game, "seats": [{"kind": "bot", "bot": "random"}] * 3})
        assert response.status_code == 201, response.text
        created = response.json()
        spectator = created["spectator"]["token"]
        final = wait_for(http, spectator, lambda b: b["state"]["finished"], timeout=60)
        length = final["state"]["version"]
        download = http.get("/api/replay/record", headers=auth(spectator))
        position = http.get(f"/api/replay/{length}", headers=auth(spectator)).json()
    live = server.manager.tables[created["table"]]
    record = loads(download.text)
    replayed = replay_record(record)
    assert replayed.actions == tuple(live.state.history())
    assert [replayed.final.observation(s) for s in range(3)] == position["observations"]
    assert replayed.final.observation(None) == position["spectator"]
    assert record.options["seed"] is None
    assert str(live.seed) not in download.text
    assert record.date is not None and record.date.endswith("Z")


@needs_chromium
def test_the_replay_page_downloads_the_record(server: LiveServer, browser: Any) -> None:
    """The replay page's button, in the reader's language (a Polish browser), saves the
    record the API gives (issue 31 item 1: "a person can download a record of a game he
    played in the browser")."""
    with server.http() as http:
        response = http.post("/api/tables", json={
            "game": "grail-cup", "seats": [{"kind": "bot", "bot": "random"}] * 2})
        created = response.json()
        spectator = created["spectator"]["token"]
        wait_for(http, spectator, lambda b: b["state"]["finished"], timeout=60)
        expected = http.get("/api/replay/record", headers=auth(spectator)).text
    context = browser.new_context(locale="pl-PL", accept_downloads=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{server.base}/replay#{spectator}")
        button = page.locator("[data-testid=replay-download]")
        button.wait_for()
        assert button.inner_text() == catalog("pl").text("replay.download")
        with page.expect_download() as download:
            button.click()
        assert download.value.suggested_filename == f"grail-cup-{created['table']}.json"
        saved = Path(download.value.path()).read_text()
        assert errors == []
    finally:
        context.close()
    assert saved == expected and loads(saved).game == "grail-cup"
