"""Shadows over Camelot: The Card Game at the terminal and at the web table.

Whole games play in the terminal (``pendragon play soc-card``) at four players and solo,
drawn by the game's own renderer in the reader's language; the drawing shows what the rules
let a seat see and nothing more (SCG-RULING-8: the top card and the pile's size, never the
cards beneath; SCG-MORGAN-1: a face-down card only to its layer; SCG-VIVIEN-1/2: Vivien's
card only to the seat it is handed to). The web table closes its chat while Morgan's
silence holds and says why (SCG-MORGAN-0, SCG-RULING-7), through the generic
``GameAdapter.chat_closed_reason`` hook, which other games leave at ``None``. The browser
tests are in ``tests/web/test_soc_card_e2e.py``; they reuse :func:`play_offline` to pick a
seeded game that reaches the positions they check.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import pendragon
from pendragon.bots import make_bot
from pendragon.core.api import CHANCE
from pendragon.core.plugins import installed_plugins
from pendragon.games.soc_card.rules.cards import CARDS, QUESTS
from pendragon.games.soc_card.rules.fixtures import load_state
from pendragon.games.soc_card.terminal import allowed_quests, render_soc_card
from pendragon.i18n import LANGUAGES, catalog
from pendragon.runner import bot_seed

NAME = "soc-card"
BOARD = Path(pendragon.__file__).resolve().parent / "games" / "soc_card" / "board.js"
#: Seeds tried when looking for a game that reaches a position (games take milliseconds).
SEEDS = range(300)

#: A seat's policy: the text of the action to take, from the legal actions' texts.
Policy = Callable[[Sequence[str]], str]


def first_action(texts: Sequence[str]) -> str:
    """Typing 1 at every prompt: the first legal action (``listen`` whenever possible)."""
    return texts[0]


class ListenMostly:
    """Listen four times in five when it may, else any legal action: draws the rumor deck
    fast, so Morgans (and their silence) come out. Deterministic from its seed; the order of
    the texts does not matter (a page may group its buttons)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def __call__(self, texts: Sequence[str]) -> str:
        ordered = sorted(texts)
        if "listen" in ordered and self.rng.random() < 0.8:
            return "listen"
        return self.rng.choice(ordered)


def play_offline(
    seed: int, players: int, policy: Policy, options: Mapping[str, Any] | None = None
) -> list[dict[str, Any]]:
    """Play the game a terminal or a web table plays from ``seed``: seat 0 by ``policy``,
    every other seat by the random bot seeded as they seed it (``bot_seed``), chance from the
    state's own stream. Returns what seat 0 saw at each of its decisions, then at the end
    (each with ``legal``, its actions' texts)."""
    game = pendragon.load_game(NAME, players=players, seed=seed, **(options or {}))
    state = game.new_initial_state()
    bots = {seat: make_bot("random", bot_seed(seed, seat)) for seat in range(1, players)}
    seen: list[dict[str, Any]] = []
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            action = state.sample_chance()
        elif player == 0:
            texts = [state.action_to_string(a) for a in state.legal_actions()]
            seen.append({**state.observation(0), "legal": texts})
            action = state.string_to_action(policy(texts))
        else:
            action = bots[player].step(state)
        state.apply_action(action)
    seen.append({**state.observation(0), "legal": []})
    return seen


def find_seed(
    players: int, make_policy: Callable[[], Policy],
    wanted: Callable[[list[dict[str, Any]]], bool], options: Mapping[str, Any] | None = None,
) -> int:
    """The first seed whose game (:func:`play_offline`) shows seat 0 what ``wanted`` asks."""
    for seed in SEEDS:
        if wanted(play_offline(seed, players, make_policy(), options)):
            return seed
    raise AssertionError(f"no seed in {SEEDS} gives the wanted game")


def silence_then_talk(views: list[dict[str, Any]]) -> bool:
    """Seat 0 decides once under Morgan's silence, and later once without it."""
    silent = [i for i, v in enumerate(views) if v["legal"] and v["silence"]]
    return bool(silent) and any(v["legal"] and not v["silence"] for v in views[silent[0]:])


