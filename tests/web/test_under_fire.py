"""The online table under fire (issue 36): the coach's work bounded and cancelled, the
write path that never loses an arrival, fair reviews, cold loads off the event loop, the
cap on tables of bots alone counting by who plays now, one client per IPv6 /64, and the
smaller holes (docs/web.md, "Limits" and "Threat model"). Each test checks a mechanism,
never a time: work is held by gates the test opens."""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest

from pendragon.web.limits import (
    PRIORITY_BOTS_ONLY,
    PRIORITY_HINT,
    PRIORITY_PEOPLE,
    BotScheduler,
    Limits,
)
from tests.web.support import FAST, LiveServer, auth, begin_game, live_server, view

COACHED = dataclasses.replace(FAST, hint_budget=300, review_budget=60)


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def gated(gate: threading.Event) -> Callable[[], tuple[None, float]]:
    """Work that holds its worker until ``gate`` opens."""
    def step() -> tuple[None, float]:
        gate.wait(30)
        return None, 0.0
    return step


def instant() -> tuple[None, float]:
    return None, 0.0


# ---------------------------------------------------------------------- item 1: the scheduler
def test_a_hint_goes_after_every_bot_turn_and_never_takes_the_peoples_worker() -> None:
    """Issue 36 item 1: with two workers, a hint search runs on the background worker only;
    a second hint waits behind it while a people's bot turn takes the kept worker, and a
    bot turn queued after a hint goes before it."""
    scheduler = BotScheduler(threads=2)
    gate = threading.Event()
    seen: list[list[str]] = []

    async def main() -> None:
        first = asyncio.create_task(scheduler.run("hint-1", PRIORITY_HINT, gated(gate)))
        await asyncio.sleep(0.01)
        tasks = [asyncio.create_task(scheduler.run(key, priority, instant))
                 for key, priority in (("hint-2", PRIORITY_HINT),
                                       ("bots-alone", PRIORITY_BOTS_ONLY))]
        await asyncio.sleep(0.01)
        people = asyncio.create_task(scheduler.run("people", PRIORITY_PEOPLE, instant))
        await people
        seen.append(list(scheduler.started))
        gate.set()
        await asyncio.gather(first, *tasks)
        scheduler.shutdown()

    asyncio.run(main())
    assert seen == [["hint-1", "people"]]  # hint-2 waited: no hint on the people's worker
    assert list(scheduler.started) == ["hint-1", "people", "hint-2", "bots-alone"]


def test_a_hint_cancelled_while_queued_never_starts_and_leaves_the_queue() -> None:
    """Issue 36 item 1: cancelling a queued search (its decision passed) drops it at once:
    the queue is empty and the work never runs."""
    scheduler = BotScheduler(threads=1)
    gate = threading.Event()
    queued_after: list[int] = []

    async def main() -> None:
        blocker = asyncio.create_task(scheduler.run("busy", PRIORITY_PEOPLE, gated(gate)))
        await asyncio.sleep(0.01)
        hints = [asyncio.create_task(scheduler.run(f"hint-{i}", PRIORITY_HINT, instant))
                 for i in range(5)]
        await asyncio.sleep(0.01)
        assert scheduler.queued() == 5
        for task in hints:
            task.cancel()
        await asyncio.gather(*hints, return_exceptions=True)
        queued_after.append(scheduler.queued())
        gate.set()
        await blocker
        await asyncio.sleep(0.05)
        scheduler.shutdown()

    asyncio.run(main())
    assert queued_after == [0] and list(scheduler.started) == ["busy"]


