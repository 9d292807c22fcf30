"""Game records (issue 31 item 1, "A game record file — our PGN"; docs/records.md).

A record round-trips through ``pendragon play --record``, ``pendragon simulate --records``
and ``pendragon replay`` to the identical final state for each of the three games, every
refusal of a bad record says what is wrong, and the JSON Schema in docs/ agrees with the
records written and with :mod:`pendragon.records`.
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import pendragon
from pendragon.bots import Bot, make_bot
from pendragon.cli.main import main
from pendragon.cli.records_cli import run_replay
from pendragon.core.api import State
from pendragon.records import (
    FIELDS,
    FORMAT,
    FORMAT_VERSION,
    GameRecord,
    RecordError,
    RecordSeat,
    dumps,
    loads,
    read_record,
    record_of,
    replay_record,
    write_record,
)
from pendragon.runner import bot_seed, play_game, random_playout
from pendragon.simulate import SimulationConfig, game_seed, play_paired, simulate

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "docs" / "records.schema.json"
DOC = ROOT / "docs" / "records.md"
#: One table size of each game, small enough for a whole game in a test.
GAMES = [("soc", 3), ("soc-card", 3), ("grail-cup", 3)]


@pytest.fixture(autouse=True)
def _english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


class FirstChoice(Bot):
    """Plays what a person typing ``1`` at every prompt of the terminal plays."""

    def step(self, state: State) -> int:
        return state.legal_actions()[0]


def reference_game(name: str, players: int, seed: int) -> State:
    """The game ``pendragon play NAME --seed SEED --bots random`` plays when seat 0 types 1."""
    game = pendragon.load_game(name, players=players, seed=seed)
    bots: list[Bot] = [FirstChoice()] + [
        make_bot("random", bot_seed(game.seed, s), name) for s in range(1, players)]
    return play_game(game, bots)


def played(name: str, players: int, seed: int) -> tuple[State, GameRecord]:
    final = random_playout(pendragon.load_game(name, players=players, seed=seed), seed)
    seats = [RecordSeat("Ann", None)] + [RecordSeat("random", "random")] * (players - 1)
    return final, record_of(final, seats)


def broken(record: GameRecord, **fields: Any) -> str:
    """The text of ``record`` with JSON fields replaced."""
    data = record.to_json()
    data.update(fields)
    return json.dumps(data)


# ---------------------------------------------------------------------- play, simulate
@pytest.mark.parametrize(("name", "players"), GAMES)
def test_play_record_replays_to_the_game_played(
    name: str, players: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """issue 31 item 1: ``play --record`` writes the finished game; read back and replayed,
    it is the very game played (same serialized state, result and seats)."""
    path = tmp_path / "game.json"
    reference = reference_game(name, players, 11)
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * reference.version))
    code = main(["play", name, "--players", str(players), "--seed", "11", "--bots", "random",
                 "--record", str(path), "--name", "Ann"])
    out = capsys.readouterr().out
    assert code == 0 and f"Wrote the game's record to {path}" in out
    record = read_record(path)
    replayed = replay_record(record)
    assert replayed.final.serialize() == reference.serialize()
    assert replayed.actions == tuple(reference.history())
    assert record.result is not None and list(record.result.returns) == reference.returns()
    assert record.seats[0] == RecordSeat("Ann", None)
    assert all(seat == RecordSeat("random", "random") for seat in record.seats[1:])
    assert record.options["seed"] == 11 and record.options["players"] == players
    assert record.seconds is not None and len(record.seconds) == len(record.actions)
    assert record.date is not None and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ",
                                                    record.date)


def test_play_record_of_a_game_left_midway_is_unfinished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """issue 31 item 1: quitting writes the game so far, with no result; it replays to the
    position the player left."""
    path = tmp_path / "left.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\nq\ny\n"))
    assert main(["play", "soc", "--players", "3", "--seed", "5", "--bots", "random",
                 "--record", str(path)]) == 0
    capsys.readouterr()
    record = read_record(path)
    assert record.result is None and record.actions
    final = replay_record(record).final
    assert not final.is_terminal() and final.version == len(record.actions)
    assert final.current_player() == 0, "left at the player's own decision"


def test_play_refuses_a_record_path_in_no_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "soc", "--record", str(tmp_path / "no" / "x.json")]) == 2
    assert "--record: no directory" in capsys.readouterr().err


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_simulate_records_one_file_a_game_that_replays_to_the_game(
    name: str, players: int, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """issue 31 item 1: ``simulate --records DIR`` writes ``<game>-<seed>.json`` for each
    game, and each replays to the state the simulation reached."""
    records = tmp_path / "records"
    assert main(["simulate", name, "--players", str(players), "--games", "2", "--seed", "3",
                 "--bots", "random", "--records", str(records), "--out",
                 str(tmp_path / "out"), "--no-progress"]) == 0
    capsys.readouterr()
    finals = [row[0] for row in play_paired(
        name, [[lambda seed: make_bot("random", seed, name)]], 2, 3, {"players": players},
        play=play_game)]
    assert sorted(p.name for p in records.iterdir()) == sorted(
        f"{name}-{game_seed(3, i)}.json" for i in range(2))
    for index, final in enumerate(finals):
        record = read_record(records / f"{name}-{game_seed(3, index)}.json")
        assert replay_record(record).final.serialize() == final.serialize()
        assert record.seats == (RecordSeat("random", "random"),) * players


def test_simulate_records_are_the_same_with_workers(tmp_path: Path) -> None:
    """The records of a run do not depend on how many processes played it."""
    texts = []
    for workers in (1, 2):
        folder = tmp_path / str(workers)
        folder.mkdir()
        simulate(SimulationConfig("grail-cup", {"players": 2}, ("random",), games=3, seed=1,
                                  workers=workers, records_dir=str(folder)))
        texts.append({p.name: p.read_text() for p in folder.iterdir()})
    assert len(texts[0]) == 3 and texts[0] == texts[1]


def test_simulate_refuses_records_on_a_ray_cluster(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Records are written where the games are played: not on a cluster's machines."""
    config = SimulationConfig("grail-cup", {"players": 2}, ("random",), games=1,
                              backend="ray", ray_address="ray://elsewhere:10001",
                              records_dir=str(tmp_path))
    with pytest.raises(ValueError, match="Ray cluster"):
        simulate(config)
    assert main(["simulate", "grail-cup", "--records", str(tmp_path), "--backend", "ray",
                 "--ray-address", "ray://elsewhere:10001", "--no-progress"]) == 2
    assert "--records needs the games played on this machine" in capsys.readouterr().err


