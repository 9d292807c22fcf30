"""Nobody can overload the server (issue 17, item 4): per-client rate limits (429
``rate_limited`` with ``Retry-After``), a cap on live tables of bots alone, a fair share of
bot thinking with people's tables first, idle tables unloaded and tables of bots alone
resumed only when opened (``docs/web.md``, "Limits")."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from pendragon.web.limits import (
    PRIORITY_BOTS_ONLY,
    PRIORITY_PEOPLE,
    BotScheduler,
    Limits,
    RateLimiter,
    client_address,
)
from pendragon.web.settings import Settings
from tests.web.support import (
    LiveServer,
    Peer,
    auth,
    begin_game,
    is_type,
    live_server,
    state_from,
)

THREE_HUMANS = [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cy")]
THREE_BOTS = [{"kind": "bot", "bot": "random"}] * 3
ONE_HUMAN_TWO_BOTS = [{"kind": "human", "name": "Ann"}, *THREE_BOTS[:2]]


class FakeClock:
    """A clock the test moves by hand (the limiter's refills without waiting)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def settings(bot_delay: float = 0.0, **limits: Any) -> Settings:
    """Instant bots, every limit off except ``limits``."""
    return Settings(bot_delay=bot_delay, away_after=3600.0, bot_threads=1,
                    limits=Limits.off().with_changes(**limits))


@pytest.fixture
def clocked() -> Iterator[Callable[..., tuple[LiveServer, FakeClock]]]:
    """Start a SQLite server with ``limits`` whose rate limiter reads a fake clock."""
    from contextlib import ExitStack

    with ExitStack() as stack:
        def start(tmp: Any, bot_delay: float = 0.0, **limits: Any) -> tuple[LiveServer, FakeClock]:
            srv = stack.enter_context(live_server(f"sqlite:///{tmp / 't.sqlite3'}",
                                                  settings(bot_delay, **limits)))
            clock = FakeClock()
            srv.app.state.limiter.clock = clock
            return srv, clock

        yield start


def error_of(response: httpx.Response) -> dict[str, Any]:
    body: dict[str, Any] = response.json()["error"]
    return body


def create(http: httpx.Client, seats: list[dict[str, Any]],
           address: str | None = None) -> httpx.Response:
    headers = {"X-Forwarded-For": address} if address else {}
    return http.post("/api/tables", json={"game": "soc", "seats": seats}, headers=headers)


def wait_until(predicate: Callable[[], bool], what: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.02)


# ---------------------------------------------------------------------- rate limits
def test_creations_beyond_the_rate_get_429_with_retry_after_and_recover(
    clocked: Callable[..., tuple[LiveServer, FakeClock]], tmp_path: Any,
) -> None:
    """Item 4: a client creating tables faster than ``create_rate`` (after its burst) is
    refused with 429 ``rate_limited`` and ``Retry-After``; once that time has passed it may
    create again."""
    srv, clock = clocked(tmp_path, create_rate=0.5, create_burst=2)
    with srv.http() as http:
        assert create(http, THREE_HUMANS).status_code == 201
        assert create(http, THREE_HUMANS).status_code == 201
        refused = create(http, THREE_HUMANS)
        assert refused.status_code == 429
        assert error_of(refused)["code"] == "rate_limited"
        assert refused.headers["Retry-After"] == "2"  # one token at 0.5 a second
        clock.now += 1.0
        assert create(http, THREE_HUMANS).status_code == 429  # not yet
        clock.now += 1.0
        assert create(http, THREE_HUMANS).status_code == 201


def test_writes_are_limited_per_client_and_a_trusted_header_tells_clients_apart(
    clocked: Callable[..., tuple[LiveServer, FakeClock]], tmp_path: Any,
) -> None:
    """Item 4: the other write endpoints share a per-client bucket; behind a trusted proxy
    each address of its header is a client of its own."""
    srv, clock = clocked(tmp_path, write_rate=1.0, write_burst=2,
                         trusted_proxies=("127.0.0.1",))
    with srv.http() as http:
        token = create(http, THREE_HUMANS).json()["seats"][0]["token"]

        def rename(address: str) -> httpx.Response:
            return http.post("/api/table/name", json={"name": "Ann"},
                             headers={**auth(token), "X-Forwarded-For": address})

        assert rename("10.0.0.1").status_code == 200
        assert rename("10.0.0.1").status_code == 200
        refused = rename("10.0.0.1")
        assert refused.status_code == 429 and error_of(refused)["code"] == "rate_limited"
        assert refused.headers["Retry-After"] == "1"
        assert rename("10.0.0.2").status_code == 200  # another client
        clock.now += 1.0
        assert rename("10.0.0.1").status_code == 200


def test_reads_are_limited_per_client_but_health_and_metrics_never(
    clocked: Callable[..., tuple[LiveServer, FakeClock]], tmp_path: Any,
) -> None:
    """Item 4: each ``GET /api/...`` may read the database (the lobby lists tables from it,
    an unloaded table is loaded), so a client reading faster than ``read_rate`` after its
    burst gets 429 ``rate_limited`` with ``Retry-After``; a monitor's ``/api/health`` and
    ``/api/metrics`` are never refused."""
    srv, clock = clocked(tmp_path, read_rate=0.5, read_burst=2)
    with srv.http() as http:
        assert http.get("/api/lobby").status_code == 200
        assert http.get("/api/games").status_code == 200  # the same bucket
        refused = http.get("/api/lobby")
        assert refused.status_code == 429 and error_of(refused)["code"] == "rate_limited"
        assert refused.headers["Retry-After"] == "2"
        for _ in range(5):
            assert http.get("/api/health").status_code == 200
            assert http.get("/api/metrics").status_code == 404  # off here, never 429
        assert http.get("/").status_code == 200  # pages and static files are not the API
        clock.now += 2.0
        assert http.get("/api/lobby").status_code == 200


def test_an_untrusted_forwarding_header_is_ignored() -> None:
    """Item 4 (and issue 27, item 3): unless the peer is a trusted proxy, anyone could claim
    any address: the peer's address is the client."""
    scope = {"client": ("127.0.0.1", 4000), "headers": [(b"x-forwarded-for", b"10.9.9.9")]}
    assert client_address(scope, Limits()) == "127.0.0.1"
    assert client_address(scope, Limits(trusted_proxies=("10.0.0.0/8",))) == "127.0.0.1"
    assert client_address(scope, Limits(trusted_proxies=("127.0.0.1",))) == "10.9.9.9"
    limiter = RateLimiter(Limits(write_rate=1, write_burst=1), clock=FakeClock())
    limiter.check("write", client_address(scope, Limits()))
    with pytest.raises(Exception, match="try again in 1 s"):
        limiter.check("write", client_address(scope, Limits()))


def test_websocket_connections_and_messages_are_rate_limited(
    clocked: Callable[..., tuple[LiveServer, FakeClock]], tmp_path: Any,
) -> None:
    """Item 4: a connection beyond the rate is told ``rate_limited`` and closed (4429); a
    message beyond the rate gets a ``rate_limited`` error with ``retry_after`` and the
    connection lives on."""
    srv, clock = clocked(tmp_path, connect_rate=1.0, connect_burst=1, message_rate=1.0,
                         message_burst=3)
    with srv.http() as http:
        token = create(http, THREE_HUMANS).json()["seats"][0]["token"]
    peer = Peer(srv.ws_url, token)
    try:
        peer.until(is_type("welcome"))
        refused = Peer(srv.ws_url, None)
        error = refused.recv()
        assert error["type"] == "error" and error["code"] == "rate_limited"
        with pytest.raises(ConnectionClosed) as closed:
            refused.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        for _ in range(5):
            peer.send({"type": "ping"})
        answers = [peer.until(lambda m: m["type"] in ("pong", "error")) for _ in range(5)]
        assert [a["type"] for a in answers] == ["pong"] * 3 + ["error"] * 2
        assert all(a["code"] == "rate_limited" and a["retry_after"] == 1 for a in answers[3:])
        clock.now += 1.0
        peer.send({"type": "ping"})
        assert peer.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
    finally:
        peer.close()


# ---------------------------------------------------------------------- the bot-table cap
def test_the_cap_on_tables_of_bots_alone_refuses_per_client_and_per_server(
    tmp_path: Any,
) -> None:
    """Item 4: a client may keep ``bot_tables_per_client`` live tables of bots alone (429
    ``bot_table_limit`` beyond), the server ``bot_tables`` (503 ``bot_table_limit``); a
    table where a person sits is not capped."""
    limits = settings(bot_delay=30.0, bot_tables=2, bot_tables_per_client=1,
                      trusted_proxies=("127.0.0.1",))
    with live_server(f"sqlite:///{tmp_path / 't.sqlite3'}", limits) as srv, \
            srv.http() as http:
        assert create(http, THREE_BOTS, "10.0.0.1").status_code == 201
        mine = create(http, THREE_BOTS, "10.0.0.1")
        assert mine.status_code == 429 and error_of(mine)["code"] == "bot_table_limit"
        assert create(http, ONE_HUMAN_TWO_BOTS, "10.0.0.1").status_code == 201
        assert create(http, THREE_BOTS, "10.0.0.2").status_code == 201
        full = create(http, THREE_BOTS, "10.0.0.3")
        assert full.status_code == 503 and error_of(full)["code"] == "bot_table_limit"
        bots_alone = [t for t in srv.manager.tables.values() if t.bots_only]
        assert len(bots_alone) == 2  # nothing half-created by the refusals


# ---------------------------------------------------------------------- unloading, resuming
def test_an_idle_table_is_unloaded_and_comes_back_intact(tmp_path: Any) -> None:
    """Item 4: a table nobody watches, opens or moves at for ``idle_unload`` seconds leaves
    memory; opening it again gives the same version and the same view."""
    with live_server(f"sqlite:///{tmp_path / 't.sqlite3'}", settings(idle_unload=0.3)) as srv, \
            srv.http() as http:
        created = create(http, THREE_HUMANS).json()
        tokens = [s["token"] for s in created["seats"]]
        moved = 0
        while moved < 6:
            for token in tokens:
                state = http.get("/api/table", headers=auth(token)).json()["state"]
                if state["legal"]:
                    answer = http.post("/api/table/move", headers=auth(token), json={
                        "version": state["version"], "action": state["legal"][0]["id"]})
                    assert answer.status_code == 200, answer.text
                    moved += 1
        http.post("/api/table/chat", headers=auth(tokens[0]), json={"text": "back soon"})
        before = [http.get("/api/table", headers=auth(t)).json() for t in tokens]
        wait_until(lambda: created["table"] not in srv.manager.tables, "the table unloaded")
        after = [http.get("/api/table", headers=auth(t)).json() for t in tokens]  # reloaded
        for old, new in zip(before, after, strict=True):
            assert new["state"]["version"] == old["state"]["version"] >= 6
            assert new["state"] == old["state"]
            assert new["chat"] == old["chat"]


def test_a_table_whose_turn_timer_runs_is_not_unloaded(tmp_path: Any) -> None:
    """Item 4 and item 10: a person's turn timer running on a table nobody watches is a
    move still to come (a bot plays the turn when it runs out), so the table stays in
    memory with its deadline while a table without a timer, idle as long, is unloaded."""
    timed = dataclasses.replace(settings(idle_unload=0.2), turn_timers=(30,))
    with live_server(f"sqlite:///{tmp_path / 't.sqlite3'}", timed) as srv, \
            srv.http() as http:
        waiting = http.post("/api/tables", json={
            "game": "soc", "seats": THREE_HUMANS, "turn_timer": 30}).json()
        begin_game(http, waiting)
        plain = create(http, THREE_HUMANS).json()
        for table in (waiting, plain):
            token = table["seats"][0]["token"]
            assert http.get("/api/table", headers=auth(token)).status_code == 200
        wait_until(lambda: plain["table"] not in srv.manager.tables, "the idle table unloaded")
        live = srv.manager.tables.get(waiting["table"])
        assert live is not None and live.deadline is not None


def test_tables_of_bots_alone_are_not_resumed_at_restart_but_when_opened(
    database: str,
) -> None:
    """Item 4: after a restart, unfinished tables where only bots sit stay in the database
    until someone opens one (its bots then play on); tables with people resume at once."""
    with live_server(database, settings(bot_delay=30.0)) as first, first.http() as http:
        bots = create(http, THREE_BOTS).json()
        people = create(http, ONE_HUMAN_TWO_BOTS).json()
    with live_server(database, settings(unwatched_grace=30.0)) as second, \
            second.http() as http:
        assert bots["table"] not in second.manager.tables
        assert people["table"] in second.manager.tables
        spectator = bots["spectator"]["token"]
        version = http.get("/api/table", headers=auth(spectator)).json()["state"]["version"]
        assert bots["table"] in second.manager.tables
        wait_until(lambda: http.get("/api/table", headers=auth(spectator)).json()
                   ["state"]["version"] > version, "the opened table's bots play on")


def test_bots_alone_stop_when_nobody_watches_and_play_on_when_opened(tmp_path: Any) -> None:
    """Item 4: a table of bots alone plays only while someone watches or opened it within
    ``unwatched_grace`` seconds; opening it again wakes its bots."""
    with live_server(f"sqlite:///{tmp_path / 't.sqlite3'}",
                     settings(bot_delay=0.01, unwatched_grace=0.3)) as srv, srv.http() as http:
        created = create(http, THREE_BOTS).json()
        table = srv.manager.tables[created["table"]]
        wait_until(lambda: table.bot_task is not None and table.bot_task.done(),
                   "the bots stopped")
        assert not table.finished and not table.bots_may_play()
        paused_at = table.state.version
        spectator = created["spectator"]["token"]
        peer = Peer(srv.ws_url, spectator)
        try:
            peer.until(lambda m: m["type"] == "state" and m["version"] > paused_at)
        finally:
            peer.close()


# ---------------------------------------------------------------------- the fair scheduler
def run_jobs(scheduler: BotScheduler, jobs: list[tuple[str, int, threading.Event | None]],
             before_release: Callable[[], None] | None = None,
             release: threading.Event | None = None) -> None:
    """Queue ``jobs`` (table, priority, an event the job waits for) in order; once all are
    queued, call ``before_release`` and set ``release``."""
    async def main() -> None:
        def work(gate: threading.Event | None) -> Callable[[], tuple[None, float]]:
            def step() -> tuple[None, float]:
                if gate is not None:
                    gate.wait(10)
                return None, 0.0
            return step

        tasks = []
        for key, priority, gate in jobs:
            tasks.append(asyncio.create_task(scheduler.run(key, priority, work(gate))))
            await asyncio.sleep(0.01)  # queued in this order
        if before_release is not None:
            before_release()
        if release is not None:
            release.set()
        await asyncio.gather(*tasks)
        scheduler.shutdown()

    asyncio.run(main())


def test_a_people_table_bot_goes_before_every_waiting_bots_table() -> None:
    """Item 4 (starvation): with one worker busy and six tables of bots alone waiting, the
    bot of a table where a person sits is the next to think."""
    scheduler = BotScheduler(threads=1)
    gate = threading.Event()
    jobs = [("flood-0", PRIORITY_BOTS_ONLY, gate)]
    jobs += [(f"flood-{i}", PRIORITY_BOTS_ONLY, None) for i in range(1, 7)]
    jobs += [("people", PRIORITY_PEOPLE, None)]
    run_jobs(scheduler, jobs, release=gate)
    assert list(scheduler.started) == ["flood-0", "people"] + [f"flood-{i}" for i in range(1, 7)]


def test_tables_of_bots_alone_never_hold_every_worker() -> None:
    """Item 4: with two workers, tables of bots alone use one; the other is free for a
    people's table, which starts while the bots' first move still thinks."""
    scheduler = BotScheduler(threads=2)
    gate = threading.Event()
    seen: list[list[str]] = []
    jobs = [("flood-0", PRIORITY_BOTS_ONLY, gate), ("flood-1", PRIORITY_BOTS_ONLY, None),
            ("people", PRIORITY_PEOPLE, None)]
    run_jobs(scheduler, jobs, before_release=lambda: seen.append(list(scheduler.started)),
             release=gate)
    assert seen == [["flood-0", "people"]]  # flood-1 waited for flood-0's worker
    assert list(scheduler.started) == ["flood-0", "people", "flood-1"]


def test_a_table_over_its_share_waits_and_the_table_that_thought_least_goes_first() -> None:
    """Item 4: a table whose bots thought more than ``cpu_share`` of the window waits until
    old moves leave the window; among waiting tables of bots alone the one that thought
    least lately goes first."""
    clock = FakeClock()
    scheduler = BotScheduler(threads=1, cpu_share=0.5, window=10.0, clock=clock)
    scheduler.record("greedy", 3.0)
    clock.now += 4.0
    scheduler.record("greedy", 3.0)
    assert scheduler.wait_needed("modest") == 0.0
    assert scheduler.wait_needed("greedy") == pytest.approx(6.0)  # the first 3 s leave then
    clock.now += 6.5
    assert scheduler.wait_needed("greedy") == 0.0
    scheduler.record("greedy", 1.0)  # under its share, but it thought more than "modest"
    gate = threading.Event()
    jobs = [("first", PRIORITY_BOTS_ONLY, gate), ("greedy", PRIORITY_BOTS_ONLY, None),
            ("modest", PRIORITY_BOTS_ONLY, None)]
    run_jobs(scheduler, jobs, release=gate)
    assert list(scheduler.started) == ["first", "modest", "greedy"]


def test_limits_are_checked() -> None:
    """Item 4: a negative limit, or a share above the whole clock, is refused by name."""
    with pytest.raises(ValueError, match="create-rate"):
        Limits(create_rate=-1).check()
    with pytest.raises(ValueError, match="bot-cpu-share"):
        Limits(bot_cpu_share=1.5).check()


# ---------------------------------------------------------------------- bot worker processes
def test_an_object_made_while_pickling_is_never_taken_for_a_games_attribute() -> None:
    """Item 4: the sharing pickler names a game's attributes by their objects' ids. A
    compiled game boxes a fixed-length tuple anew at each read (soc's ``loyalty_deck``);
    freed, its id went to the next tuple made, which then travelled as
    ``shared.loyalty_deck`` (a bot holding its game's hooks came back broken)."""
    import io

    import pendragon
    from pendragon.web.limits import _SharedPickler, dumps_sharing, loads_sharing

    game = pendragon.load_game("soc", players=3, seed=5)
    pickler = _SharedPickler(io.BytesIO(), game)
    made = [(object(), k) for k in range(64)]  # (the size of the boxes just read)
    assert not any(id(item) in pickler.held for item in made)
    value = [("search_horizon", k) for k in range(64)]
    assert loads_sharing(dumps_sharing(value, game), game) == value


def test_a_bot_stepped_in_a_worker_continues_exactly_as_one_stepped_here() -> None:
    """Item 4: a bot thinks in a worker process (so it never holds the event loop's
    interpreter lock); sent there with its state and adopted back, it plays the same moves
    as the same bot stepped in place, and its game stays one object with the state's."""
    import pickle

    import pendragon
    from pendragon.bots import make_bot
    from pendragon.web.limits import adopt, dumps_sharing, loads_sharing, step_in_worker

    for name in ("random", "ismcts"):
        state = pendragon.load_game("soc", players=3, seed=5).new_initial_state()
        here, travelling = make_bot(name, 9), make_bot(name, 9)
        for _ in range(25):
            if state.is_terminal():
                break
            if state.current_player() < 0:
                state.apply_action(state.sample_chance())
                continue
            expected = here.step(state)
            (answer, _took), _cpu = step_in_worker(
                pickle.dumps(state.game), dumps_sharing((travelling, state), state.game))
            action, moved = loads_sharing(answer, state.game)
            adopt(travelling, moved)
            assert action == expected, name
            state.apply_action(action)
        horizon = getattr(travelling, "_horizon", None)
        assert horizon is None or horizon[0] is state.game


def test_a_server_with_bot_processes_plays_ismcts_bots(tmp_path: Any) -> None:
    """Item 4: with the default worker processes, ISMCTS bots play a table on."""
    slow_bots = Settings(bot_delay=0.0, away_after=3600.0, bot_threads=1, bot_processes=True,
                         limits=Limits.off())
    with live_server(f"sqlite:///{tmp_path / 't.sqlite3'}", slow_bots) as srv, \
            srv.http() as http:
        assert srv.manager.scheduler.processes
        created = create(http, [{"kind": "bot", "bot": "ismcts"}] * 3).json()
        spectator = created["spectator"]["token"]
        wait_until(lambda: http.get("/api/table", headers=auth(spectator)).json()
                   ["state"]["version"] >= 30, "the bots played", timeout=60)
        assert created["table"] in srv.manager.scheduler.started


def bots_made(seats: Sequence[Any]) -> bool:
    """Whether every seat's bot has been made (at its first move)."""
    return all(seat.bot_player is not None for seat in seats)


def test_a_servers_ismcts_bots_think_within_its_budget(tmp_path: Any) -> None:
    """Item 4 (``--ismcts-budget``): a table's search bots spend at most the server's
    budget of simulated actions on a move, below the game's own (soc's 6,000); a server
    without the bound leaves the game's own."""
    for bound, expected in ((1500, 1500), (0, 6000)):
        with live_server(f"sqlite:///{tmp_path / f'b{bound}.sqlite3'}",
                         settings(ismcts_budget=bound)) as srv, srv.http() as http:
            created = create(http, [{"kind": "bot", "bot": "ismcts"}] * 3).json()
            seats = srv.manager.tables[created["table"]].seats
            wait_until(partial(bots_made, seats), "every seat's bot made", timeout=60)
            assert {getattr(s.bot_player, "budget", None) for s in seats} == {expected}


def test_serve_flags_set_the_limits_and_bad_ones_are_refused(tmp_path: Any,
                                                             capsys: Any) -> None:
    """Item 4: every limit is a ``pendragon serve`` flag; a negative one stops the server
    before it starts, naming the flag."""
    from pendragon.web.server import _LIMIT_FLAGS, build_parser, serve_main

    args = build_parser().parse_args(["--create-rate", "0", "--bot-tables", "7",
                                      "--trusted-header", "X-Real-IP",
                                      "--trusted-proxy", "10.0.0.2", "--trusted-proxy", "::1"])
    assert (args.create_rate, args.bot_tables, args.trusted_header) == (0.0, 7, "X-Real-IP")
    assert args.trusted_proxies == ["10.0.0.2", "::1"]
    assert build_parser().parse_args([]).trusted_proxies == []  # none trusted by default
    assert {name for _flag, name, _kind, _text in _LIMIT_FLAGS} == {
        f for f in Limits.__dataclass_fields__
        if f not in ("trusted_proxies", "trusted_header", "max_clients")}
    database = f"sqlite:///{tmp_path / 't.sqlite3'}"
    assert serve_main(["--database", database, "--bot-cpu-share", "-0.5"]) == 2
    assert "bot-cpu-share must not be negative" in capsys.readouterr().err


def test_a_people_table_over_its_share_is_not_made_to_wait() -> None:
    """Item 4: the share of thinking time holds back tables of bots alone only; a table
    where a person waits for its bot is ordered by its use, never stopped by the clock."""
    clock = FakeClock()
    scheduler = BotScheduler(threads=0, cpu_share=0.5, window=10.0, clock=clock)
    scheduler.record("greedy", 9.0)

    async def main() -> list[str]:
        bots_alone = asyncio.create_task(
            scheduler.run("greedy", PRIORITY_BOTS_ONLY, lambda: (None, 0.0)))
        await asyncio.sleep(0.05)
        assert await scheduler.run("greedy", PRIORITY_PEOPLE, lambda: ("moved", 0.0)) == "moved"
        started = list(scheduler.started)
        bots_alone.cancel()
        return started

    assert asyncio.run(main()) == ["greedy"]  # the people's move; the bots' still waits


def test_a_paused_table_of_bots_no_longer_counts_against_the_cap(tmp_path: Any) -> None:
    """Item 4: once its bots stopped for want of watchers, a table of bots alone costs no
    CPU and leaves the cap: its creator may start another."""
    limits = settings(bot_delay=0.01, bot_tables_per_client=1, unwatched_grace=2.0)
    with live_server(f"sqlite:///{tmp_path / 't.sqlite3'}", limits) as srv, \
            srv.http() as http:
        created = create(http, THREE_BOTS).json()
        refused = create(http, THREE_BOTS)
        assert refused.status_code == 429 and error_of(refused)["code"] == "bot_table_limit"
        table = srv.manager.tables[created["table"]]
        wait_until(lambda: table.bot_task is not None and table.bot_task.done(),
                   "the bots stopped")
        assert create(http, THREE_BOTS).status_code == 201


def test_a_table_is_a_peoples_table_while_a_person_has_it_open(tmp_path: Any) -> None:
    """Item 4: the scheduler hears a table's bots as a people's table's while a person
    has a page open at a seat, and as background otherwise (bots alone, or nobody there)."""
    with live_server(f"sqlite:///{tmp_path / 't.sqlite3'}", settings()) as srv, \
            srv.http() as http:
        asked: list[tuple[str, int]] = []
        run_bot = srv.manager.run_bot

        async def recording(*args: Any, **kwargs: Any) -> tuple[int, float]:
            asked.append((kwargs["table"], kwargs["priority"]))
            return await run_bot(*args, **kwargs)

        srv.manager.run_bot = recording  # type: ignore[method-assign]
        people = create(http, ONE_HUMAN_TWO_BOTS).json()
        token = people["seats"][0]["token"]
        peer = Peer(srv.ws_url, token)
        try:
            peer.until(lambda m: m["type"] == "welcome")
            # Bots asked before the page was open (a setup move right after the table's
            # creation) were rightly background work: count those asked while he watches.
            asked.clear()
            deadline = time.monotonic() + 30
            # The person plays his turns until the bots have had one while he watched.
            while not any(table == people["table"] for table, _ in asked):
                assert time.monotonic() < deadline, "the people's bots never moved"
                state = peer.until(lambda m: m["type"] == "state" and bool(m["legal"]))
                peer.send({"type": "move", "version": state["version"],
                           "action": state["legal"][0]["id"]})
                peer.until(state_from(state["version"] + 1))
            mine = {priority for table, priority in asked if table == people["table"]}
        finally:
            peer.close()
        bots = create(http, THREE_BOTS).json()
        wait_until(lambda: any(table == bots["table"] for table, _ in asked),
                   "the bots' table asked its bots")
        theirs = {priority for table, priority in asked if table == bots["table"]}
        assert mine == {PRIORITY_PEOPLE} and theirs == {PRIORITY_BOTS_ONLY}
