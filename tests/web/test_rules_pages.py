"""The rules pages the table links to (issue 39, item 12): each game's players' page (how to
play) in English, Russian, Polish and Czech, in the table's own words; served from the
installed package (``pendragon/web/rules``, the project's ``docs/rules``), not from a source
tree; only a registered game's page, chosen by name from a fixed folder, with a fixed 404 for
anything else (a remote client is hostile)."""

from __future__ import annotations

import fnmatch
import re
import tomllib
from collections.abc import Iterator
from html import escape
from importlib import resources
from pathlib import Path

import pytest

import pendragon
from pendragon.i18n import LANGUAGES, catalog
from pendragon.web import routes_site
from tests.web.support import FAST, LiveServer, live_server

ROOT = Path(__file__).resolve().parents[2]
#: The three games shipped with the project.
GAMES = ("soc", "soc-card", "grail-cup")
PLAY = ROOT / "docs" / "rules" / "play"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    url = f"sqlite:///{tmp_path_factory.mktemp('rules') / 'tables.sqlite3'}"
    with live_server(url, FAST) as running:
        yield running


def _page(game: str, language: str) -> str:
    return (PLAY / f"{game}.{language}.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_game_has_a_players_page_in_every_language(game: str, language: str) -> None:
    """Issue 39, item 12: a players' rules page per game and language, titled with the game's
    name as the table writes it, with the parts a player needs, and a link back to the
    reference (which links to it)."""
    text = _page(game, language)
    name = catalog(language).text(f"game.{game}")
    assert text.startswith(f"# {name} — "), text[:80]
    assert len(re.findall(r"^## ", text, re.M)) >= 5
    assert f"[{game}.md](../{game}.md)" in text
    reference = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    assert f"(play/{game}.{language}.md)" in reference


def _terms(language: str, keys: list[str]) -> list[str]:
    words = catalog(language)
    return [words.text(key) for key in keys]


#: The table's words each page must use, as the catalogue has them (issue 39, item 12: the
#: table and the rules page say the same thing): the lobby's options, the cards, the allies.
TABLE_WORDS = {
    "soc": ["opt.soc.share", "opt.soc.squires", "opt.soc.squires_hard",
            "opt.soc.traitor_in_our_midst", "opt.soc.no_traitor",
            "opt.soc.three_brave_knights", "opt.soc.played_black",
            "opt.soc.expansion.merlins-company", "soc.relic.excalibur"],
    "soc-card": ["opt.soc-card.knights_relief", "opt.soc-card.promos",
                 *(f"soc-card.quest.{q}" for q in
                   ("picts", "saxons", "dragon", "excalibur", "grail")),
                 "soc-card.card.mordred", "soc-card.card.vivien"],
    "grail-cup": [*(f"grail-cup.ally.{a}" for a in
                    ("sorceress", "squire", "merlin", "blacksmith", "dragon-tamer", "princess",
                     "priest", "fairy", "unicorn")),
                  *(f"grail-cup.clover.{c}" for c in
                    ("boots", "goblin", "dragon-bait", "fake-grail", "magnet"))],
}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_players_page_uses_the_tables_words(game: str, language: str) -> None:
    """Issue 39, item 12: the page names the options, cards and allies with the words the
    table shows in that language (the catalogue's, from the seeds)."""
    text = _page(game, language).lower()
    for term in _terms(language, TABLE_WORDS[game]):
        assert term.lower() in text, (game, language, term)


#: WORDS-1 (docs/rules/glossary.md): each game's word for a quest, on its pages too.
QUEST_WORD = {("soc", "ru"): ("задани", "поход"), ("soc-card", "ru"): ("поход", "задани"),
              ("soc", "cs"): ("úkol", "výprav"), ("soc-card", "cs"): ("výprav", "úkol"),
              ("soc", "pl"): ("wypraw", "zadani"), ("soc-card", "pl"): ("wypraw", "zadani")}


@pytest.mark.parametrize(("game", "language"), sorted(QUEST_WORD))
def test_a_players_page_says_quest_with_its_games_word(game: str, language: str) -> None:
    """Issue 39, item 13 and WORDS-1: the pages keep each game's own word for a quest."""
    text = _page(game, language).lower()
    word, other = QUEST_WORD[(game, language)]
    assert word in text and other not in text, (word, other)


def test_the_pages_are_package_data_found_through_importlib_resources() -> None:
    """Issue 39, item 12: the server reads the pages through the package
    (``pendragon.web``'s ``rules``), which the wheel carries (``package-data``), not through
    a ``docs/`` beside the source tree."""
    package = Path(str(resources.files("pendragon.web")))
    assert package / "rules" == routes_site.RULES_DIR
    found = routes_site.play_page_path("soc", "ru")
    assert found is not None and found[1] == "ru"
    assert found[0].parent.parent == package / "rules"
    assert found[0].read_text(encoding="utf-8") == _page("soc", "ru")
    # Every page is matched by the package-data globs, so the wheel has it.
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]["pendragon"]
    for path in [*PLAY.glob("*.md"), *(ROOT / "docs" / "rules").glob("*.md")]:
        inside = "web/rules/" + path.relative_to(ROOT / "docs" / "rules").as_posix()
        assert any(fnmatch.fnmatch(inside, glob) for glob in globs), inside


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_route_serves_the_page_in_the_pages_language(site: LiveServer,
                                                         language: str) -> None:
    """Issue 39, item 12: ``/rules/<game>?lang=<language>`` is the players' page in that
    language, with a link to the reference, which links back."""
    with site.http() as http:
        for game in GAMES:
            answer = http.get(f"/rules/{game}", params={"lang": language})
            assert answer.status_code == 200
            html = answer.text
            assert f'<html lang="{language}">' in html
            name = catalog(language).text(f"game.{game}")
            assert f"<h1>{name} — " in html
            link = f'href="/rules/{game}/reference?lang={language}" data-testid="rules-other"'
            assert link in html
            assert ".md\"" not in html  # the Markdown's links are the site's addresses
            reference = http.get(f"/rules/{game}/reference", params={"lang": language})
            assert reference.status_code == 200
            assert f'href="/rules/{game}?lang={language}"' in reference.text
            assert escape(catalog(language).text("rules.note")) in reference.text