# ---------------------------------------------------------------------- replay command
def test_replay_prints_the_whole_game_when_not_in_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """``pendragon replay FILE`` with piped input: every action's narration, then the board
    and the result, in the language asked for."""
    final, record = played("grail-cup", 3, 2)
    path = write_record(tmp_path / "g.json", record)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"Action {final.version} of {final.version}" in out
    assert re.search(r"^1\. ", out, re.M) and "Seat 1 (random)" in out
    assert "Result: Ann " in out
    assert main(["replay", str(path), "--lang", "cs", "--to", "3"]) == 0
    czech = capsys.readouterr().out
    assert f"Akce 3 z {final.version}" in czech and "4. " not in czech


def test_replay_steps_back_and_jumps(tmp_path: Path) -> None:
    """Enter the next action, b back, a number to that action, anything else a message,
    q leaves; ``--seat`` shows what that seat saw."""
    _, record = played("soc-card", 3, 4)
    path = write_record(tmp_path / "c.json", record)
    answers = iter(["", "", "b", "7", "zz", "q"])
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    console = Console(file=io.StringIO(), width=100, color_system=None)
    assert run_replay(str(path), 1, None, "en", console, read) == 0
    out = console.file.getvalue()  # type: ignore[attr-defined]
    total = len(record.actions)
    steps = re.findall(r"Action (\d+) of " + str(total), out)
    assert steps == ["0", "1", "2", "1", "7", "7"]
    assert "'zz' is not a command" in out
    assert len(prompts) == 6 and prompts[0].startswith("Enter: next")


def test_replay_refuses_a_bad_record_with_its_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "pendragon-record", "format_version": 1, "game"')
    assert main(["replay", str(path)]) == 2
    assert "pendragon: error: not a record: broken JSON" in capsys.readouterr().err


# ---------------------------------------------------------------------- refusals
#: Shadows over Camelot's rules version today (a record of the next is refused).
SOC_RULES = pendragon.load_game("soc", players=3).rules_version


@pytest.fixture(scope="module")
def good() -> GameRecord:
    return played("soc", 3, 9)[1]


