"""The rematch of a finished game (issue 17, item 10): a new table with the same game,
options (a new seed), seats, host and spectators, each person's own link opening his seat
there."""

from __future__ import annotations

from typing import Any

import pendragon
from pendragon.web.access import BOT, HUMAN
from pendragon.web.errors import TableError
from pendragon.web.moves import TableMoves
from pendragon.web.options import remote_option_names
from pendragon.web.security import secret_matches
from pendragon.web.storage import SetRematch


class Rematch(TableMoves):
    """Asking for a finished game's rematch, and each link's way to it."""

    async def propose_rematch(self, viewer: int | None) -> str:
        """A seated player asks for a rematch of the finished game; returns its table id.

        The new table has the same game, options (a new seed), turn timer, listing,
        joining rule and seats: the same bots, and each person's seat keeps the hash of
        his link's secret, so his own link's secret opens his new seat
        (:meth:`rematch_token`) and nobody else's; so do the spectators' and the host's.
        Asking again returns the same rematch.
        """
        if viewer is None:
            raise TableError("forbidden", "only players at the table may ask for a rematch",
                             403)
        async with self.lock:
            if not self.finished:
                raise TableError("not_finished", "a rematch is for a game that is over")
            if self.rematch is not None:
                return self.rematch
            seats: list[dict[str, Any]] = []
            for s in self.seats:
                if s.token_hash is not None or s.controller == HUMAN:
                    seats.append({"kind": HUMAN, "name": s.name, "token_hash": s.token_hash,
                                  "open": s.seat in self.open_seats})
                else:
                    seats.append({"kind": BOT, "name": s.name, "bot": s.bot})
            remote = remote_option_names(pendragon.game_class(self.game_name))
            options = {k: v for k, v in self.options.items() if k in remote}
            table, _tokens, _spectator = await self.manager.create(
                self.game_name, options, seats, listed=self.listed,
                turn_timer=self.turn_timer, spectator_hash=self.spectator_hash,
                rematch_of=self.table_id,
                opened=frozenset(s for s in self.opened if self.seats[s].token_hash),
                join_mid_game=self.join_mid_game, host_hash=self.host_hash,
            )
            if self.hints_allowed:  # the host's hint setting carries over
                await table.allow_hints_at_creation()
            await self.manager.store.write(SetRematch(self.table_id, table.table_id))
            self.rematch = table.table_id
            self.push_state()
        return table.table_id

    async def rematch_token(self, viewer: int | None, secret: str) -> str | None:
        """The rematch's token for the holder of ``secret`` (``viewer``'s own link), or
        ``None`` if there is no rematch or his seat there is no longer held by it."""
        if self.rematch is None:
            return None
        rematch = await self.manager.get(self.rematch)
        if rematch is None:
            return None
        if viewer is None:  # the spectators' link, or the host's
            held: tuple[str | None, ...] = (rematch.spectator_hash, rematch.host_hash)
        elif viewer < len(rematch.seats):
            held = (rematch.seats[viewer].token_hash,)
        else:
            return None
        if any(secret_matches(secret, stored) for stored in held):
            return f"{rematch.table_id}.{secret}"
        return None
