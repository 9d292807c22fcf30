"""Message catalogs in four languages, and the wording of events.

Every word the terminal and the web page show comes from gettext catalogs: the
interface's own (``pendragon/i18n/locale/``) and one per game (the ``locale`` folder its
plugin names). A catalog folder holds the English template ``messages.pot`` and one
``<language>.po`` per translation, in the format translators' tools (Poedit, Weblate,
``msgmerge``) read and write. Each message is keyed by its ``msgctxt`` (``soc.white.fight-5``);
its ``msgid`` is the English text, and a message with ``msgid_plural`` has one form per
plural category of the language (CLDR rules through Babel: Russian, Czech and Polish
need three). A plural message picks its form by its ``count`` parameter.

Placeholders are ``{name}``; the same names must appear in every language. A key ending
in ``.you`` is the message's variant for a reader who is the event's ``seat``; one ending in
``.you-<name>`` is its variant for a reader who is the seat parameter ``<name>`` (the object
of the sentence: "Seat 2 accuses you"), used when the ``.you`` variant does not apply.

>>> english = catalog("en")
>>> from pendragon.core.events import Event, Seat, Term
>>> english.render(Event("soc.log.draw-white", {"seat": Seat(2)}), seat_name=lambda s: f"Seat {s}")
'Seat 2 draws a white card.'
>>> russian = catalog("ru")
>>> [russian.text("core.cards", count=n) for n in (1, 3, 5)]
['1 карта', '3 карты', '5 карт']
>>> [catalog("cs").text("core.cards", count=n) for n in (1, 3, 5)]
['1 karta', '3 karty', '5 karet']
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog as PoCatalog
from babel.messages.pofile import read_po

from pendragon.core.events import Event, Param, Seat, Term

log = logging.getLogger("pendragon.i18n")

LANGUAGES = ("en", "ru", "cs", "pl")
#: The interface's own catalog (lobby, table, terminal, errors).
CORE_LOCALE = Path(__file__).resolve().parent / "locale"
#: Flag of a translation deliberately identical to the English text (a name, "OK").
SAME_FLAG = "same-as-english"
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
#: Plural categories in the order gettext numbers a language's forms.
_CATEGORY_ORDER = ("zero", "one", "two", "few", "many", "other")

#: A message: one text, or a text per CLDR plural category.
Message = str | dict[str, str]
SeatNamer = Callable[[int], str]


class CatalogError(ValueError):
    """A catalog file is missing, unreadable or inconsistent."""


class MissingMessageError(KeyError):
    """An event needs a key the catalog does not have."""


def placeholders(text: str) -> set[str]:
    """The ``{names}`` used in ``text``.

    >>> sorted(placeholders("{seat} gives {card} to {to}"))
    ['card', 'seat', 'to']
    """
    return set(_PLACEHOLDER.findall(text))


def plural_category(language: str, count: int) -> str:
    """The CLDR plural category of ``count`` in ``language``.

    >>> [plural_category("pl", n) for n in (1, 2, 5, 22, 25)]
    ['one', 'few', 'many', 'few', 'many']
    """
    return str(_locale(language).plural_form(abs(count)))


@cache
def _locale(language: str) -> Locale:
    return Locale.parse(language)


def gettext_categories(language: str, plural_forms: str) -> tuple[str, ...]:
    """The CLDR category of each gettext form index given a ``Plural-Forms`` header.

    Found by evaluating the header's expression and CLDR's rule on 0..1000 and checking
    that each form index stands for exactly one category; ``CatalogError`` when the header
    disagrees with CLDR.

    >>> gettext_categories("ru", "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : "
    ...     "n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);")
    ('one', 'few', 'many')
    """
    import gettext

    match = re.search(r"nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*(.+?);?\s*$", plural_forms)
    if match is None:
        raise CatalogError(f"{language}: unreadable Plural-Forms header {plural_forms!r}")
    count = int(match.group(1))
    choose = gettext.c2py(match.group(2))
    seen: dict[int, set[str]] = {index: set() for index in range(count)}
    for n in range(1001):
        index = choose(n)
        if index not in seen:
            raise CatalogError(f"{language}: Plural-Forms gives form {index} of {count}")
        seen[index].add(plural_category(language, n))
    categories = []
    for index in range(count):
        if len(seen[index]) != 1:
            raise CatalogError(
                f"{language}: plural form {index} stands for {sorted(seen[index])} in CLDR"
            )
        categories.append(seen[index].pop())
    return tuple(categories)


@dataclass(frozen=True, slots=True)
class Entry:
    """One message as read from a file, for the completeness checks."""

    key: str
    english: Message
    text: Message
    same_as_english: bool
    source: str


def _read(path: Path) -> PoCatalog:
    try:
        with open(path, "rb") as handle:
            return read_po(handle, locale=None, abort_invalid=True)
    except OSError as error:
        raise CatalogError(f"cannot read {path}: {error}") from error
    except Exception as error:  # Babel raises PoFileError and friends
        raise CatalogError(f"{path} is not a valid .po file: {error}") from error


def _entries(folder: Path, language: str) -> Iterator[Entry]:
    template = _read(folder / "messages.pot")
    english: dict[str, Message] = {}
    for message in template:
        if not message.id or message.context is None:
            continue
        if isinstance(message.id, tuple | list):
            english[message.context] = {"one": message.id[0], "other": message.id[1]}
        else:
            english[message.context] = str(message.id)
    if language == "en":
        for key, text in english.items():
            yield Entry(key, text, text, True, str(folder / "messages.pot"))
        return
    path = folder / f"{language}.po"
    po = _read(path)
    header = po.plural_forms or ""
    categories = gettext_categories(language, header)
    for message in po:
        if not message.id or message.context is None:
            continue
        key = message.context
        if key not in english:
            yield Entry(key, "", "", False, str(path))
            continue
        translated: Message
        if isinstance(message.string, tuple | list):
            # A missing or empty form is left out, for the completeness check to report.
            translated = {
                categories[i]: form
                for i, form in enumerate(message.string)
                if i < len(categories) and form
            }
        else:
            translated = str(message.string or "")
        yield Entry(key, english[key], translated, SAME_FLAG in message.flags, str(path))


def _folders() -> list[Path]:
    from pendragon.core.plugins import installed_plugins

    folders = [CORE_LOCALE]
    folders += [plugin.locale_path() for plugin in installed_plugins().values()]
    return folders


class Catalog:
    """The messages of one language: the interface's and every installed game's."""

    def __init__(
        self, language: str, entries: Iterable[Entry], unreadable: Iterable[str] = ()
    ) -> None:
        self.language = language
        #: Catalog files that could not be read (a half-installed game): reported by
        #: :func:`problems`, while every other game's messages still work.
        self.unreadable = list(unreadable)
        self.entries: dict[str, Entry] = {}
        self.messages: dict[str, Message] = {}
        for entry in entries:
            self.entries[entry.key] = entry
            if entry.text:
                self.messages[entry.key] = entry.text

    def __contains__(self, key: object) -> bool:
        return key in self.messages

    def message(self, key: str) -> Message:
        """The message of ``key``; :class:`MissingMessageError` if there is none."""
        try:
            return self.messages[key]
        except KeyError:
            raise MissingMessageError(
                f"no message {key!r} in the {self.language} catalog"
            ) from None

    def text(self, key: str, **params: str | int) -> str:
        """The message of ``key`` with its ``{placeholders}`` filled from ``params``."""
        message = self.message(key)
        if isinstance(message, dict):
            count = params.get("count")
            if not isinstance(count, int):
                raise MissingMessageError(f"{key} is a plural message and needs a count")
            category = plural_category(self.language, count)
            if category not in message:
                raise MissingMessageError(
                    f"{key} has no {category!r} plural form in the {self.language} catalog"
                )
            message = message[category]
        return _fill(message, params)

    def render(
        self, event: Event, seat_name: SeatNamer | None = None, viewer: int | None = None
    ) -> str:
        """``event`` in words; ``seat_name`` words a seat, ``viewer`` picks ``.you`` forms."""
        namer = seat_name or (lambda seat: self.text("core.seat", n=seat))
        key = self.variant(event, viewer)
        params = {
            name: self._param(value, namer, viewer) for name, value in event.params.items()
        }
        if self.language == "en":
            # A title named mid-sentence loses its capital article: "Go to the Black
            # Knight", not "Go to The Black Knight" (issue 39, item 13; the page's
            # renderEvent does the same); after a colon or a full stop it keeps it.
            message = self.message(key)
            template = message if isinstance(message, str) else next(iter(message.values()))
            for name, value in event.params.items():
                text = params[name]
                at = template.find("{" + name + "}")
                if (isinstance(value, Term) and isinstance(text, str) and text.startswith("The ")
                        and at > 0 and template[:at].rstrip()[-1:] not in (":", ".", "!", "?")):
                    params[name] = "the " + text[4:]
        return self.text(key, **params)

    def variant(self, event: Event, viewer: int | None) -> str:
        """The key ``event`` is worded with for ``viewer``: its ``.you-self`` variant when the
        reader is its ``seat`` and another of its seat parameters too, its ``.you`` variant
        when the reader is its ``seat``, else its ``.you-<name>`` variant when the reader is
        the seat parameter ``<name>``, else its own key (each only if the catalog has it).

        >>> from pendragon.core.events import Event, Seat
        >>> accused = Event("soc-card.log.accuse", {"seat": Seat(1), "target": Seat(2),
        ...                                        "loyalty": Term("soc-card.loyalty.loyal")})
        >>> english = catalog("en")
        >>> english.variant(accused, 1), english.variant(accused, 2), english.variant(accused, 0)
        ('soc-card.log.accuse.you', 'soc-card.log.accuse.you-target', 'soc-card.log.accuse')
        """
        if viewer is None:
            return event.key
        mine = [name for name, value in event.params.items()
                if isinstance(value, Seat) and value.index == viewer]
        if "seat" in mine and len(mine) > 1 and f"{event.key}.you-self" in self:
            # The reader is the subject and the object ("You name yourself", not "you").
            return f"{event.key}.you-self"
        if "seat" in mine and f"{event.key}.you" in self:
            return f"{event.key}.you"
        for name in mine:
            if name != "seat" and f"{event.key}.you-{name}" in self:
                return f"{event.key}.you-{name}"
        return event.key

    def _param(self, value: Param, namer: SeatNamer, viewer: int | None) -> str | int:
        if isinstance(value, Seat):
            return namer(value.index)
        if isinstance(value, Term):
            return self.text(value.key)
        if isinstance(value, Event):
            return self.render(value, namer, viewer)
        return value

    def for_page(self) -> dict[str, Message]:
        """Every message for the web page (plural forms keyed by CLDR category)."""
        return dict(self.messages)


def _fill(text: str, params: Mapping[str, str | int]) -> str:
    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        return str(params[name]) if name in params else match.group(0)

    return _PLACEHOLDER.sub(replace, text)


@cache
def catalog(language: str) -> Catalog:
    """The catalog of ``language`` (the interface's messages and every installed game's)."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; known: {', '.join(LANGUAGES)}")
    entries: list[Entry] = []
    unreadable: list[str] = []
    for index, folder in enumerate(_folders()):
        try:
            entries.extend(list(_entries(folder, language)))
        except CatalogError as error:
            if index == 0:
                raise  # the interface's own catalog: nothing can be worded without it
            log.warning("catalog skipped: %s", error)
            unreadable.append(str(error))
    return Catalog(language, entries, unreadable)


