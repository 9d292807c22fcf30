"""The bots' pace at a table (issue 27, item 9): ``POST /api/table/pace``.

Bots moved every 0.4 s (the server's ``--bot-delay``) and a person could not follow. A seated
player or the host now sets the table's pace to one of ``BOT_PACES``; the change is announced
in the log, pushed in every view (``bot_pace``), stored with the table's announcements (so it
survives a restart), rate-limited like every other write, and the bots wait that long.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx
import pytest

from pendragon.web import bot_loop
from pendragon.web.limits import Limits
from pendragon.web.settings import BOT_PACES, Settings
from tests.web.support import FAST, LiveServer, auth, live_server, view, wait_for

ANN_AND_BOTS = [{"kind": "human", "name": "Ann"}, {"kind": "bot"}, {"kind": "bot"}]


def error_of(response: httpx.Response) -> dict[str, Any]:
    body = response.json()
    assert set(body) == {"error"}, body
    error: dict[str, Any] = body["error"]
    assert error["message"], "every error explains itself"
    return error


def pace_of(http: httpx.Client, token: str) -> float:
    return float(view(http, token)["state"]["bot_pace"])


def notices(http: httpx.Client, token: str) -> list[dict[str, Any]]:
    return [line["events"][0] for line in view(http, token)["state"]["log"]
            if line.get("notice")]


def test_a_seated_player_and_the_host_set_the_pace_and_every_page_is_told(
    server: LiveServer,
) -> None:
    with server.http() as http:
        created = server.create(http, ANN_AND_BOTS)
        ann = created["seats"][0]["token"]
        host = created["host"]["token"]
        spectator = created["spectator"]["token"]
        assert view(http, spectator)["table"]["bot_paces"] == list(BOT_PACES)
        assert pace_of(http, spectator) == FAST.bot_delay  # the server's own, to start
        answer = http.post("/api/table/pace", json={"seconds": 2}, headers=auth(ann))
        assert answer.status_code == 200, answer.text
        assert answer.json() == {"ok": True, "seconds": 2.0}
        assert pace_of(http, spectator) == pace_of(http, ann) == 2.0
        said = {"k": "table.event.pace", "p": {"pace": {"term": "table.pace.2000"},
                                               "seat": {"seat": 0}}}
        assert said in notices(http, spectator)
        assert http.post("/api/table/pace", json={"seconds": 0.4},
                         headers=auth(host)).status_code == 200
        assert pace_of(http, ann) == 0.4
        assert {"k": "table.event.pace-host", "p": {"pace": {"term": "table.pace.400"}}} in (
            notices(http, ann))
        # The same pace again changes nothing and says nothing.
        before = len(notices(http, ann))
        assert http.post("/api/table/pace", json={"seconds": 0.4},
                         headers=auth(host)).status_code == 200
        assert len(notices(http, ann)) == before


@pytest.mark.parametrize("seconds", [0, 0.5, 3, -1, 1e9, 400])
def test_a_pace_outside_the_allowed_ones_is_refused_with_nothing_changed(
    server: LiveServer, seconds: float
) -> None:
    with server.http() as http:
        created = server.create(http, ANN_AND_BOTS)
        ann = created["seats"][0]["token"]
        refused = http.post("/api/table/pace", json={"seconds": seconds}, headers=auth(ann))
        assert refused.status_code == 400, refused.text
        assert error_of(refused)["code"] == "bad_pace"
        assert "0.4, 1, 2, 4" in error_of(refused)["message"]
        assert pace_of(http, ann) == FAST.bot_delay and notices(http, ann) == []


@pytest.mark.parametrize("body", [{"seconds": True}, {"seconds": "2"}, {}, {"seconds": None},
                                  {"seconds": 2, "bot": "random"}, [2]])
def test_a_malformed_pace_is_refused(server: LiveServer, body: Any) -> None:
    with server.http() as http:
        created = server.create(http, ANN_AND_BOTS)
        ann = created["seats"][0]["token"]
        refused = http.post("/api/table/pace", json=body, headers=auth(ann))
        assert refused.status_code == 422, refused.text
        assert error_of(refused)["code"] == "invalid_request"
        assert pace_of(http, ann) == FAST.bot_delay


def test_only_a_seated_player_or_the_host_sets_the_pace(server: LiveServer) -> None:
    with server.http() as http:
        created = server.create(http, ANN_AND_BOTS)
        ann = created["seats"][0]["token"]
        invited = http.post("/api/table/seats/1/invite", headers=auth(created["host"]["token"]))
        assert invited.status_code == 200, invited.text
        for token in (created["spectator"]["token"], invited.json()["token"]):
            refused = http.post("/api/table/pace", json={"seconds": 4}, headers=auth(token))
            assert refused.status_code == 403 and error_of(refused)["code"] == "forbidden"
        nobody = http.post("/api/table/pace", json={"seconds": 4})
        assert nobody.status_code == 401
        forged = http.post("/api/table/pace", json={"seconds": 4},
                           headers=auth(ann.split(".")[0] + ".forged"))
        assert forged.status_code == 401
        assert pace_of(http, ann) == FAST.bot_delay
        assert [n["k"] for n in notices(http, ann)] == ["table.event.invited"]


def test_no_pace_is_set_once_the_game_is_over(server: LiveServer) -> None:
    with server.http() as http:
        created = server.create(http, [{"kind": "bot"}] * 3)
        host = created["host"]["token"]
        deadline = time.monotonic() + 120
        while not view(http, host)["state"]["finished"]:
            assert time.monotonic() < deadline, "the bots' game took too long"
            time.sleep(0.1)
        refused = http.post("/api/table/pace", json={"seconds": 2}, headers=auth(host))
        assert refused.status_code == 409 and error_of(refused)["code"] == "game_over"


def test_the_pace_survives_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    with live_server(url, FAST) as server, server.http() as http:
        created = server.create(http, [{"kind": "human", "name": "Ann"},
                                       {"kind": "human", "name": "Bob"}, {"kind": "bot"}])
        ann = created["seats"][0]["token"]
        assert http.post("/api/table/pace", json={"seconds": 4},
                         headers=auth(ann)).status_code == 200
    with live_server(url, FAST) as server, server.http() as http:
        assert pace_of(http, ann) == 4.0
        assert notices(http, ann)[-1]["k"] == "table.event.pace"


class SleepLog:
    """The bot loop's sleeps, made instant: the seconds each table's bot task asked to
    sleep, by the table and the version it waited at (no clock is read)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.server: LiveServer | None = None
        self.asked: defaultdict[tuple[str, int], list[float]] = defaultdict(list)
        monkeypatch.setattr(bot_loop, "sleep", self.sleep)

    async def sleep(self, seconds: float) -> None:
        """Note ``seconds`` for the table whose bot task asks, and let others run."""
        assert self.server is not None
        task = asyncio.current_task()
        table = next(t for t in self.server.manager.tables.values() if t.bot_task is task)
        self.asked[(table.table_id, table.state.version)].append(seconds)
        await asyncio.sleep(0)