def test_the_route_falls_back_to_english_and_refuses_anything_else(site: LiveServer) -> None:
    """Issue 39, item 12: an unknown language gets the English page; a name that is not a
    registered game, or that tries to leave the folder, gets one fixed 404 that echoes
    nothing of the request."""
    with site.http() as http:
        english = http.get("/rules/soc", params={"lang": "xx"})
        assert english.status_code == 200 and '<html lang="en">' in english.text
        assert "<h1>Shadows over Camelot — how to play</h1>" in english.text
        answers = []
        for name in ("nothing", "..%2Fsoc", "..%2F..%2Fpyproject.toml", "soc.en.md", "SOC",
                     "play%2Fsoc.en", "soc%00"):
            for suffix in ("", "/reference"):
                answer = http.get(f"/rules/{name}{suffix}", params={"lang": "../../etc"})
                assert answer.status_code == 404, (name, suffix)
                answers.append(answer.json())
        # This route's fixed answer, or the router's own where the path matches no route
        # (an encoded slash may leave it); neither says anything of the request.
        fixed = [{"error": {"code": "not_found", "message": "no such game"}},
                 {"error": {"code": "not_found", "message": "Not Found"}}]
        assert all(answer in fixed for answer in answers), answers
        assert answers[0] == fixed[0]


def test_a_registered_game_without_pages_gets_a_fixed_404(
    site: LiveServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    """A game a plugin registers without rules pages: 404, not an error."""
    monkeypatch.setattr(routes_site, "RULES_DIR", tmp_path)
    routes_site.rules_html.cache_clear()
    routes_site.reference_html.cache_clear()
    try:
        assert routes_site.rules_html("soc", "ru") is None
        with site.http() as http:
            answer = http.get("/rules/soc", params={"lang": "ru"})
            assert answer.status_code == 404
    finally:
        monkeypatch.undo()
        routes_site.rules_html.cache_clear()
        routes_site.reference_html.cache_clear()
    assert "soc" in pendragon.registered_games()

