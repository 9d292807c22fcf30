"""The fixed action catalog of Shadows over Camelot: The Card Game.

Ids are only ever appended, so saved games and trained agents keep working. Each block is
``(first id, count)``; the text forms round-trip through :data:`CATALOG`.

Seat decisions: ``listen``, ``quest:<quest>``, ``accuse:<seat>``,
``announce-card:<card>`` (Morgan #1: the quest card the layer says he holds; the older
``announce:<quest>`` ids stay in the catalog, never legal), ``count:<n>`` (Morgan #2),
``give:<seat>``, ``keep``, ``swap`` (Vivien),
``place:<card>`` (an unmasked traitor's turn), ``merlin-4:<quest>``, ``play:<knight>``,
``pass``, ``galahad:<seat>``, ``gawain:<card>``, ``merlin-6:<quest>``, ``merlin-6-add:<n>``.
Chance outcomes: ``rumor:<card>``, ``deal-loyalty:<loyal|traitor>``,
``morgan-aside:<card>``, ``vivien-card:<loyal|traitor>``, ``knight:<knight>``,
``morgan-in:<card>``.

>>> CATALOG.text(LISTEN), CATALOG.parse("quest:grail") == QUEST + 4
('listen', True)
>>> CATALOG.text(RUMOR + 0), CATALOG.text(ACCUSE + 3)
('rumor:picts-q', 'accuse:3')
>>> CATALOG.text(ANNOUNCE_CARD + ANNOUNCE_OFFSET[QUEST_KINDS[0]])
'announce-card:picts-q'
"""

from __future__ import annotations

from typing import Final

from pendragon.core.actions import CatalogBuilder
from pendragon.games.soc_card.rules.cards import (
    CARDS,
    KNIGHT_KEYS,
    LOYALTY_KEYS,
    MORGAN_KINDS,
    NUM_KINDS,
    NUM_QUESTS,
    QUEST_KINDS,
    QUESTS,
)

MAX_SEATS: Final = 7
#: Numbers a player may say aloud under Morgan #2 (SCG-MORGAN-2, SCG-RULING-12).
MAX_COUNT: Final = 63

_layout = CatalogBuilder()
LISTEN: Final[int] = _layout.block(["listen"])
QUEST: Final[int] = _layout.block([f"quest:{q}" for q in QUESTS])
ACCUSE: Final[int] = _layout.block([f"accuse:{s}" for s in range(MAX_SEATS)])
ANNOUNCE: Final[int] = _layout.block([f"announce:{q}" for q in QUESTS])
COUNT: Final[int] = _layout.block([f"count:{n}" for n in range(1, MAX_COUNT + 1)])
GIVE: Final[int] = _layout.block([f"give:{s}" for s in range(MAX_SEATS)])
KEEP: Final[int] = _layout.block(["keep"])
SWAP: Final[int] = _layout.block(["swap"])
PLACE: Final[int] = _layout.block([f"place:{c.key}" for c in CARDS])
MERLIN_4: Final[int] = _layout.block([f"merlin-4:{q}" for q in QUESTS])
PLAY: Final[int] = _layout.block([f"play:{k}" for k in KNIGHT_KEYS])
PASS: Final[int] = _layout.block(["pass"])
GALAHAD: Final[int] = _layout.block([f"galahad:{s}" for s in range(MAX_SEATS)])
GAWAIN: Final[int] = _layout.block([f"gawain:{c.key}" for c in CARDS])
MERLIN_6: Final[int] = _layout.block([f"merlin-6:{q}" for q in QUESTS])
MERLIN_6_ADD: Final[int] = _layout.block([f"merlin-6-add:{n}" for n in range(4)])
# Chance outcomes.
RUMOR: Final[int] = _layout.block([f"rumor:{c.key}" for c in CARDS])
DEAL_LOYALTY: Final[int] = _layout.block([f"deal-loyalty:{k}" for k in LOYALTY_KEYS])
MORGAN_ASIDE: Final[int] = _layout.block([f"morgan-aside:{CARDS[k].key}" for k in MORGAN_KINDS])
VIVIEN_CARD: Final[int] = _layout.block([f"vivien-card:{k}" for k in LOYALTY_KEYS])
KNIGHT: Final[int] = _layout.block([f"knight:{k}" for k in KNIGHT_KEYS])
MORGAN_IN: Final[int] = _layout.block([f"morgan-in:{CARDS[k].key}" for k in MORGAN_KINDS])
# Appended later: Morgan #1's announcement names the card, its value included (issue 28;
# ``announce:<quest>`` above is kept for the ids but is never legal any more).
ANNOUNCE_CARD: Final[int] = _layout.block([f"announce-card:{CARDS[k].key}" for k in QUEST_KINDS])

CATALOG: Final = _layout.build()
NUM_ACTIONS: Final = len(CATALOG)

#: Morgan kind -> offset in the MORGAN_ASIDE / MORGAN_IN blocks.
MORGAN_OFFSET: Final = {kind: i for i, kind in enumerate(MORGAN_KINDS)}
#: Quest card kind -> offset in the ANNOUNCE_CARD block, and back.
ANNOUNCE_OFFSET: Final = {kind: i for i, kind in enumerate(QUEST_KINDS)}
ANNOUNCED_KIND: Final = QUEST_KINDS

assert NUM_QUESTS == 5 and len(CARDS) == NUM_KINDS