class GameWords:
    """One game's words for one reader, as a board drawing (the terminal's) needs them: the
    game's messages by their key under the game's name, seats named as the terminal's
    narration names them ("you" for the reader), and events in the reader's form (their
    ``.you`` variants). ``view`` is the observation being drawn, for the drawing's own
    helpers; these words never read it.

    >>> words = GameWords(catalog("en"), "grail-cup", me=1)
    >>> words("board.none"), words.term("ally", "fairy")
    ('none', 'Fairy')
    >>> words.terms("ally", ["fairy", "merlin"]), words.terms("ally", [])
    ('Fairy, Merlin', 'none')
    >>> words.seat(1), words.seat(2)
    ('you', 'Seat 2')
    >>> words.event("log.acts", seat=Seat(1)), words.event("log.acts", seat=Seat(2))
    ('You act.', 'Seat 2 acts.')
    >>> GameWords(catalog("ru"), "grail-cup").seat(1)
    'Место 1'
    """

    __slots__ = ("catalog", "game", "me", "view")

    def __init__(self, catalog: Catalog, game: str, me: int | None = None,
                 view: Mapping[str, Any] | None = None) -> None:
        self.catalog = catalog
        #: The game's name, the first part of its message keys (``grail-cup``).
        self.game = game
        #: The reader's seat (``None``: a spectator).
        self.me = me
        self.view: Mapping[str, Any] = view if view is not None else {}

    def __call__(self, key: str, **params: str | int) -> str:
        """The game's message ``<game>.<key>`` with ``params`` filled in."""
        return self.catalog.text(f"{self.game}.{key}", **params)

    def seat(self, seat: int) -> str:
        """"you" for the reader, else "Seat N"."""
        if seat == self.me:
            return self.catalog.text("term.seat.you")
        return self.catalog.text("core.seat", n=seat)

    def event(self, key: str, **params: Param) -> str:
        """The game's event ``<game>.<key>`` in words: seats named by :meth:`seat`, in its
        ``.you`` form when the reader is its seat (as the game's log words it)."""
        return self.catalog.render(Event(f"{self.game}.{key}", params), self.seat, self.me)

    def term(self, family: str, key: str) -> str:
        """The name of ``key`` in ``family`` (a card, an ally, a quest): the message
        ``<game>.<family>.<key>``."""
        return self(f"{family}.{key}")

    def terms(self, family: str, keys: Iterable[str]) -> str:
        """The names of ``keys`` in ``family``, by commas; the game's ``board.none`` if none."""
        names = [self.term(family, key) for key in keys]
        return ", ".join(names) if names else self("board.none")


