"""The bots: legal choices only, reproducible from their seed, and the bot registry."""

from __future__ import annotations

import pytest

import pendragon
from pendragon import CHANCE, Game, GameOverError
from pendragon.bots import Bot, RandomBot, bot_names, make_bot
from pendragon.runner import GameTooLongError, play_game, random_playout
from tests.toygame import ToyGame


def _games() -> list[Game]:
    games: list[Game] = [ToyGame({"players": 2, "seed": 1}), ToyGame({"players": 3, "seed": 2})]
    return games + [pendragon.load_game("soc", players=p, seed=p) for p in (3, 5, 7)]


class _Recording:
    """Wraps a bot and records (legal actions, choice) at every decision."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.seen: list[tuple[list[int], int]] = []

    def step(self, state: pendragon.State) -> int:
        legal = state.legal_actions()
        choice = self.bot.step(state)
        self.seen.append((legal, choice))
        return choice


@pytest.mark.parametrize("game", _games(), ids=repr)
def test_random_bot_chooses_only_legal_actions(game: Game) -> None:
    """Over whole games, every choice is among the legal actions shown."""
    recorders = [_Recording(RandomBot(seed)) for seed in range(game.num_players())]
    final = play_game(game, recorders)
    assert final.is_terminal()
    decisions = [entry for recorder in recorders for entry in recorder.seen]
    assert decisions
    assert all(choice in legal for legal, choice in decisions)


@pytest.mark.parametrize("game", _games(), ids=repr)
def test_random_bot_is_reproducible_from_its_seed(game: Game) -> None:
    """The same seeds give the same game; other bot seeds give another game."""
    first = random_playout(game, seed=11).history()
    assert random_playout(game, seed=11).history() == first
    others = {tuple(random_playout(game, seed=s).history()) for s in range(12, 20)}
    assert len(others) > 1, "eight bot seeds all produced the same game"


def test_random_bot_is_uniform_enough() -> None:
    """Both of the toy game's two options are chosen, in roughly equal numbers."""
    state = ToyGame({"players": 2, "seed": 4}).new_initial_state()
    state.play_random_chance()
    bot = RandomBot(seed=0)
    picks = [bot.step(state) for _ in range(2000)]
    counts = {a: picks.count(a) for a in state.legal_actions()}
    assert len(counts) == 2 and all(800 < n < 1200 for n in counts.values()), counts


def test_random_bot_same_seed_same_choices() -> None:
    """Two bots with one seed make the same choices on the same states."""
    state = ToyGame({"players": 2, "seed": 4}).new_initial_state()
    state.play_random_chance()
    a, b = RandomBot(seed=9), RandomBot(seed=9)
    assert [a.step(state) for _ in range(50)] == [b.step(state) for _ in range(50)]


def test_random_bot_refuses_a_finished_game() -> None:
    """At a terminal state there is nothing to choose."""
    final = random_playout(ToyGame({"players": 2, "seed": 4}), seed=1)
    with pytest.raises(GameOverError):
        RandomBot(seed=1).step(final)


def test_make_bot() -> None:
    """The registry builds seeded bots and names the known ones on a typo."""
    assert bot_names() == ["heuristic", "ismcts", "random"]
    bot = make_bot("random", seed=5)
    assert isinstance(bot, RandomBot) and isinstance(bot, Bot)
    assert bot.seed == 5
    with pytest.raises(ValueError, match="known bots: heuristic, ismcts, random"):
        make_bot("randon", seed=5)


def test_a_game_may_add_bots_of_its_own() -> None:
    """A plugin's own bots (``GamePlugin.bots``) are known for that game only: soc and the
    card game seat a stealth traitor each, Grail Cup refuses the name and says which names
    it knows."""
    from pendragon.games.soc.traitors import StealthTraitor
    from pendragon.games.soc_card.heuristic import SocCardStealthBot

    assert bot_names("soc") == ["heuristic", "ismcts", "random", "stealth", "talking"]
    assert bot_names("soc-card") == ["heuristic", "ismcts", "random", "stealth"]
    assert bot_names("grail-cup") == bot_names() == ["heuristic", "ismcts", "random"]
    bot = make_bot("stealth", seed=7, game="soc")
    assert isinstance(bot, StealthTraitor) and bot.seed == 7
    card = make_bot("stealth", seed=7, game="soc-card")
    assert isinstance(card, SocCardStealthBot) and card.seed == 7
    with pytest.raises(ValueError, match="unknown bot 'stealth'; known bots"):
        make_bot("stealth", seed=7)
    with pytest.raises(ValueError,
                       match="unknown bot 'stealth' for grail-cup; known bots: heuristic, ismcts"):
        make_bot("stealth", seed=7, game="grail-cup")


def test_a_games_ismcts_is_the_search_measured_best_for_it() -> None:
    """ISSUE-38 (item 4): ``make_bot("ismcts", game=...)`` builds the game's own search
    (``GamePlugin.search``): soc's and Grail Cup's read the learned evaluator at their
    rollouts' horizon with the settings docs/bots.md measured ("Search strength"); the card
    game's, and any search made without a game, are the plain ``ISMCTSBot`` (the card
    game's model search lost)."""
    from pendragon.bots.ismcts import ISMCTSBot

    soc = make_bot("ismcts", 4, "soc")
    assert isinstance(soc, ISMCTSBot) and soc.seed == 4
    assert (soc.evaluator, soc.confidence, soc.min_iterations, soc.iterations, soc.budget) == (
        True, 2.0, 3, 12, 6000)
    grail = make_bot("ismcts", 4, "grail-cup")
    assert isinstance(grail, ISMCTSBot) and (grail.evaluator, grail.rollout_depth) == (True, 10)
    for plain in (make_bot("ismcts", 4, "soc-card"), make_bot("ismcts", 4)):
        assert isinstance(plain, ISMCTSBot)
        assert (plain.evaluator, plain.rollout_depth, plain.iterations) == (False, None, 16)