def text_of(view: Mapping[str, Any], language: str = "en", width: int = 120) -> str:
    """The terminal's drawing of ``view`` as plain text."""
    console = Console(width=width, color_system=None)
    with console.capture() as capture:
        console.print(render_soc_card(view, catalog(language)))
    return capture.get()


# ---------------------------------------------------------------------- registration
def test_the_plugin_names_its_terminal_adapter_and_board() -> None:
    """The three pieces are registered and found by the terminal and the web table."""
    from pendragon.cli.render import renderer_for
    from pendragon.web.adapters import adapter_for

    plugin = installed_plugins()[NAME]
    assert renderer_for(NAME) is render_soc_card
    assert type(adapter_for(NAME)).__name__ == "SocCardAdapter"
    assert plugin.web_module_path() == BOARD and BOARD.is_file()


# ---------------------------------------------------------------------- terminal games
def _play_in_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], players: int,
    seed: int, language: str = "en",
) -> str:
    from pendragon.cli.main import main

    game = pendragon.load_game(NAME, players=players, seed=seed)
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * game.max_game_length()))
    monkeypatch.setenv("LANGUAGE", language)
    monkeypatch.setenv("COLUMNS", "120")
    code = main(["play", NAME, "--players", str(players), "--seat", "0", "--seed", str(seed),
                 "--bots", "random"])
    out, err = capsys.readouterr()
    assert code == 0, err + out[-3000:]
    assert "Traceback" not in out + err
    return out


def test_a_whole_four_player_game_plays_in_the_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``pendragon play soc-card --players 4``: typing 1 at every prompt finishes the game,
    drawn by the game's renderer: the pile, the quests, the swords, the players, the seat's
    loyalty card, and Morgan's silence when it holds (SCG-MORGAN-0)."""
    seed = find_seed(4, lambda: first_action, silence_then_talk)
    out = _play_in_terminal(monkeypatch, capsys, 4, seed)
    for words in ("Threat pile", "cards in the pile", "Worth 3 swords.", "Swords on the table",
                  "Rumor deck:", "Players", "Your loyalty card",
                  "Morgan's silence: Nobody may talk until a Merlin is revealed"):
        assert words in out, words
    # The game's own drawing, not the generic table of the observation's fields.
    assert "morgans aside" not in out and "last resolution" not in out
    assert re.search(r"(The loyal knights win|Evil wins) - (seven swords|Morgan #7)", out), \
        out[-2000:]
    assert re.search(r"You (won|lost)\.", out)