def default_language() -> str:
    """The language of the user's locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``)
    if it is one of :data:`LANGUAGES`, else English.

    >>> default_language() in LANGUAGES
    True
    """
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable, "")
        for part in value.split(":"):
            code = part[:2].lower()
            if code in LANGUAGES:
                return code
    return "en"


@dataclass(slots=True)
class Problems:
    """What a language's catalog lacks or gets wrong, by kind."""

    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    placeholders: list[str] = field(default_factory=list)
    plurals: list[str] = field(default_factory=list)
    untranslated: list[str] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)

    def all(self) -> list[str]:
        """Every problem as one line."""
        return [
            *self.unreadable,
            *(f"missing {k}" for k in self.missing),
            *(f"not in the template {k}" for k in self.extra),
            *(f"placeholders differ from English in {k}" for k in self.placeholders),
            *(f"plural forms missing in {k}" for k in self.plurals),
            *(f"left in English: {k}" for k in self.untranslated),
        ]


def _texts(message: Message) -> list[str]:
    return list(message.values()) if isinstance(message, dict) else [message]


def problems(language: str) -> Problems:
    """Check ``language`` against the English templates (empty :class:`Problems` if complete).

    >>> problems("pl").all()
    []
    """
    return compare(catalog("en"), catalog(language))


def compare(english: Catalog, table: Catalog) -> Problems:
    """What ``table`` lacks or gets wrong against the English catalog ``english``."""
    found = Problems(unreadable=english.unreadable + table.unreadable)
    language = table.language
    found.extra = [key for key in table.entries if key not in english.entries]
    for key, reference in english.entries.items():
        found_entry = table.entries.get(key)
        if found_entry is None or not found_entry.text:
            found.missing.append(key)
            continue
        entry = found_entry
        want = set().union(*(placeholders(t) for t in _texts(reference.english)))
        for text in _texts(entry.text):
            if placeholders(text) != want:
                found.placeholders.append(key)
                break
        if isinstance(reference.english, dict) != isinstance(entry.text, dict):
            found.plurals.append(key)
        elif isinstance(entry.text, dict):
            # CLDR's "other" is for fractions in Russian and Polish: integers never reach it.
            integer = {plural_category(language, n) for n in range(200)}
            if not integer <= set(entry.text):
                found.plurals.append(key)
        if language != "en" and not entry.same_as_english and _texts(entry.text) == _texts(
            reference.english
        ):
            found.untranslated.append(key)
    return found
