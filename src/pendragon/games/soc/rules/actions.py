"""The Shadows over Camelot action catalog: every decision and chance outcome as one id.

Ids are grouped in blocks; each block's first id is a module constant (``PLAY + kind``
plays white card ``kind``). The text form of an id is fixed and unique, so transcripts and
the network protocol can use either.

Chance outcomes (``current_player() == CHANCE``):

=====================  =============================================================
``deal-knight:K``      coat of arms ``K`` dealt to the seat being set up
``deal-loyalty:X``     ``loyal`` or ``traitor`` dealt to the seat being set up
``white-card:C``       white card ``C`` comes off the white deck (or a hand, or the
                       offered cards dealt face down, at random)
``black-card:C``       black card ``C`` comes off the black deck
``die:N``              the 8-sided siege die shows ``N``
``random-seat:P``      retired: no longer drawn (``share="random"`` deals ``white-card:``)
``travel:T``           travel card ``T`` (Merlin's Company)
=====================  =============================================================

Decisions of a seat:

=========================  ==========================================================
``draw-black``             Progression of Evil: draw and play a black card
``add-siege``              Progression of Evil: add a siege engine
``lose-life``              Progression of Evil: lose one life
``peek``                   Sir Percival looks at the top black card first
``move:L``                 move to location ``L``
``draw-white``             at Camelot: draw 2 white cards (Gawain 3)
``fight-siege``            at Camelot: fight a siege engine (then ``play:`` cards, ``done``)
``play:C``                 choose white card ``C`` (on a quest, into a fight, to give...)
``special:C``              play special white card ``C``
``heal:C``                 discard three ``C`` for one life
``accuse:P``               accuse seat ``P``
``seat:P``                 choose seat ``P`` (receiver, target)
``target:L``               choose quest ``L`` (Merlin, Heroism, Mordred, Mercenaries)
``target:siege``           Merlin: remove a siege engine
``choose-black:C``         choose black card ``C`` among those in hand (Armor, Clairvoyance)
``sacrifice``              lose a life for a second heroic action
``end-turn``               end the turn
``done`` / ``pass``        finish a multi-card choice / decline an offer
``arthur-exchange``        King Arthur starts his card exchange
``pledge-merlin``          pledge a Merlin card against a special black card
``sacrifice-excalibur``    cancel the black card just drawn
``drink-grail``            save the dying knight with the Grail
``face-down``/``face-up``  how to place a combat black card
``volunteer``              take a Morgan card's burden alone; Sir Bors: take part in
                           the Black Knight's face-down reward (``pass``: decline)
``answer``                 answer Convocation
``self`` / ``others``      Piety's and Reinforcements' two modes
``fate:loyal``             play Fate as a loyal knight
``fate:reveal``            the traitor reveals himself with Fate
``value:N``                the value of a "?" Fight card (Merlin's Company)
``gaheris-merlin`` ...     knights' powers of Merlin's Company (Gaheris, Bedivere,
                           Caradoc, Geraint, Lamorak)
``merlin-draw``            draw a white card where the Merlin figure stands
``free:P``                 free captured seat ``P`` with a special white card
``stay`` / ``go``          a travel card's choice (Lost!, Ambushed!, Charged!)
``slayer:draw|fight``      Dragon Slayer's two modes
``join`` / ``leave:P``     table operations: a player joins mid-game / seat ``P`` leaves
=========================  ==========================================================

Version history of the catalog: ids only ever get appended, never renumbered.

>>> CATALOG.text(PLAY + 4)
'play:fight-5'
>>> CATALOG.parse("move:grail") == MOVE + 4
True
"""

from __future__ import annotations

from typing import Final

from pendragon.core.actions import CatalogBuilder
from pendragon.games.soc.rules.cards import BLACK, KNIGHTS, LOCATION_KEYS, TRAVEL_KEYS, WHITE

#: Largest table: the base game seats 7, Merlin's Company 8.
MAX_SEATS: Final = 8

_layout = CatalogBuilder()
_block = _layout.block

# Chance outcomes.
DEAL_KNIGHT: Final = _block([f"deal-knight:{k.key}" for k in KNIGHTS])
DEAL_LOYAL: Final = _block(["deal-loyalty:loyal"])
DEAL_TRAITOR: Final = _block(["deal-loyalty:traitor"])
WHITE_CARD: Final = _block([f"white-card:{c.key}" for c in WHITE])
BLACK_CARD: Final = _block([f"black-card:{c.key}" for c in BLACK])
DIE: Final = _block([f"die:{n}" for n in range(1, 9)])  # DIE + (n - 1)
# Retired (SOC-RULING-77): kept so that the ids after it never change.
RANDOM_SEAT: Final = _block([f"random-seat:{p}" for p in range(MAX_SEATS)])
TRAVEL: Final = _block([f"travel:{t}" for t in TRAVEL_KEYS])
NUM_CHANCE_ACTIONS: Final = len(_layout)

