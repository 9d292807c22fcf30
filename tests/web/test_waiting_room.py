"""The waiting room and an absent person's seat, over the WebSocket (issue 39, items 1-2;
the browser's view of both is in test_friends_e2e.py).

1. When a person opens his link, every page already open is told at once (a ``state`` whose
   ``waiting_for`` no longer names him), not when the game begins.
2. After the host's "Start the game now", a seat whose person never came becomes "away"
   after ``away_after`` seconds, and every page is told (a ``seats`` message), so the others
   may hand it to a bot without reloading. A person who comes before then is not announced
   away, and no empty ``seats`` message follows at the time he would have been.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from pendragon.web.limits import Limits
from pendragon.web.settings import Settings
from tests.web.support import LiveServer, Peer, begin_game, is_type, live_server


def test_a_friend_who_arrives_leaves_every_pages_waiting_list(server: LiveServer) -> None:
    with server.http() as http:
        created = server.create(http, [{"kind": "human", "name": n} for n in "ABC"],
                                begin=False)
    tokens = [seat["token"] for seat in created["seats"]]
    ann = Peer(server.ws_url, tokens[0])
    try:
        first = ann.until(is_type("state"))
        assert first["started"] is False and first["waiting_for"] == [1, 2]
        bob = Peer(server.ws_url, tokens[1])
        try:
            told = ann.until(lambda m: m["type"] == "state" and m["waiting_for"] == [2])
            assert told["started"] is False
        finally:
            bob.close()
    finally:
        ann.close()


@contextmanager
def away_soon(tmp_path: Path, seats: list[dict[str, str]],
              begin: bool) -> Iterator[tuple[LiveServer, dict[str, Any]]]:
    """A server whose gone people are away after half a second, with a table of ``seats``."""
    settings = Settings(bot_delay=0.0, away_after=0.5, bot_threads=1, limits=Limits.off())
    with live_server(f"sqlite:///{tmp_path / 'tables.sqlite3'}", settings) as server:
        with server.http() as http:
            created = server.create(http, seats, begin=begin)
        yield server, created


def test_a_seat_never_opened_is_told_away_after_the_host_starts(tmp_path: Path) -> None:
    seats = [{"kind": "human", "name": "Bob"}, {"kind": "human", "name": "Ann"},
             {"kind": "bot", "bot": "random"}]
    with away_soon(tmp_path, seats, begin=False) as (server, created):
        ann = Peer(server.ws_url, created["seats"][1]["token"])
        try:
            ann.until(is_type("state"))
            with server.http() as http:
                begin_game(http, created)
            ann.until(lambda m: m["type"] == "state" and m["started"] is True)
            seats = ann.until(lambda m: m["type"] == "seats" and m["seats"][0]["away"])
            assert seats["seats"][0]["connected"] is False and not seats["seats"][1]["away"]
        finally:
            ann.close()


def test_a_seat_opened_in_time_is_told_nothing_at_its_away_time(tmp_path: Path) -> None:
    """Issue 39, item 2: the notice set for a seat nobody had opened was still sent, a
    ``seats`` message with nothing new, after its person had come; each such message
    redraws every page at the table."""
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"},
             {"kind": "bot", "bot": "random"}]
    with away_soon(tmp_path, seats, begin=True) as (server, created):
        ann = Peer(server.ws_url, created["seats"][0]["token"])
        try:
            ann.until(is_type("seats"))  # the one sent as she arrives
            with pytest.raises(TimeoutError):
                ann.until(is_type("seats"), timeout=1.5)
        finally:
            ann.close()
