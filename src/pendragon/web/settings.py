"""How the table server behaves: :class:`Settings` (chosen at ``pendragon serve``), and the
fixed choices every table shares (the bots' paces, the chat's bounds)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

from pendragon.web.limits import Limits

CHAT_KEPT = 200
#: A seat may send this many chat lines per :data:`CHAT_WINDOW` seconds.
CHAT_BURST = 5
CHAT_WINDOW = 10.0
#: The paces (seconds before each bot move) a seated person or the host may choose for a
#: table during play (issue 27, item 9); until someone does, ``Settings.bot_delay``.
BOT_PACES: tuple[float, ...] = (0.4, 1.0, 2.0, 4.0)
#: The announcements of a new pace (by a seat, by the host): the last one is the pace.
PACE_EVENTS = ("table.event.pace", "table.event.pace-host")
#: The host's announcements that hints are allowed / off at a table (issue 31, item 2): the
#: last one says whether they are; a table without one has them off.
HINTS_EVENTS = ("table.event.hints-on", "table.event.hints-off")
#: The announcement that a seat asked the coach for a hint (never what it said).
HINT_ASKED = "table.event.hint"


@dataclass
class Settings:
    """How the table server behaves."""

    #: Pause before each bot move, so people can follow (0 for tests and benchmarks).
    bot_delay: float = 0.4
    #: Seconds a seat's player must have been gone before others may give it to a bot.
    away_after: float = 60.0
    #: Workers that run bot moves (0: run them on the event loop, for very fast bots).
    bot_threads: int = 2
    #: The workers are processes (a thinking bot never holds the event loop's interpreter
    #: lock), or threads (False: quicker to start; tests).
    bot_processes: bool = True
    #: Record the time from each move's submission to each push (``/api/metrics``).
    metrics: bool = False
    #: Where new tables' seeds come from (tests may fix it; pages never see it).
    seed_source: Callable[[], int] = field(default=lambda: secrets.randbits(63))
    #: Turn timers a host may choose, in seconds per decision (0, no timer, always may).
    turn_timers: tuple[int, ...] = (30, 60, 120, 300)
    #: The bot that plays a person's decision when his time runs out (``None``: the game's
    #: table bot, ``GamePlugin.table_bot``, so that in soc a traitor who runs out of time
    #: does not show himself).
    timeout_bot: str | None = None
    #: Simulated actions one hint may spend (0: the coach's own, four times the game's
    #: review budget; ``coach.hint``), and one decision of a review (0: the game's,
    #: ``coach.budget_for``). Tests make them small.
    hint_budget: int = 0
    review_budget: int = 0
    #: Rate limits, caps on bot tables and bot thinking, idle unloading.
    limits: Limits = field(default_factory=Limits)

    def __post_init__(self) -> None:
        """A ``timeout_bot`` must be a bot some game's tables seat (it plays a timed-out
        turn at the tables of the games that seat it; elsewhere the game's table bot does).

        >>> Settings(timeout_bot="talking")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: timeout_bot 'talking' is no table's bot; tables seat: heuristic, ...
        >>> Settings(timeout_bot="heuristic").timeout_bot
        'heuristic'
        """
        if self.timeout_bot is None:
            return
        from pendragon.bots import table_bots
        from pendragon.core.registry import registered_games

        seated = sorted({name for game in registered_games() for name in table_bots(game)})
        if self.timeout_bot not in seated:
            raise ValueError(f"timeout_bot {self.timeout_bot!r} is no table's bot; tables "
                             f"seat: {', '.join(seated)}")