@pytest.mark.parametrize(("mutate", "message"), [
    (lambda text, rec: text[: len(text) // 2], "not a record: broken JSON"),
    (lambda text, rec: "[1, 2]", "not a JSON object"),
    (lambda text, rec: broken(rec, format="chess-pgn"), "not a pendragon game record"),
    (lambda text, rec: broken(rec, format_version=3), "format version 3, newer than"),
    (lambda text, rec: broken(rec, format_version="1"), "format_version must be"),
    (lambda text, rec: broken(rec, game="chess"), "unknown game 'chess'"),
    (lambda text, rec: broken(rec, options={**rec.options, "players": 99}),
     "bad option: option 'players' must be between"),
    (lambda text, rec: broken(rec, options={**rec.options, "players": "3"}),
     "bad option: 'players' is stored as '3'"),
    (lambda text, rec: broken(rec, options={**rec.options, "colour": "red"}),
     "bad option: unknown option 'colour'"),
    (lambda text, rec: broken(rec, actions=[*rec.actions[:5], "fly-to-the-moon"]),
     "action 5 ('fly-to-the-moon')"),
    (lambda text, rec: broken(rec, actions=[rec.actions[1], *rec.actions[1:]]),
     "action 1 ("),
    (lambda text, rec: broken(rec, actions=[*rec.actions, rec.actions[-1]]),
     "the game is over"),
    (lambda text, rec: broken(rec, result={"returns": [1.0, 1.0, 1.0], "end_reason": "grail"}),
     "the stored result +1/+1/+1 (grail) is not the game's"),
    (lambda text, rec: broken(rec, actions=list(rec.actions[:20])),
     "gives a result, but its actions do not end the game"),
    (lambda text, rec: broken(rec, result=None), "says the game is unfinished"),
    (lambda text, rec: broken(rec, seats=[{"name": "Ann", "bot": None}]),
     "names 1 seats; the game has 3"),
    (lambda text, rec: broken(rec, seats=[{"name": "Ann"}] * 3), "seats[0] must be"),
    (lambda text, rec: broken(rec, seconds=[1.0]), "seconds has 1 entries"),
    (lambda text, rec: broken(rec, seconds=[-1.0] * len(rec.actions)), "not be negative"),
    (lambda text, rec: broken(rec, seconds=None) .replace("null}", "NaN}"),
     "NaN is not a JSON number"),
    (lambda text, rec: broken(rec, extra=1), "unknown field(s) 'extra'"),
    (lambda text, rec: json.dumps({k: v for k, v in rec.to_json().items() if k != "actions"}),
     "the record has no actions"),
    (lambda text, rec: broken(rec, actions=["x" * 201]), "actions[0] must be text"),
    (lambda text, rec: broken(rec, rules_version=rec.rules_version + 1),  # type: ignore[operator]
     f"played under version {SOC_RULES + 1} of soc's rules; this pendragon plays version "
     f"{SOC_RULES}"),
    (lambda text, rec: broken(rec, rules_version="1"), "rules_version must be a whole number"),
    (lambda text, rec: json.dumps({k: v for k, v in rec.to_json().items()
                                   if k != "rules_version"}), "the record has no rules_version"),
    (lambda text, rec: broken(rec, format_version=1), "format version 1 has no rules_version"),
])
def test_a_bad_record_is_refused_with_its_reason(good: GameRecord, mutate: Any,
                                                 message: str) -> None:
    """issue 31 item 1: every refusal says what is wrong (and nothing is half-read)."""
    text = mutate(dumps(good), good)
    with pytest.raises(RecordError) as refused:
        loads(text)
    assert message in str(refused.value)
    assert isinstance(refused.value, pendragon.PendragonError)


def test_a_record_too_large_is_refused_before_it_is_read(
    good: GameRecord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_record(tmp_path / "big.json", good)
    monkeypatch.setattr("pendragon.records.MAX_RECORD_BYTES", path.stat().st_size - 1)
    with pytest.raises(RecordError, match="a record is at most"):
        read_record(path)
    with pytest.raises(RecordError, match="a record is at most"):
        loads(dumps(good))


def test_a_record_longer_than_the_game_can_be_is_refused(good: GameRecord) -> None:
    """Issue 40 item 6: past the hard cap (``length_cap``, not the research bound)."""
    limit = pendragon.load_game("soc", players=3).length_cap()
    with pytest.raises(RecordError, match=f"more than a game of soc can have \\({limit}\\)"):
        replay_record(replace(good, actions=("join",) * (limit + 1)))


def test_a_record_naming_a_local_file_is_refused(tmp_path: Path) -> None:
    """Grail Cup's ``track_file`` names a file on the machine that wrote the record: a
    record from anyone must not make pendragon read it (unless the reader says so)."""
    final, record = played("grail-cup", 2, 1)
    track = pendragon.game_class("grail-cup")
    assert any(not spec.remote for spec in track.option_specs)
    local = tmp_path / "not-a-track.txt"
    local.write_text("not a track\n")
    foreign = broken(record, options={**record.options, "track_file": str(local)})
    with pytest.raises(RecordError, match="'track_file' names something on the machine"):
        loads(foreign)
    # With the reader's consent the option reaches the game (which refuses that file).
    with pytest.raises(RecordError, match="bad option"):
        loads(foreign, local_options=True)


def test_a_record_without_its_seed_replays_the_same_game() -> None:
    """A withheld seed (a web table's) changes nothing replayed: the actions carry every
    chance outcome."""
    final, _ = played("soc-card", 4, 6)
    withheld = record_of(final, [RecordSeat(f"P{s}", None) for s in range(4)],
                         withhold_seed=True)
    assert withheld.options["seed"] is None and '"seed": null' in dumps(withheld)
    replayed = replay_record(loads(dumps(withheld))).final
    assert replayed.history() == final.history()
    assert [replayed.observation(s) for s in (None, 0, 1, 2, 3)] == [
        final.observation(s) for s in (None, 0, 1, 2, 3)]


def test_a_soc_table_operation_is_recorded_and_replayed() -> None:
    """A player who joins mid-game (VAR-JOIN) is an action of the record like any other;
    the record names the newcomer's seat too."""
    state = pendragon.load_game("soc", players=3, seed=2).new_initial_state()
    while state.version < 60 or not state.can_join():  # type: ignore[attr-defined]
        state.apply_action(state.sample_chance() if state.is_chance_node()
                           else state.legal_actions()[0])
    state.join()  # type: ignore[attr-defined]
    seats = [RecordSeat(f"P{s}", None) for s in range(4)]
    record = record_of(state, seats)
    assert "join" in record.actions
    assert replay_record(loads(dumps(record))).final.serialize() == state.serialize()


def test_a_record_names_the_rules_it_was_played_under(good: GameRecord) -> None:
    """A record carries its game's rules version (format 2), so one played under other
    rules is refused by name; a record of format 1, from before the field, names none and
    is replayed as it stands (its result still checked)."""
    assert good.rules_version == pendragon.load_game("soc", players=3).rules_version >= 1
    assert good.format_version == FORMAT_VERSION == 2
    assert loads(dumps(good)).rules_version == good.rules_version
    older = {k: v for k, v in good.to_json().items() if k != "rules_version"}
    again = loads(json.dumps({**older, "format_version": 1}))
    assert (again.rules_version, again.format_version, again.actions) == (None, 1, good.actions)
    assert "rules_version" not in again.to_json()


# ---------------------------------------------------------------------- the schema
def test_the_schema_and_the_module_name_the_same_fields() -> None:
    """docs/records.schema.json and pendragon.records agree: the same fields, the same
    required ones, the same format name and version."""
    schema = json.loads(SCHEMA.read_text())
    assert tuple(schema["properties"]) == FIELDS
    assert set(schema["required"]) == set(FIELDS) - {"seconds", "date", "rules_version"}
    assert schema["else"]["required"] == ["rules_version"]  # (format 2)
    assert schema["properties"]["format"]["const"] == FORMAT
    assert schema["properties"]["format_version"]["enum"] == list(range(1, FORMAT_VERSION + 1))
    assert schema["additionalProperties"] is False
    seat = schema["$defs"]["seat"]
    assert set(seat["required"]) == set(seat["properties"]) == {"name", "bot"}


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_real_records_validate_against_the_schema(name: str, players: int) -> None:
    """issue 31 item 1: records of every game, finished and not, are valid by the schema,
    and the schema refuses what the reader refuses for its type."""
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    final, record = played(name, players, 5)
    unfinished = record_of(final.game.new_initial_state(), record.seats, seconds=[],
                           date="2026-11-26T12:00:00Z")
    for each in (record, unfinished):
        validator.validate(json.loads(dumps(each)))
    for bad in ({"format_version": 3}, {"rules_version": 0}, {"format_version": 1},
                {"actions": [3]}, {"seats": []}, {"extra": 1},
                {"result": {"returns": [1]}}, {"options": {"players": [3]}}):
        data = {**record.to_json(), **bad}
        assert not validator.is_valid(data), bad


def test_the_documented_example_is_a_valid_record() -> None:
    """The example in docs/records.md is read (and replayed) as any record is."""
    text = DOC.read_text()
    example = re.search(r"```json\n(\{\n \"format\".*?)```", text, re.S)
    assert example is not None
    record = loads(example.group(1))
    assert record.result is None and record.game in text
    for field in FIELDS:
        assert f"`{field}`" in text, f"docs/records.md documents {field}"