def test_a_hint_counts_in_its_tables_share_and_waits_when_it_is_spent() -> None:
    """Issue 36 item 1: a hint's thinking is recorded against its table, and a hint of a
    table over its share waits for the clock (a people's bot turn of that table does not)."""
    clock = FakeClock()
    scheduler = BotScheduler(threads=1, cpu_share=0.25, window=10.0, clock=clock)
    outcome: list[Any] = []

    async def main() -> None:
        await scheduler.run("table", PRIORITY_HINT, lambda: (None, 3.0))
        outcome.append(scheduler.used("table"))
        hint = asyncio.create_task(scheduler.run("table", PRIORITY_HINT, instant))
        await asyncio.sleep(0.05)
        outcome.append((scheduler.wait_needed("table") > 0, list(scheduler.started)))
        await scheduler.run("table", PRIORITY_PEOPLE, instant)
        hint.cancel()
        await asyncio.gather(hint, return_exceptions=True)
        scheduler.shutdown()

    asyncio.run(main())
    assert outcome[0] == 3.0
    assert outcome[1] == (True, ["table"])  # the second hint did not start
    assert list(scheduler.started) == ["table", "table"]  # the people's turn did


# ---------------------------------------------------------------------- item 1: at the table
def run_on_server(srv: LiveServer, coroutine: Any) -> concurrent.futures.Future[Any]:
    """Run ``coroutine`` on the live server's event loop."""
    loop = srv.manager._loop
    assert loop is not None
    return asyncio.run_coroutine_threadsafe(coroutine, loop)


@contextmanager
def workers_held(srv: LiveServer, bots: bool = False) -> Iterator[None]:
    """The hint worker (``bots``: every bot worker) of the live server busy until the
    block ends."""
    gate = threading.Event()
    scheduler = srv.manager.scheduler if bots else srv.manager.hint_scheduler
    held = [run_on_server(srv, scheduler.run(f"gate-{i}", PRIORITY_PEOPLE, gated(gate)))
            for i in range(scheduler.threads)]
    try:
        yield
    finally:
        gate.set()
        for future in held:
            future.result(30)


HINTED = dataclasses.replace(
    COACHED, bot_processes=False,
    limits=Limits.off().with_changes(hints_per_client=1, trusted_proxies=("127.0.0.1",)))


@pytest.fixture
def hinted(tmp_path: Any) -> Iterator[LiveServer]:
    with live_server(f"sqlite:///{tmp_path / 't.sqlite3'}", HINTED) as srv:
        yield srv


def two_people(http: httpx.Client) -> tuple[str, str, int]:
    """A Grail Cup table of two people allowing hints: the seat to act's token, the
    other's, and the version."""
    response = http.post("/api/tables", json={
        "game": "grail-cup", "hints": True,
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]})
    assert response.status_code == 201, response.text
    created = response.json()
    begin_game(http, created)
    tokens = [s["token"] for s in created["seats"]]
    state = view(http, tokens[0])["state"]
    return tokens[state["to_act"]], tokens[1 - state["to_act"]], int(state["version"])


def ask_later(srv: LiveServer, token: str, version: int,
              client: str = "10.0.0.1") -> concurrent.futures.Future[httpx.Response]:
    """Ask for a hint in a thread (its answer waits for a worker), as ``client``."""
    pool = concurrent.futures.ThreadPoolExecutor(1)

    def ask() -> httpx.Response:
        with srv.http() as http:
            return http.post("/api/table/hint", json={"version": version},
                             headers={**auth(token), "X-Forwarded-For": client})

    future = pool.submit(ask)
    pool.shutdown(wait=False)
    return future


def wait_until(predicate: Callable[[], bool], what: str, timeout: float = 30) -> None:
    import time

    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def test_a_hint_whose_decision_passes_is_cancelled_before_it_starts(
        hinted: LiveServer) -> None:
    """Issue 36 item 1: a hint queued behind busy workers, then the asker moves: the search
    is cancelled (never started, gone from the queue) and the asker is told its decision
    passed (409 ``stale_version``); nothing is left queued for the attacker's table."""
    scheduler = hinted.manager.hint_scheduler
    with hinted.http() as http:
        mover, _other, version = two_people(http)
        with workers_held(hinted):
            pending = ask_later(hinted, mover, version)
            wait_until(lambda: scheduler.queued() == 1, "the hint queues")
            legal = view(http, mover)["state"]["legal"]
            moved = http.post("/api/table/move", headers=auth(mover),
                              json={"version": version, "action": legal[0]["id"]})
            assert moved.status_code == 200, moved.text
            answer = pending.result(20)
            assert answer.status_code == 409
            assert answer.json()["error"]["code"] == "stale_version"
            assert scheduler.queued() == 0
        # Only the gates ever ran: the hint's search never started.
        assert [key for key in scheduler.started if not key.startswith("gate")] == []
        assert hinted.manager.hint_searches == {}