def test_a_whole_solo_game_plays_in_the_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--players 1``: the solo game has no loyalty card and no one to accuse
    (SCG-SOLO-1), and is drawn to its end."""
    out = _play_in_terminal(monkeypatch, capsys, 1, 5)
    assert "The solo game has no loyalty cards." in out
    assert "Threat pile" in out and "Swords on the table" in out
    assert "Traitor" not in out and "Accuse" not in out
    assert re.search(r"(The loyal knights win|Evil wins) - ", out), out[-2000:]


def test_the_terminal_speaks_the_readers_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """In Russian the whole drawing is Russian: no English board word is left."""
    out = _play_in_terminal(monkeypatch, capsys, 3, 2, language="ru")
    assert "Стопка угроз" in out and "Мечи на столе" in out and "Колода слухов" in out
    for english in ("Threat pile", "Swords on the table", "Rumor deck", "Your loyalty card"):
        assert english not in out


# ---------------------------------------------------------------------- what a seat sees
def test_the_drawing_shows_the_top_card_and_the_count_never_the_cards_beneath() -> None:
    """SCG-LISTEN-1, SCG-RULING-8: only the last revealed card is visible; no total."""
    state = load_state({"players": 3, "pile": ["grail-5", "grail-4", "picts-2"]})
    text = text_of(state.observation(0))
    assert "3 cards in the pile" in text and "Top card: Picts (2)" in text
    assert "Holy Grail (5)" not in text and "Holy Grail (4)" not in text
    # A quest card opens its own quest, and only it (SCG-QUEST-1).
    assert allowed_quests(state.observation(0)) == ["picts"]
    assert re.search(r"Worth 1 sword\.\s+Worth 1 sword", text)


def test_morgan_1s_face_down_card_is_shown_to_its_layer_only() -> None:
    """SCG-MORGAN-1, SCG-RULING-6: everyone sees the announcement (the card's content, a
    lie here); only the layer the card."""
    state = load_state({
        "players": 3, "loyalty": ["loyal", "traitor", "loyal"],
        "pile": ["dragon-3", {"card": "picts-2", "face_down": "grail-4", "by": 1}],
        "in_force": {"morgan-1": True},
    })
    others = [text_of(state.observation(seat)) for seat in (0, 2, None)]
    for text in others:
        assert "Seat 1 announced Holy Grail (4) and laid the card face down." in text
        assert "Picts (2)" not in text and "Your card:" not in text
    layer = text_of(state.observation(1))
    assert "You announced Holy Grail (4)" in layer and "Your card: Picts (2)" in layer
    assert "In force: Morgan #1" in layer
    # The announced quest is the one a player may go on, true or not (SCG-QUEST-1).
    assert allowed_quests(state.observation(0)) == ["grail"]


def test_morgans_silence_is_drawn_while_it_holds() -> None:
    """SCG-MORGAN-0, SCG-RULING-7: the silence is part of the state and shown loudly."""
    silent = load_state({"players": 3, "pile": ["morgan-2"], "in_force": {"silence": True}})
    talking = load_state({"players": 3, "pile": ["merlin-1"]})
    assert "Morgan's silence: Nobody may talk" in text_of(silent.observation(0))
    assert "Morgan's silence" not in text_of(talking.observation(0))
    assert "Молчание Морганы" in text_of(silent.observation(0), "ru")


def test_vivien_hands_a_card_over_and_each_swaps_in_secret() -> None:
    """SCG-VIVIEN-1, SCG-VIVIEN-2, SCG-RULING-9: the drawer names the receiver before any
    card is shown to him; then each sees only his own offered card; the others see only
    who is deciding."""
    state = load_state({"players": 3, "deck": {"vivien": 1, "picts-q": 3}})
    state.apply_text("listen")
    state.apply_text("rumor:vivien")
    drawer, other = text_of(state.observation(0)), text_of(state.observation(2))
    assert "Vivien: hand the other set-aside loyalty card to a player." in drawer
    assert "Vivien's card for you" not in drawer  # nothing seen yet (SCG-RULING-9)
    assert "Vivien: Seat 0 hands the other set-aside loyalty card" in other
    state.apply_text("give:1")
    state.apply_text("vivien-card:traitor")  # the drawer's card, at random (SCG-RULING-9)
    state.apply_text("vivien-card:loyal")  # then the receiver's
    drawer, other = text_of(state.observation(0)), text_of(state.observation(2))
    assert "Vivien: keep your loyalty card or swap it, in secret." in drawer
    assert "Vivien's card for you" in drawer and "Traitor - Keep your loyalty card" in drawer
    assert "Vivien: Seat 0 keeps the loyalty card or swaps it, in secret." in other
    assert "Vivien's card for you" not in other and "Traitor" not in other
    state.apply_text("swap")  # the drawer decides first, in secret
    receiver, drawer = text_of(state.observation(1)), text_of(state.observation(0))
    assert "Vivien: keep your loyalty card or swap it, in secret." in receiver
    assert "Vivien's card for you" in receiver and "Loyal - Keep your loyalty card" in receiver
    assert "Vivien: Seat 1 keeps the loyalty card or swaps it, in secret." in drawer
    assert "Vivien's card for you" not in drawer
    assert re.search(r"Your loyalty card\s+.\s+Traitor", drawer), "the drawer took the traitor"


def test_knights_relief_draws_knight_cards_and_who_holds_how_many() -> None:
    """SCG-EXPERT-3, SCG-RULING-17: a seat sees its own Knight cards; how many lie before
    each player is public, which ones is not."""
    state = load_state({"players": 3, "options": {"knights_relief": True},
                        "knights": {"0": {"tristan": 1}, "1": {"arthur": 2}}})
    mine, theirs = text_of(state.observation(0)), text_of(state.observation(2))
    assert "Your Knight cards" in mine and "Tristan (In your turn, before your action" in mine
    assert "2 Knight cards" in mine and "1 Knight card" in mine
    assert "Arthur" not in mine and "Tristan" not in theirs and "Knight cards: " in theirs


def test_the_end_shows_the_result_and_every_loyalty_card() -> None:
    """SCG-END-2..4: at the end every loyalty card is shown, with the result and swords."""
    views = play_offline(3, 4, first_action)
    end = text_of(views[-1])
    final = views[-1]
    assert final["status"] in ("loyal-win", "evil-win")
    result = "The loyal knights win" if final["status"] == "loyal-win" else "Evil wins"
    assert result in end
    white, black = final["swords"]["white"], final["swords"]["black"]
    assert f"white swords: {white}, black swords: {black}" in end
    for loyalty in final["loyalties"]:
        assert loyalty.capitalize() in end


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_position_of_random_games_draws_in_every_language(language: str) -> None:
    """No observation of seeded random games breaks the drawing (it would fall back to the
    generic table of fields, whose humanized keys would show)."""
    words = catalog(language)
    for players, seed, options in ((1, 1, {}), (4, 2, {"knights_relief": True}),
                                   (7, 3, {"promos": True})):
        state = pendragon.load_game(NAME, players=players, seed=seed, **options) \
            .new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.current_player() >= 0 and rng.random() < 0.3:
                for seat in (state.current_player(), None):
                    text = text_of(state.observation(seat), language)
                    assert "morgans aside" not in text, text
                    assert words.text("soc-card.board.pile") in text
            state.apply_action(state.sample_chance() if state.is_chance_node()
                               else rng.choice(state.legal_actions()))


# ---------------------------------------------------------------------- the web table
def test_the_adapter_closes_the_chat_under_morgans_silence_and_says_why() -> None:
    """SCG-MORGAN-0, SCG-RULING-7: the chat is closed exactly while the silence holds,
    with the game's reason; other games keep the generic hook's answer (no reason)."""
    from pendragon.web.adapters import GameAdapter, adapter_for

    adapter = adapter_for(NAME)
    silent = load_state({"players": 3, "pile": ["morgan-5"], "in_force": {"silence": True}})
    talking = load_state({"players": 3, "pile": ["morgan-5"]})
    assert adapter.chat_open(silent) is False
    reason = adapter.chat_closed_reason(silent)
    assert reason is not None and reason.to_json() == {"k": "soc-card.chat.silence", "p": {}}
    assert adapter.chat_open(talking) is True and adapter.chat_closed_reason(talking) is None
    for language in LANGUAGES:
        assert catalog(language).render(reason).strip()
    # A Merlin's reveal lifts it (SCG-MERLIN-0).
    silent.apply_text("listen")
    silent.apply_text("rumor:merlin-3")
    assert adapter.chat_open(silent) is True
    state = pendragon.load_game("soc", players=3, seed=1).new_initial_state()
    for other in (adapter_for("soc"), GameAdapter("chess")):
        assert other.chat_closed_reason(state) is None and other.chat_open(state)


@pytest.fixture
def seeded_server(tmp_path: Path) -> Iterator[Callable[[int], Any]]:
    """Start a live server whose next tables get the seed given (instant bots)."""
    for module in ("fastapi", "uvicorn", "httpx", "websockets"):
        pytest.importorskip(module, reason="the web table needs the 'web' extras")
    from contextlib import ExitStack

    from pendragon.web.tables import Settings
    from tests.web.support import live_server

    with ExitStack() as stack:
        def start(seed: int) -> Any:
            settings = Settings(bot_delay=0.0, away_after=3600.0, bot_threads=1,
                                seed_source=lambda: seed)
            return stack.enter_context(live_server(f"sqlite:///{tmp_path / 't.sqlite3'}",
                                                   settings))

        yield start


def test_the_table_sends_why_its_chat_is_closed_and_refuses_talk_meanwhile(
    seeded_server: Callable[[int], Any],
) -> None:
    """Over the WebSocket: while the silence holds the state message says ``chat_open``
    false with ``chat_closed_reason`` (the game's event) and a chat line is refused
    (``chat_closed``); once it is lifted the reason is gone and talk is accepted."""
    from tests.web.support import Peer, auth, finished, my_turn

    seed = find_seed(4, lambda: first_action, silence_then_talk)
    server = seeded_server(seed)
    with server.http() as http:
        created = http.post("/api/tables", json={
            "game": NAME, "seats": [{"kind": "human", "name": "Ann"}]
            + [{"kind": "bot", "bot": "random"}] * 3,
        }).json()
    token = created["seats"][0]["token"]
    player = Peer(server.ws_url, token)
    closed: list[dict[str, Any]] = []
    reopened: list[dict[str, Any]] = []
    try:
        state = player.until(lambda m: my_turn(m) or finished(m))
        while not state["finished"]:
            assert state["chat_open"] is not state["observation"]["silence"]
            assert ("chat_closed_reason" in state) is state["observation"]["silence"]
            silent = state["observation"]["silence"]
            if silent:
                assert state["chat_closed_reason"] == {"k": "soc-card.chat.silence", "p": {}}
            # One line under the silence and one after it (the chat allows 5 per 10 s).
            if (silent and not closed) or (not silent and closed and not reopened):
                with server.http() as http:
                    said = http.post("/api/table/chat", json={"text": "Grail!"},
                                     headers=auth(token))
                if silent:
                    assert said.status_code == 409, said.text
                    assert said.json()["error"]["code"] == "chat_closed"
                    closed.append(state)
                else:
                    assert said.status_code == 200, said.text
                    reopened.append(state)
            version = state["version"]
            player.send({"type": "move", "version": version, "action": state["legal"][0]["id"]})

            def answered(message: dict[str, Any], after: int = version) -> bool:
                return (message.get("type") == "state" and message["version"] > after
                        and (my_turn(message) or finished(message)))

            state = player.until(answered)
    finally:
        player.close()
    assert closed and reopened, "the seeded game passes through the silence and out of it"
    assert not any("chat_closed_reason" in m for m in player.received
                   if m.get("type") == "state" and not m["observation"]["silence"])


# ---------------------------------------------------------------------- the board module
def test_the_board_modules_symbols_agree_with_the_rumor_deck() -> None:
    """SCG-QUEST-1, SCG-RULING-4: the page opens the quests the card's symbol opens."""
    source = BOARD.read_text("utf-8")
    match = re.search(r"const SYMBOLS = (\{[^}]*\});", source)
    assert match, "board.js declares SYMBOLS"
    table = dict(re.findall(r'"?([a-z][\w-]*)"?\s*:\s*"(\w+)"', match.group(1)))
    expected = {card.key: card.symbol for card in CARDS
                if not card.is_quest and card.symbol != "none"}
    assert table == expected
    assert re.search(r'const QUESTS = \["picts", "saxons", "dragon", "excalibur", "grail"\]',
                     source) and QUESTS == ("picts", "saxons", "dragon", "excalibur", "grail")


def test_every_key_the_board_module_names_exists_in_every_language() -> None:
    """The literal keys of board.js (and the families it completes at run time) are in
    every catalog; the board words no log line (the page's renderer does)."""
    source = BOARD.read_text("utf-8")
    literal = set(re.findall(r'\b(?:tr|say)\(ctx, "([a-z0-9_.:-]+)"', source))
    literal |= set(re.findall(r'"(soc-card\.board\.[a-z0-9.-]+)"', source))
    families = {f"soc-card.board.decision.{d}" for d in (
        "turn", "announce", "count", "vivien-give", "vivien-keep", "traitor-place", "merlin-4",
        "arthur", "gawain", "gawain-pick", "percival", "merlin-6", "merlin-6-add",
        "traitor-tristan")}
    families |= {f"soc-card.result.{r}" for r in ("loyal-win", "evil-win")}
    families |= {f"soc-card.end.{r}" for r in ("swords", "morgan-7")}
    families |= {f"soc-card.loyalty.{r}.text" for r in ("loyal", "traitor")}
    families |= {f"soc-card.board.{k}" for k in ("deck", "discard", "aside", "knight-deck",
                                                   "white-swords", "black-swords",
                                                   "vivien-give", "vivien-keep")}
    assert len(literal) > 40
    for language in LANGUAGES:
        words = catalog(language)
        missing = sorted(k for k in literal | families if k not in words)
        assert missing == [], (language, missing)
    assert "soc-card.log." not in source and "soc-card.action." not in source