def test_soc_ismcts_reads_the_model_where_full_rollouts_do_not_fit() -> None:
    """ISSUE-38 (item 4): at the start of a 5-player game whole rollouts cost more than
    soc's search may spend: the same search without the model plays its policy unsearched,
    soc's ``ismcts`` searches with rollouts cut where the model reads them."""
    from pendragon.bots.ismcts import ISMCTSBot

    state = pendragon.load_game("soc", players=5, seed=3).new_initial_state()
    while state.current_player() == CHANCE:
        state.apply_action(state.sample_chance())
    assert len(state.legal_actions()) > 1
    bot = make_bot("ismcts", 1, "soc")
    assert isinstance(bot, ISMCTSBot)
    blind = ISMCTSBot(1, confidence=bot.confidence, min_iterations=bot.min_iterations,
                      iterations=bot.iterations, budget=bot.budget)  # the same, but the model
    assert bot.step(state) in state.legal_actions() and blind.step(state) in state.legal_actions()
    assert blind.last_search is None
    assert bot.last_search is not None
    assert bot.last_search[0] >= bot.min_iterations  # sweeps


def test_a_plugins_own_search_is_its_ismcts(monkeypatch: pytest.MonkeyPatch) -> None:
    """ISSUE-38 (item 4): a plugin's ``search`` factory is what ``ismcts`` makes for its
    game (and only for it): here a search of a single sweep."""
    import pendragon.bots as registry
    from pendragon.core.plugins import GamePlugin

    plugin = GamePlugin(name="shadow", rules="x:y", locale="x:y",
                        search="tests.test_bots:_one_sweep")
    monkeypatch.setattr(registry, "plugin_for", lambda name: plugin)
    bot = registry.make_bot("ismcts", 2, "shadow")
    assert getattr(bot, "iterations", None) == 1 and bot.seed == 2
    assert getattr(registry.make_bot("ismcts", 2), "iterations", None) == 16


def _one_sweep(seed: int | None) -> Bot:
    from pendragon.bots.ismcts import ISMCTSBot

    return ISMCTSBot(seed, iterations=1, min_iterations=1)


def test_a_game_bot_may_not_take_a_generic_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """A plugin naming its own bot ``heuristic`` would hide the generic one: refused."""
    import pendragon.bots as registry
    from pendragon.core.plugins import GamePlugin, PluginError

    plugin = GamePlugin(name="shadow", rules="x:y", locale="x:y",
                        bots={"heuristic": "pendragon.bots.random_bot:RandomBot"})
    monkeypatch.setattr(registry, "plugin_for", lambda name: plugin)
    with pytest.raises(PluginError, match="generic names"):
        registry.bot_names("shadow")


def test_a_bot_that_plays_only_among_bots_must_be_the_games_own() -> None:
    """``GamePlugin.among_bots`` names bots of the game's own (soc's ``talking``, SOC-TURN-3);
    any other name is a plugin error, not a bot silently offered at tables of people."""
    from pendragon.core.plugins import GamePlugin, PluginError

    with pytest.raises(PluginError, match=r"among_bots: \['ghost'\] are none of its own"):
        GamePlugin(name="shadow", rules="x:y", locale="x:y", among_bots=("ghost",))



def test_a_table_offers_the_games_table_bot_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """soc's and the card game's tables seat their stealth traitors by default
    (GamePlugin.table_bot), Grail Cup's its heuristic; a table bot
    that is none of the game's bots is a plugin error, not a silent fallback."""
    import pendragon.bots as registry
    from pendragon.core.plugins import GamePlugin, PluginError

    assert registry.table_bots("soc") == ["stealth", "heuristic", "ismcts", "random"]
    assert registry.table_bots("soc-card") == ["stealth", "heuristic", "ismcts", "random"]
    assert registry.table_bots("grail-cup")[0] == registry.table_bot("grail-cup") == "heuristic"
    assert registry.table_bot("soc-card") == "stealth"
    plugin = GamePlugin(name="shadow", rules="x:y", locale="x:y", table_bot="ghost")
    monkeypatch.setattr(registry, "plugin_for", lambda name: plugin)
    with pytest.raises(PluginError, match="table bot 'ghost'"):
        registry.table_bots("shadow")


def test_play_game_checks_the_number_of_bots() -> None:
    """One bot per seat, no more, no less."""
    game = ToyGame({"players": 3, "seed": 1})
    with pytest.raises(ValueError, match="3 seats need 3 bots"):
        play_game(game, [RandomBot(1), RandomBot(2)])


def test_play_game_reports_events_before_each_action() -> None:
    """on_event sees every action, before it is applied, with the actor."""
    game = ToyGame({"players": 2, "seed": 6})
    events: list[tuple[int, int, int]] = []

    def on_event(state: pendragon.State, player: int, action: int) -> None:
        assert state.current_player() == player and state.is_legal(action)
        events.append((state.version, player, action))

    final = play_game(game, [RandomBot(1), RandomBot(2)], on_event)
    assert [a for _, _, a in events] == final.history()
    assert [v for v, _, _ in events] == list(range(final.version))
    assert any(p == CHANCE for _, p, _ in events) and any(p >= 0 for _, p, _ in events)


def test_play_game_stops_a_runaway_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game longer than its declared hard cap (``length_cap``, issue 40 item 6) is
    reported, not looped forever."""
    game = ToyGame({"players": 2, "seed": 6})
    monkeypatch.setattr(ToyGame, "length_cap", lambda self: 3)
    with pytest.raises(GameTooLongError):
        play_game(game, [RandomBot(1), RandomBot(2)])