def test_a_hint_is_searched_in_its_own_worker_never_a_bots(hinted: LiveServer) -> None:
    """Issue 36 item 1: with every bot worker busy, a hint is still searched and answered
    (its worker is its own, at a lower priority than the bots'); its thinking is counted
    in its table's share, which the bots' scheduler reads."""
    with hinted.http() as http:
        mover, _other, version = two_people(http)
        with workers_held(hinted, bots=True):
            answer = http.post("/api/table/hint", headers=auth(mover),
                               json={"version": version})
            assert answer.status_code == 200, answer.text
        table = view(http, mover)["table"]["id"]
        assert hinted.manager.hint_scheduler.usage is hinted.manager.scheduler.usage
        assert table in hinted.manager.hint_scheduler.started
        assert table not in hinted.manager.scheduler.started


def test_a_client_has_a_bounded_number_of_hint_searches(hinted: LiveServer) -> None:
    """Issue 36 item 1: with ``hints_per_client`` 1, a client whose search waits is refused a
    second one at another table (429 ``hint_busy``, nothing announced); another client is
    not; once the search is found the client may ask again."""
    with hinted.http() as http:
        first, _o1, v1 = two_people(http)
        second, _o2, v2 = two_people(http)
        third, _o3, v3 = two_people(http)
        with workers_held(hinted):
            pending = ask_later(hinted, first, v1)
            wait_until(lambda: hinted.manager.hint_searches.get("10.0.0.1") == 1,
                       "the first search is under way")
            refused = http.post("/api/table/hint", json={"version": v2},
                                headers={**auth(second), "X-Forwarded-For": "10.0.0.1"})
            assert refused.status_code == 429
            assert refused.json()["error"]["code"] == "hint_busy"
            log = view(http, second)["state"]["log"]
            assert not [line for line in log if line.get("notice")
                        and line["events"][0]["k"] == "table.event.hint"]
            other = ask_later(hinted, third, v3, client="10.0.0.2")
            wait_until(lambda: hinted.manager.hint_searches.get("10.0.0.2") == 1,
                       "another client's search is under way")
        assert pending.result(30).status_code == 200
        assert other.result(30).status_code == 200
        assert hinted.manager.hint_searches == {}
        again = http.post("/api/table/hint", json={"version": v2},
                          headers={**auth(second), "X-Forwarded-For": "10.0.0.1"})
        assert again.status_code == 200, again.text


# ---------------------------------------------------------------------- item 3: the writes
def test_a_write_transaction_takes_the_lock_before_it_reads(tmp_path: Any) -> None:
    """Issue 36 item 3: a write transaction that reads first (a seat's first opening checks
    it was not opened, then inserts) holds SQLite's write lock from its BEGIN: another
    writer waits for it (busy timeout) instead of committing in between, which would make
    the first one's insert fail with "database is locked"."""
    import sqlalchemy as sa

    from pendragon.web.storage import ClaimSeat, SeatRecord, Storage, TableRecord

    url = f"sqlite:///{tmp_path / 't.sqlite3'}"
    first, second = Storage(url), Storage(url)
    seats = (SeatRecord(0, "Ann", "human", None, "a"), SeatRecord(1, "Bob", "human", None, "b"))
    first.create_table(TableRecord("t1", "grail-cup", {"players": 2}, 7, 0.0, "h", seats, (),
                                   False))
    outcome: list[Any] = []
    try:
        with first._writing() as conn:
            assert conn.execute(sa.text("SELECT count(*) FROM pendragon_seats_opened")
                                ).scalar() == 0
            other = threading.Thread(target=lambda: outcome.append(
                second.write_batch([ClaimSeat("t1", 1)])))
            other.start()
            other.join(0.3)
            assert other.is_alive()  # waiting for the lock, not committed in between
            conn.execute(sa.text("INSERT INTO pendragon_seats_opened (table_id, seat, at)"
                                 " VALUES ('t1', 0, 0)"))
        other.join(10)
        assert outcome == [[None]]
        assert first.load_table("t1").opened == frozenset({0, 1})  # type: ignore[union-attr]
    finally:
        first.close()
        second.close()


