"""The fixed action catalog of Grail Cup: every choice and every chance outcome.

Text forms (ids in this order; the catalog never depends on options):

========================  =====================================================
``keep:<ally>``           keep an ally from the cards passed to you (the draft)
``pass:left|right``       the first player's passing direction
``curse:<ally>``          the Sorceress curses an ally
``name:<seat>``           the Squire names a knight
``look:<space>``          Merlin looks at the clover token on a space
``place:<clover>``        Merlin puts a token he saw back on the next looked space
``move:<n>``              Merlin's 1-3 or the Fairy's 2/4/6 spaces
``dragon:<space>``        the Dragon Tamer or a Dragon Bait moves the dragon there
``spear:yes|no``          spend a spear to pass the dragon, or stop behind it
``target:<seat>``         the knight a Fake Grail pushes back or a Magnet robs
``ally:<ally>``           chance: the ally card drawn (deal, set aside, random discard)
``clover:<clover>``       chance: the clover token laid face down on a space
``die:seal|thief|spear``  chance: the village die
========================  =====================================================

>>> CATALOG.parse("keep:merlin") == KEEP + 2
True
>>> CATALOG.text(DIE_ROLL + 1)
'die:thief'
"""

from __future__ import annotations

from typing import Final

from pendragon.core.actions import CatalogBuilder
from pendragon.games.grail_cup.rules.data import ALLY_KEYS, CLOVER_KEYS, DIE_KEYS
from pendragon.games.grail_cup.rules.track import MAX_SPACES

MAX_SEATS: Final = 8
MOVES: Final = 6

_layout = CatalogBuilder()
_block = _layout.block
KEEP: Final = _block([f"keep:{k}" for k in ALLY_KEYS])
PASS_LEFT: Final = _block(["pass:left", "pass:right"])
PASS_RIGHT: Final = PASS_LEFT + 1
CURSE: Final = _block([f"curse:{k}" for k in ALLY_KEYS])
NAME: Final = _block([f"name:{s}" for s in range(MAX_SEATS)])
LOOK: Final = _block([f"look:{s}" for s in range(MAX_SPACES)])
PLACE: Final = _block([f"place:{k}" for k in CLOVER_KEYS])
MOVE: Final = _block([f"move:{n}" for n in range(1, MOVES + 1)])
DRAGON: Final = _block([f"dragon:{s}" for s in range(MAX_SPACES)])
SPEAR_YES: Final = _block(["spear:yes", "spear:no"])
SPEAR_NO: Final = SPEAR_YES + 1
TARGET: Final = _block([f"target:{s}" for s in range(MAX_SEATS)])
ALLY: Final = _block([f"ally:{k}" for k in ALLY_KEYS])
CLOVER: Final = _block([f"clover:{k}" for k in CLOVER_KEYS])
DIE_ROLL: Final = _block([f"die:{k}" for k in DIE_KEYS])
NUM_ACTIONS: Final = len(_layout)
CATALOG: Final = _layout.build()
