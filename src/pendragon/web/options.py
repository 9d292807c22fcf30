"""Which options of a game a remote client may set at a table, and the check of those a
new table is asked for: the server sets the seed and the number of players itself, and an
option naming something on the server's machine (``OptionSpec.remote`` false, a file) is
never taken from a client."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pendragon
from pendragon.core.api import Game
from pendragon.core.errors import PendragonError
from pendragon.core.options import remote_specs
from pendragon.web.errors import TableError

#: Options the server sets itself: the seed (never shown to a client) and the number of
#: players (from the seats).
SERVER_OPTIONS = ("players", "seed")


def remote_option_names(cls: type[Game]) -> tuple[str, ...]:
    """The options of game class ``cls`` a client may set at a table: those declared
    ``remote`` (:class:`~pendragon.core.options.OptionSpec`), but :data:`SERVER_OPTIONS`.

    >>> remote_option_names(pendragon.game_class("grail-cup"))
    ('track',)
    """
    return tuple(spec.name for spec in remote_specs(cls.option_specs)
                 if spec.name not in SERVER_OPTIONS)


def table_options(game_name: str, options: Mapping[str, Any], seats: int) -> dict[str, Any]:
    """The options to load ``game_name`` with for a new table of ``seats`` seats: a
    client's ``options`` once checked (``TableError`` 400 names what is refused), with the
    number of players where the game has that option."""
    try:
        cls = pendragon.game_class(game_name)
    except PendragonError as error:  # its message quotes the name: never echoed
        raise TableError(error.code.value, "there is no such game (GET /api/games lists"
                         " them)", 400) from None
    given = dict(options)
    for reserved in SERVER_OPTIONS:
        if reserved in given:
            raise TableError(
                "invalid_option",
                f"option {reserved!r} is set by the server"
                + (" (from the number of seats)" if reserved == "players" else ""),
                400,
            )
    specs = {spec.name: spec for spec in cls.option_specs}
    for name in given:
        if name in specs and not specs[name].remote:
            # An option naming something on this machine (a file): never from a remote
            # client, whatever its value; its value is not echoed either.
            raise TableError(
                "invalid_option",
                f"option {specs[name].name!r} cannot be set at the online table; its"
                f" choices are {', '.join(remote_option_names(cls)) or 'none'}",
                400,
            )
    players = specs.get("players")
    if players is not None:
        low, high = players.minimum, players.maximum
        if (low is not None and seats < low) or (high is not None and seats > high):
            # The code of the option the seats set (a client's table stays refused the same
            # way), in words that name the seats, not the options.
            span = (f"{low} to {high}" if low is not None and high is not None
                    else f"at least {low}" if low is not None else f"at most {high}")
            raise TableError("invalid_option", f"{game_name} is played by {span} players;"
                             f" this table has {seats} seats", 400)
        given["players"] = seats
    return given