def test_every_first_opening_at_once_is_recorded_and_none_fails(tmp_path: Any) -> None:
    """Issue 36 item 3: every seat link of five tables opened at once, while new tables are
    created: every answer is 200, every seat is recorded as arrived, and after a restart the
    games have begun (everyone arrived)."""
    database = f"sqlite:///{tmp_path / 't.sqlite3'}"
    people = [{"kind": "human", "name": f"P{i}"} for i in range(5)]
    with live_server(database) as srv, srv.http() as http:
        tables = [srv.create(http, people, begin=False) for _ in range(5)]
        tokens = [s["token"] for t in tables for s in t["seats"]]

        def open_link(token: str) -> int:
            with srv.http() as own:
                return own.get("/api/table", headers=auth(token)).status_code

        def create_more(_index: int) -> int:
            with srv.http() as own:
                return own.post("/api/tables", json={"game": "soc", "seats": people}
                                ).status_code

        with concurrent.futures.ThreadPoolExecutor(16) as pool:
            opened = list(pool.map(open_link, tokens))
            created = list(pool.map(create_more, range(8)))
        assert opened == [200] * len(tokens) and created == [201] * 8
    with live_server(database) as again, again.http() as http:
        for table in tables:
            body = view(http, table["spectator"]["token"])
            assert body["table"]["started"] is True and body["table"]["waiting_for"] == []


def test_a_failed_arrival_write_changes_nothing_in_memory(tmp_path: Any,
                                                         monkeypatch: Any) -> None:
    """Issue 36 item 3: when storing a seat's first opening fails, the table does not count
    it as arrived (memory changes only after the write), the client gets 503
    ``storage_busy`` (a JSON error, not a bare 500), and the next opening records it."""
    from sqlalchemy.exc import OperationalError

    from pendragon.web.storage import ClaimSeat

    with live_server(f"sqlite:///{tmp_path / 't.sqlite3'}") as srv, srv.http() as http:
        created = srv.create(http, [{"kind": "human", "name": "Ann"},
                                    {"kind": "human", "name": "Bob"},
                                    {"kind": "human", "name": "Cy"}], begin=False)
        token = created["seats"][0]["token"]
        store = srv.manager.store
        original = store.write
        failures = [1]

        async def failing(op: Any) -> Any:
            if isinstance(op, ClaimSeat) and failures:
                failures.pop()
                raise OperationalError("INSERT", {}, Exception("database is locked"))
            return await original(op)

        monkeypatch.setattr(store, "write", failing)
        refused = http.get("/api/table", headers=auth(token))
        assert refused.status_code == 503
        assert refused.json()["error"]["code"] == "storage_busy"
        table = srv.manager.tables[created["table"]]
        assert 0 not in table.opened
        assert view(http, token)["table"]["waiting_for"] == [1, 2]
        assert 0 in table.opened


