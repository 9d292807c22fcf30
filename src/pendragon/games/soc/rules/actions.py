"""The Shadows over Camelot action catalog: every decision and chance outcome as one id.

Ids are grouped in blocks; each block's first id is a module constant (``PLAY + kind``
plays white card ``kind``). The text form of an id is fixed and unique, so transcripts and
the network protocol can use either.

Chance outcomes (``current_player() == CHANCE``):

=====================  =============================================================
``deal-knight:K``      coat of arms ``K`` dealt to the seat being set up
``deal-loyalty:X``     ``loyal`` or ``traitor`` dealt to the seat being set up
``white-card:C``       white card ``C`` comes off the white deck (or a hand, at random)
``black-card:C``       black card ``C`` comes off the black deck
``die:N``              the 8-sided siege die shows ``N``
``random-seat:P``      seat ``P`` is picked at random (``share="random"``)
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
``volunteer``              take a Morgan card's burden alone
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

from pendragon.core.actions import CatalogBuilder
from pendragon.games.soc.rules.cards import (
    BLACK,
    KNIGHTS,
    LOCATION_KEYS,
    NUM_BLACK,
    NUM_KNIGHTS,
    NUM_LOCATIONS,
    NUM_WHITE,
    TRAVEL_KEYS,
    WHITE,
)

#: Largest table: the base game seats 7, Merlin's Company 8.
MAX_SEATS = 8

_layout = CatalogBuilder()
_block = _layout.block

# Chance outcomes.
DEAL_KNIGHT = _block([f"deal-knight:{k.key}" for k in KNIGHTS])
DEAL_LOYAL = _block(["deal-loyalty:loyal"])
DEAL_TRAITOR = _block(["deal-loyalty:traitor"])
WHITE_CARD = _block([f"white-card:{c.key}" for c in WHITE])
BLACK_CARD = _block([f"black-card:{c.key}" for c in BLACK])
DIE = _block([f"die:{n}" for n in range(1, 9)])  # DIE + (n - 1)
RANDOM_SEAT = _block([f"random-seat:{p}" for p in range(MAX_SEATS)])
TRAVEL = _block([f"travel:{t}" for t in TRAVEL_KEYS])
NUM_CHANCE_ACTIONS = len(_layout)

# Decisions.
DRAW_BLACK = _block(["draw-black"])
ADD_SIEGE = _block(["add-siege"])
LOSE_LIFE = _block(["lose-life"])
PEEK = _block(["peek"])
MOVE = _block([f"move:{key}" for key in LOCATION_KEYS])
DRAW_WHITE = _block(["draw-white"])
FIGHT_SIEGE = _block(["fight-siege"])
PLAY = _block([f"play:{c.key}" for c in WHITE])
SPECIAL = _block([f"special:{c.key}" for c in WHITE])
HEAL = _block([f"heal:{c.key}" for c in WHITE])
ACCUSE = _block([f"accuse:{p}" for p in range(MAX_SEATS)])
SEAT = _block([f"seat:{p}" for p in range(MAX_SEATS)])
TARGET = _block([f"target:{key}" for key in LOCATION_KEYS])
TARGET_SIEGE = _block(["target:siege"])
CHOOSE_BLACK = _block([f"choose-black:{c.key}" for c in BLACK])
SACRIFICE = _block(["sacrifice"])
END_TURN = _block(["end-turn"])
DONE = _block(["done"])
PASS = _block(["pass"])
ARTHUR_EXCHANGE = _block(["arthur-exchange"])
PLEDGE_MERLIN = _block(["pledge-merlin"])
SACRIFICE_EXCALIBUR = _block(["sacrifice-excalibur"])
DRINK_GRAIL = _block(["drink-grail"])
FACE_DOWN = _block(["face-down"])
FACE_UP = _block(["face-up"])
VOLUNTEER = _block(["volunteer"])
ANSWER = _block(["answer"])
SELF = _block(["self"])
OTHERS = _block(["others"])
FATE_LOYAL = _block(["fate:loyal"])
FATE_REVEAL = _block(["fate:reveal"])
VALUE = _block([f"value:{n}" for n in range(1, 6)])
# Merlin's Company and the optional rules (appended so that earlier ids never change).
GAHERIS = _block(["gaheris-merlin"])
BEDIVERE = _block(["bedivere-swap"])
CARADOC = _block(["caradoc-trade"])
GERAINT = _block(["geraint-skip-evil"])
LAMORAK = _block(["lamorak-discard"])
MERLIN_DRAW = _block(["merlin-draw"])
FREE = _block([f"free:{p}" for p in range(MAX_SEATS)])
STAY = _block(["stay"])
GO = _block(["go"])
SLAYER_DRAW = _block(["slayer:draw"])
SLAYER_FIGHT = _block(["slayer:fight"])
JOIN = _block(["join"])
LEAVE = _block([f"leave:{p}" for p in range(MAX_SEATS)])

CATALOG = _layout.build()
NUM_ACTIONS = len(CATALOG)

assert len(KNIGHTS) == NUM_KNIGHTS and len(WHITE) == NUM_WHITE and len(BLACK) == NUM_BLACK
assert len(LOCATION_KEYS) == NUM_LOCATIONS
