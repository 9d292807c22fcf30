"""The coach at the web table (issue 31, items 2 and 3; docs/web.md, "Hints" and "The
review"): the host's hint setting, a seat's hint and its refusals, the announcement in the
log; the review of a finished game with its progress, its times, one at a time per server.

The server here gives hints and reviews a small budget (``hint_budget``,
``review_budget``) so that each takes a fraction of a second."""

from __future__ import annotations

import dataclasses
import pickle
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from pendragon.web.coach_work import hint_in_worker, hint_json, hint_seed
from pendragon.web.limits import dumps_sharing
from pendragon.web.server import build_parser
from tests.test_honest_histories import _twins
from tests.web.support import FAST, LiveServer, auth, begin_game, live_server, view, wait_for

COACHED = dataclasses.replace(FAST, hint_budget=300, review_budget=60)


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('db') / 'tables.sqlite3'}"


@pytest.fixture(scope="module")
def server(database: str) -> Iterator[LiveServer]:
    with live_server(database, COACHED) as running:
        yield running


def grail_cup(http: httpx.Client, seats: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    response = http.post("/api/tables", json={"game": "grail-cup", "seats": seats, **fields})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    begin_game(http, created)
    return created


def error_code(response: httpx.Response) -> str:
    code: str = response.json()["error"]["code"]
    return code


def notices(body: dict[str, Any], key: str) -> list[dict[str, Any]]:
    """The announcements ``key`` in a view's log."""
    return [line for line in body["state"]["log"]
            if line.get("notice") and line["events"][0]["k"] == key]


def two_people(http: httpx.Client, **fields: Any) -> tuple[dict[str, Any], str, str]:
    """A Grail Cup table of two people; the token of the seat to act and of the other."""
    created = grail_cup(http, [{"kind": "human", "name": "Ann"},
                               {"kind": "human", "name": "Bob"}], **fields)
    tokens = [s["token"] for s in created["seats"]]
    state = view(http, tokens[0])["state"]
    to_act = state["to_act"]
    return created, tokens[to_act], tokens[1 - to_act]


def test_hints_are_off_unless_the_host_allows_them(server: LiveServer, database: str) -> None:
    """Issue 31 item 2: off by default and refused (``hints_off``); only the host turns
    them on (a seat, the spectators: 403), announced to everyone; the setting is kept
    across a restart."""
    with server.http() as http:
        created, mover, other = two_people(http)
        host, spectator = created["host"]["token"], created["spectator"]["token"]
        state = view(http, mover)["state"]
        assert state["hints"] is False
        refused = http.post("/api/table/hint", headers=auth(mover),
                            json={"version": state["version"]})
        assert refused.status_code == 409 and error_code(refused) == "hints_off"
        for token in (mover, spectator):
            answer = http.post("/api/table/hints", headers=auth(token), json={"allowed": True})
            assert answer.status_code == 403 and error_code(answer) == "forbidden"
        assert http.post("/api/table/hints", headers=auth(host),
                         json={"allowed": "yes"}).status_code == 422
        allowed = http.post("/api/table/hints", headers=auth(host), json={"allowed": True})
        assert allowed.json() == {"ok": True, "allowed": True}
        for token in (mover, other, spectator):
            body = view(http, token)
            assert body["state"]["hints"] is True and body["table"]["hints"] is True
            assert len(notices(body, "table.event.hints-on")) == 1
    with live_server(database, COACHED) as again, again.http() as http:
        assert view(http, other)["state"]["hints"] is True
        http.post("/api/table/hints", headers=auth(host), json={"allowed": False})
        body = view(http, spectator)
        assert body["state"]["hints"] is False
        assert len(notices(body, "table.event.hints-off")) == 1


def test_a_hint_is_for_ones_own_seat_at_ones_turn_and_announced(server: LiveServer) -> None:
    """Issue 31 item 2: the seat to act gets the coach's move (one of its legal moves, a
    chance, a reason event); the other seat, the spectators and the host are refused, and
    so are a stale version and a body naming a seat; the log tells everyone the seat asked,
    never what it was told; asking again gives the same hint and no second announcement."""
    with server.http() as http:
        created, mover, other = two_people(http, hints=True)
        state = view(http, mover)["state"]
        version, seat = state["version"], state["to_act"]
        legal = {a["id"]: a["text"] for a in state["legal"]}
        for token, status, code in ((other, 409, "not_your_turn"),
                                    (created["spectator"]["token"], 403, "forbidden"),
                                    (created["host"]["token"], 403, "forbidden")):
            answer = http.post("/api/table/hint", headers=auth(token), json={"version": version})
            assert (answer.status_code, error_code(answer)) == (status, code)
        stale = http.post("/api/table/hint", headers=auth(mover), json={"version": version + 1})
        assert stale.status_code == 409 and error_code(stale) == "stale_version"
        # A version no table can reach is malformed, and not echoed (nor is a move's).
        for route, extra in (("/api/table/hint", {}), ("/api/table/move", {"action": 0})):
            for absurd in (-1, 10**300):
                refused = http.post(route, headers=auth(mover),
                                    json={"version": absurd, **extra})
                assert (refused.status_code, error_code(refused)) == (400, "bad_request")
                assert str(absurd) not in refused.text
        for body in ({"version": version, "seat": 1 - seat}, {"version": "1"}, {}):
            assert http.post("/api/table/hint", headers=auth(mover), json=body).status_code == 422
        # Nothing asked yet: nothing announced.
        assert notices(view(http, other), "table.event.hint") == []
        answer = http.post("/api/table/hint", headers=auth(mover), json={"version": version})
        assert answer.status_code == 200, answer.text
        found = answer.json()
        assert found["version"] == version and found["seat"] == seat
        assert legal[found["action"]] == found["action_text"]
        assert 0 <= found["chance"] <= 1 and found["side"] == "own"
        assert found["reason"]["k"].startswith("coach.hint.")
        again = http.post("/api/table/hint", headers=auth(mover), json={"version": version})
        assert again.json() == found
        for token in (other, created["spectator"]["token"], mover):
            body = view(http, token)
            asked = notices(body, "table.event.hint")
            assert [line["events"][0]["p"] for line in asked] == [{"seat": {"seat": seat}}]
            assert "coach.hint." not in str(body["state"]["log"])
        # The table did not move: the hint is advice, not a move.
        assert view(http, mover)["state"]["version"] == version
        # A bot keeping the seat warm (waiting the slowest pace before its move): none.
        assert http.post("/api/table/pace", headers=auth(mover), json={"seconds": 4}).is_success
        assert http.post(f"/api/table/seats/{seat}/bot", headers=auth(mover),
                         json={"bot": "random"}).is_success
        kept = http.post("/api/table/hint", headers=auth(mover), json={"version": version})
        assert kept.status_code == 409 and error_code(kept) == "bot_seat"


def test_no_hint_for_a_bot_seat_or_once_the_game_is_over(server: LiveServer) -> None:
    """Issue 31 item 2: a seat a bot keeps warm gets none (``bot_seat``), nor anyone once
    the game is over (``game_over``); the rematch allows hints as the table did."""
    with server.http() as http:
        created = grail_cup(http, [{"kind": "human", "name": "Ann"},
                                   {"kind": "bot", "bot": "random"}], hints=True)
        ann = created["seats"][0]["token"]
        assert http.post("/api/table/seats/0/bot", headers=auth(ann),
                         json={"bot": "random"}).status_code == 200
        final = wait_for(http, ann, lambda b: b["state"]["finished"], timeout=60)["state"]
        over = http.post("/api/table/hint", headers=auth(ann), json={"version": final["version"]})
        assert over.status_code == 409 and error_code(over) == "game_over"
        late = http.post("/api/table/hints", headers=auth(created["host"]["token"]),
                         json={"allowed": False})
        assert late.status_code == 409 and error_code(late) == "game_over"
        # The rematch keeps the host's choice.
        rematch = http.post("/api/table/rematch", headers=auth(ann))
        assert rematch.status_code == 200, rematch.text
        assert view(http, rematch.json()["token"])["state"]["hints"] is True


def test_the_tables_hint_does_not_change_when_other_seats_secrets_are_redealt() -> None:
    """Issue 31 item 2, as tests/test_coach.py checks ``coach.hint``: what the table's bot
    pool runs for a hint (in a worker process's form: the state pickled and back), with the
    table's seed for hints, is the same in games the seat cannot tell apart (other seats'
    allies and clover tokens dealt otherwise)."""
    state, twins = _twins("grail-cup", 3, 40)
    seat = state.current_player()

    def table_hint(position: Any) -> dict[str, Any]:
        game = pickle.dumps(position.game)
        found, _cpu = hint_in_worker(game, dumps_sharing(position, position.game), seat,
                                     COACHED.hint_budget, hint_seed(position, seat))
        return found

    found = table_hint(state)
    assert found == hint_json(state, seat, COACHED.hint_budget, hint_seed(state, seat))[0]
    assert twins and all(table_hint(twin) == found for twin in twins)


def finished_bots_table(http: httpx.Client) -> dict[str, Any]:
    created = grail_cup(http, [{"kind": "bot", "bot": "random"}] * 2)
    wait_for(http, created["spectator"]["token"], lambda b: b["state"]["finished"], timeout=60)
    return created


def wait_review(http: httpx.Client, token: str, timeout: float = 60) -> list[dict[str, Any]]:
    """Poll ``GET /api/replay/review`` until the review is done; every answer."""
    answers = []
    deadline = time.monotonic() + timeout
    while True:
        answer = http.get("/api/replay/review", headers=auth(token))
        assert answer.status_code == 200, answer.text
        answers.append(answer.json())
        if answers[-1]["state"] != "running":
            return answers
        assert time.monotonic() < deadline, "the review took too long"
        time.sleep(0.1)


def test_the_review_opens_only_once_the_game_is_over(server: LiveServer) -> None:
    """Issue 31 item 3: the replay's own rule (``not_finished``; a token required)."""
    with server.http() as http:
        created, mover, _other = two_people(http)
        for method in ("GET", "POST"):
            early = http.request(method, "/api/replay/review", headers=auth(mover))
            assert early.status_code == 409 and error_code(early) == "not_finished"
            assert http.request(method, "/api/replay/review").status_code == 401
        assert created["table"]


def test_the_review_reports_progress_then_its_figures_with_times(server: LiveServer) -> None:
    """Issue 31 item 3: ``POST`` begins the review, ``GET`` follows it (``running`` with
    ``done`` of ``total``) to the figures: one reviewed move per decision, a line per
    knight, each move's seconds from the action log; asked again, the same review at once
    (kept in memory), for any link of the table."""
    with server.http() as http:
        created = finished_bots_table(http)
        spectator, host = created["spectator"]["token"], created["host"]["token"]
        assert http.get("/api/replay/review", headers=auth(spectator)).json() == {"state": "none"}
        started = http.post("/api/replay/review", headers=auth(spectator))
        assert started.status_code == 200, started.text
        assert started.json()["state"] == "running"  # its process takes a second to start
        answers = wait_review(http, spectator)
        progress = [(a["done"], a["total"]) for a in answers[:-1]]
        assert progress == sorted(progress)
        assert all(0 <= done <= total for done, total in progress)
        done = answers[-1]
        assert done["state"] == "done", done
        review = done["review"]
        assert review["format"] == "pendragon-review" and review["game"] == "grail-cup"
        assert sorted(review["chart"]) == ["seat 0", "seat 1"]
        assert review["moves"] and review["times"] is True
        assert all(m["seconds"] is None or m["seconds"] >= 0 for m in review["moves"])
        assert any(m["seconds"] is not None for m in review["moves"])
        assert review["budget"]["actions"] == COACHED.review_budget
        assert http.post("/api/replay/review", headers=auth(host)).json() == done


def test_one_review_at_a_time_per_client(server: LiveServer) -> None:
    """Issue 31 item 3, issue 36 item 4: while one game's review runs, the same client's
    review of another game is refused with ``review_busy`` (429: one review under way per
    client; another client's would wait its turn, tests/web/test_under_fire.py), and may
    be asked for again once it is done."""
    with server.http() as http:
        first = finished_bots_table(http)["spectator"]["token"]
        second = finished_bots_table(http)["spectator"]["token"]
        # A review's process takes a second to start: the first is still running.
        started = http.post("/api/replay/review", headers=auth(first)).json()
        assert started["state"] == "running"
        other = http.post("/api/replay/review", headers=auth(second))
        assert other.status_code == 429 and error_code(other) == "review_busy"
        assert http.get("/api/replay/review", headers=auth(second)).json() == {"state": "none"}
        wait_review(http, first)
        other = http.post("/api/replay/review", headers=auth(second))
        assert other.status_code == 200
        assert wait_review(http, second)[-1]["state"] == "done"


def test_the_review_budget_and_hint_budget_are_server_flags() -> None:
    """``pendragon serve --hint-budget N --review-budget N`` set what the tests set here."""
    args = build_parser().parse_args(["--hint-budget", "500", "--review-budget", "70"])
    assert (args.hint_budget, args.review_budget) == (500, 70)
    assert build_parser().parse_args([]).review_budget == 0  # the game's own budget