# ---------------------------------------------------------------------- item 4: reviews
def test_reviews_wait_first_come_first_served_one_per_client(tmp_path: Any,
                                                             monkeypatch: Any) -> None:
    """Issue 36 item 4: while one review runs, its client's next review is refused
    (429 ``review_busy``) and another client's waits (``queued``: one before it); when the
    running review ends, the other client's starts next."""
    import pendragon.web.reviews as reviews

    gate = threading.Event()
    reviewed: list[int] = []
    original = reviews.review_json

    def held(game: Any, actions: list[int], *rest: Any) -> Any:
        reviewed.append(len(actions))
        gate.wait(30)
        return original(game, actions, *rest)

    monkeypatch.setattr(reviews, "review_json", held)
    settings = dataclasses.replace(
        COACHED, bot_processes=False,
        limits=Limits.off().with_changes(trusted_proxies=("127.0.0.1",)))
    with live_server(f"sqlite:///{tmp_path / 't.sqlite3'}", settings) as srv, \
            srv.http() as http:
        tokens = []
        for _ in range(3):
            response = http.post("/api/tables", json={
                "game": "grail-cup", "seats": [{"kind": "bot", "bot": "random"}] * 2})
            token = response.json()["spectator"]["token"]
            wait_until(lambda t=token: view(http, t)["state"]["finished"], "a game ends")
            tokens.append(token)

        def ask(token: str, client: str) -> httpx.Response:
            return http.post("/api/replay/review",
                             headers={**auth(token), "X-Forwarded-For": client})

        assert ask(tokens[0], "10.0.0.1").json()["state"] == "running"
        mine = ask(tokens[1], "10.0.0.1")
        assert (mine.status_code, mine.json()["error"]["code"]) == (429, "review_busy")
        theirs = ask(tokens[2], "10.0.0.2").json()
        assert theirs == {"state": "running", "done": 0, "total": 0, "queued": 1}
        wait_until(lambda: len(reviewed) == 1, "the first review starts")
        gate.set()
        wait_until(lambda: http.get("/api/replay/review", headers=auth(tokens[2])
                                    ).json()["state"] in ("done", "failed"),
                   "the second review ends", 120)
        assert http.get("/api/replay/review", headers=auth(tokens[2])
                        ).json()["state"] == "done"
        assert len(reviewed) == 2  # the first, then the other client's
        assert http.get("/api/replay/review", headers=auth(tokens[0])
                        ).json()["state"] == "done"
        assert http.get("/api/replay/review", headers=auth(tokens[1])
                        ).json() == {"state": "none"}


# ---------------------------------------------------------------------- item 5: cold loads
def unload_all(srv: LiveServer) -> None:
    """Unload every table of the live server (they are loaded again when opened)."""
    async def unload() -> None:
        for table in list(srv.manager.tables.values()):
            srv.manager.unload(table)

    run_on_server(srv, unload()).result(10)


def test_a_cold_load_replays_off_the_event_loop_and_a_client_has_few_at_once(
        tmp_path: Any, monkeypatch: Any) -> None:
    """Issue 36 item 5: opening a table that is not in memory replays and narrates its game
    in the loader thread, never on the event loop's (which answers meanwhile); a client
    with ``loads_per_client`` loads under way is refused another (429 ``rate_limited``)
    while another client's is taken."""
    import pendragon.web.manager as manager_module

    gate = threading.Event()
    threads: list[str] = []
    original = manager_module.replay_record

    def held(record: Any) -> Any:
        threads.append(threading.current_thread().name)
        gate.wait(30)
        return original(record)

    monkeypatch.setattr(manager_module, "replay_record", held)
    # Threads (the server's bot pool of threads): the gate reaches the loader here. With
    # a pool of processes the loader is a process of its own.
    settings = dataclasses.replace(FAST, bot_processes=False, limits=Limits.off().with_changes(
        loads_per_client=1, trusted_proxies=("127.0.0.1",)))
    with live_server(f"sqlite:///{tmp_path / 't.sqlite3'}", settings) as srv, \
            srv.http() as http:
        tokens = [srv.create(http, [{"kind": "human", "name": "Ann"}] * 3)["spectator"]["token"]
                  for _ in range(3)]
        unload_all(srv)
        pool = concurrent.futures.ThreadPoolExecutor(2)

        def open_as(token: str, client: str) -> httpx.Response:
            with srv.http() as own:
                return own.get("/api/table", headers={**auth(token),
                                                      "X-Forwarded-For": client})

        first = pool.submit(open_as, tokens[0], "10.0.0.1")
        wait_until(lambda: len(threads) == 1, "the first load is under way")
        refused = open_as(tokens[1], "10.0.0.1")
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "rate_limited"
        other = pool.submit(open_as, tokens[2], "10.0.0.2")
        wait_until(lambda: srv.manager._loads.get("10.0.0.2") == 1,
                   "another client's load is under way (waiting for the loader thread)")
        assert http.get("/api/health").status_code == 200  # the loop answers meanwhile
        gate.set()
        assert first.result(20).status_code == 200 and other.result(20).status_code == 200
        pool.shutdown()
        assert all(name.startswith("pendragon-load") for name in threads)
        assert open_as(tokens[1], "10.0.0.1").status_code == 200


