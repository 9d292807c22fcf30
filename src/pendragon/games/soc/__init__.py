"""Shadows over Camelot (Days of Wonder, 2005) as one plugin: every piece of the game.

=========================  ===============================================================
``rules/``                 the pure rules (imports nothing but ``pendragon.core`` and the
                           standard library); ``rules/__init__.py`` lists its modules
``plugin.py``              the registration (entry point ``pendragon.games: soc``)
``heuristic.py``           the hand-written loyal knight and traitor (``heuristic`` bot);
``heuristic_expansion.py`` its Merlin's Company mixin
``terminal.py``            the terminal's drawing of a seat's observation
``web.py``                 the web table's hooks (joining mid-game)
``board.js``               the web page's board module (observation -> SVG)
``locale/``                the message catalogs: ``messages.pot`` (English) and
                           ``ru.po``, ``cs.po``, ``pl.po``
=========================  ===============================================================

The rules reference is ``docs/rules/soc.md`` (base game) and ``docs/rules/soc-expansion.md``
(Merlin's Company and the optional rules).
"""