def bot_moves(http: httpx.Client, token: str) -> list[int]:
    """The versions at which the bots (seats 1 and 2) moved, from the log."""
    return [line["i"] for line in view(http, token)["state"]["log"]
            if not line.get("notice") and line["s"] in (1, 2)]


def test_the_bots_wait_the_tables_pace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot loop sleeps by the table's pace, not the server's ``bot_delay`` (0 here):
    before each bot move it asks for the pace's seconds in all, a second at most at a time."""
    sleeps = SleepLog(monkeypatch)
    url = f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    with live_server(url, FAST) as server, server.http() as http:
        sleeps.server = server
        created = server.create(http, ANN_AND_BOTS, begin=False)
        ann = created["seats"][0]["token"]
        # Ann's link begins the game (she is everyone awaited) in this very request.
        assert http.post("/api/table/pace", json={"seconds": 4},
                         headers=auth(ann)).status_code == 200
        deadline = time.monotonic() + 60
        while len(bot_moves(http, ann)) < 4:  # Ann plays until the bots have moved 4 times
            state = view(http, ann)["state"]
            assert time.monotonic() < deadline and not state["finished"]
            if state["legal"]:
                moved = http.post("/api/table/move", headers=auth(ann), json={
                    "version": state["version"], "action": state["legal"][0]["id"]})
                assert moved.status_code == 200, moved.text
            time.sleep(0.02)
        for version in bot_moves(http, ann):
            assert sleeps.asked[(created["table"], version)] == [1.0, 1.0, 1.0, 1.0], version


def test_a_pace_announced_while_a_bot_thinks_counts_for_its_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race a wall-clock version of the test above once lost (a bot moved 0.11 s after
    the pace was set to 1 s): the bot loop read the pace before a newly announced pace
    applied (the request that announced it had begun the game), and its bot then moved at
    the old pace. A pace announced while the bot thinks now counts for that move too."""
    sleeps = SleepLog(monkeypatch)
    url = f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    with live_server(url, FAST) as server, server.http() as http:
        sleeps.server = server
        thinking, let_go = threading.Event(), threading.Event()
        run_bot = server.manager.run_bot
        calls = 0

        async def first_move_waits(*args: Any, **kwargs: Any) -> tuple[int, float]:
            nonlocal calls
            calls += 1
            if calls == 1:
                thinking.set()
                await asyncio.to_thread(let_go.wait, 60)
            return await run_bot(*args, **kwargs)

        server.manager.run_bot = first_move_waits  # type: ignore[method-assign]
        created = server.create(http, [{"kind": "bot"}] * 3)  # bots alone: begun at once
        host = created["host"]["token"]
        assert thinking.wait(60), "the first bot never began to think"
        version = view(http, host)["state"]["version"]
        # The server's pace (0): the bot began to think without a wait.
        assert sleeps.asked[(created["table"], version)] == []
        assert http.post("/api/table/pace", json={"seconds": 2},
                         headers=auth(host)).status_code == 200
        let_go.set()
        wait_for(http, host, lambda body: body["state"]["version"] > version)
        assert sleeps.asked[(created["table"], version)] == [1.0, 1.0]


def test_setting_the_pace_is_rate_limited_like_every_write(tmp_path: Path) -> None:
    settings = Settings(bot_delay=0.0, away_after=3600.0, bot_threads=1,
                        limits=Limits(write_rate=0.01, write_burst=3, create_rate=100,
                                      create_burst=100))
    with live_server(f"sqlite:///{tmp_path / 'tables.sqlite3'}", settings) as server, \
            server.http() as http:
        response = http.post("/api/tables", json={"game": "soc", "seats": ANN_AND_BOTS})
        ann = response.json()["seats"][0]["token"]
        answers = [http.post("/api/table/pace", json={"seconds": s}, headers=auth(ann))
                   for s in (1, 2, 4, 1, 2)]
        codes = [a.status_code for a in answers]
        assert 429 in codes, codes
        limited = answers[codes.index(429)]
        assert error_of(limited)["code"] == "rate_limited" and limited.headers["Retry-After"]