# ---------------------------------------------------------------------- item 6: bots alone
def test_a_table_whose_people_hand_their_seats_to_bots_counts_as_bots_alone(
        tmp_path: Any) -> None:
    """Issue 36 item 6: the cap counts tables by who plays now, recomputed at every
    hand-over. A person hands his seat to a bot: his client's share (1) is then used, so
    its next table of bots alone is refused (429 ``bot_table_limit``) and so is a second
    hand-over at another table (the seat stays the person's); the server's cap (2) counts
    the handed-over table too (503 for a third client)."""
    settings = dataclasses.replace(FAST, bot_delay=600.0, limits=Limits.off().with_changes(
        bot_tables=2, bot_tables_per_client=1, trusted_proxies=("127.0.0.1",)))
    person = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"},
              {"kind": "bot", "bot": "random"}]
    bots = [{"kind": "bot", "bot": "random"}] * 3
    mine = {"X-Forwarded-For": "10.0.0.1"}
    with live_server(f"sqlite:///{tmp_path / 't.sqlite3'}", settings) as srv, \
            srv.http() as http:
        def create(seats: list[dict[str, Any]], client: str) -> httpx.Response:
            return http.post("/api/tables", json={"game": "soc", "seats": seats},
                             headers={"X-Forwarded-For": client})

        def hand_over(created: dict[str, Any]) -> httpx.Response:
            begin_game(http, created)
            return http.post("/api/table/seats/0/bot", json={"bot": "random"},
                             headers={**auth(created["seats"][0]["token"]), **mine})

        first = create(person, "10.0.0.1").json()
        assert hand_over(first).status_code == 200
        again = create(bots, "10.0.0.1")
        assert (again.status_code, again.json()["error"]["code"]) == (429, "bot_table_limit")
        second = create(person, "10.0.0.1").json()
        refused = hand_over(second)
        assert (refused.status_code, refused.json()["error"]["code"]) == (429,
                                                                           "bot_table_limit")
        assert view(http, second["seats"][0]["token"])["table"]["seats"][0][
            "controller"] == "human"
        assert create(bots, "10.0.0.2").status_code == 201
        full = create(bots, "10.0.0.3")
        assert (full.status_code, full.json()["error"]["code"]) == (503, "bot_table_limit")


def test_only_the_most_recently_opened_finished_tables_stay_in_memory(
        tmp_path: Any, monkeypatch: Any) -> None:
    """Issue 36 item 5: finished tables opened one after another do not all stay in memory
    (every full garbage collection would walk them): beyond ``FINISHED_KEPT`` the least
    recently opened one nobody watches is unloaded, and opening it again loads it again,
    the same."""
    import pendragon.web.manager as manager_module

    monkeypatch.setattr(manager_module, "FINISHED_KEPT", 2)
    with live_server(f"sqlite:///{tmp_path / 't.sqlite3'}") as srv, srv.http() as http:
        tokens = []
        for _ in range(3):
            response = http.post("/api/tables", json={
                "game": "grail-cup", "seats": [{"kind": "bot", "bot": "random"}] * 2})
            token = response.json()["spectator"]["token"]
            wait_until(lambda t=token: view(http, t)["state"]["finished"], "a game ends")
            tokens.append((response.json()["table"], token))
        unload_all(srv)
        first = view(http, tokens[0][1])
        for _table, token in tokens[1:]:
            view(http, token)
        assert tokens[0][0] not in srv.manager.tables
        assert {table for table, _ in tokens[1:]} <= set(srv.manager.tables)
        again = view(http, tokens[0][1])
        assert again["state"] == first["state"] and tokens[0][0] in srv.manager.tables