# Decisions.
DRAW_BLACK: Final = _block(["draw-black"])
ADD_SIEGE: Final = _block(["add-siege"])
LOSE_LIFE: Final = _block(["lose-life"])
PEEK: Final = _block(["peek"])
MOVE: Final = _block([f"move:{key}" for key in LOCATION_KEYS])
DRAW_WHITE: Final = _block(["draw-white"])
FIGHT_SIEGE: Final = _block(["fight-siege"])
PLAY: Final = _block([f"play:{c.key}" for c in WHITE])
SPECIAL: Final = _block([f"special:{c.key}" for c in WHITE])
HEAL: Final = _block([f"heal:{c.key}" for c in WHITE])
ACCUSE: Final = _block([f"accuse:{p}" for p in range(MAX_SEATS)])
SEAT: Final = _block([f"seat:{p}" for p in range(MAX_SEATS)])
TARGET: Final = _block([f"target:{key}" for key in LOCATION_KEYS])
TARGET_SIEGE: Final = _block(["target:siege"])
CHOOSE_BLACK: Final = _block([f"choose-black:{c.key}" for c in BLACK])
SACRIFICE: Final = _block(["sacrifice"])
END_TURN: Final = _block(["end-turn"])
DONE: Final = _block(["done"])
PASS: Final = _block(["pass"])
ARTHUR_EXCHANGE: Final = _block(["arthur-exchange"])
PLEDGE_MERLIN: Final = _block(["pledge-merlin"])
SACRIFICE_EXCALIBUR: Final = _block(["sacrifice-excalibur"])
DRINK_GRAIL: Final = _block(["drink-grail"])
FACE_DOWN: Final = _block(["face-down"])
FACE_UP: Final = _block(["face-up"])
VOLUNTEER: Final = _block(["volunteer"])
ANSWER: Final = _block(["answer"])
SELF: Final = _block(["self"])
OTHERS: Final = _block(["others"])
FATE_LOYAL: Final = _block(["fate:loyal"])
FATE_REVEAL: Final = _block(["fate:reveal"])
VALUE: Final = _block([f"value:{n}" for n in range(1, 6)])
# Merlin's Company and the optional rules (appended so that earlier ids never change).
GAHERIS: Final = _block(["gaheris-merlin"])
BEDIVERE: Final = _block(["bedivere-swap"])
CARADOC: Final = _block(["caradoc-trade"])
GERAINT: Final = _block(["geraint-skip-evil"])
LAMORAK: Final = _block(["lamorak-discard"])
MERLIN_DRAW: Final = _block(["merlin-draw"])
FREE: Final = _block([f"free:{p}" for p in range(MAX_SEATS)])
STAY: Final = _block(["stay"])
GO: Final = _block(["go"])
SLAYER_DRAW: Final = _block(["slayer:draw"])
SLAYER_FIGHT: Final = _block(["slayer:fight"])
JOIN: Final = _block(["join"])
LEAVE: Final = _block([f"leave:{p}" for p in range(MAX_SEATS)])
#: Identical Fight cards made up with "?" cards (MC-RULING-4): a heal of a Fight value with
#: one or two "?" (:func:`heal_any`), Charged! paid with a Fight card and a "?".
HEAL_ANY: Final = _block([f"heal-with-any:{WHITE[k].key}:{extra}" for k in range(5)
                          for extra in (1, 2)])
CHARGE_ANY: Final = _block([f"charge-with-any:{WHITE[k].key}" for k in range(5)])
#: A black combat card laid face down without the white card it entitles to (SOC-RULING-67).
FACE_DOWN_NO_CARD: Final = _block(["face-down-no-card"])


def heal_any(kind: int, extra: int) -> int:
    """The heal of three Fight cards of ``kind`` (0-4), ``extra`` (1 or 2) of them "?".

    >>> CATALOG.text(heal_any(2, 1)), heal_any_parts(heal_any(2, 1))
    ('heal-with-any:fight-3:1', (2, 1))
    """
    return HEAL_ANY + 2 * kind + extra - 1


def heal_any_parts(action: int) -> tuple[int, int]:
    """(Fight kind, how many "?") of a :func:`heal_any` action."""
    kind, rest = divmod(action - HEAL_ANY, 2)
    return kind, rest + 1

CATALOG: Final = _layout.build()
NUM_ACTIONS: Final = len(CATALOG)
