"""The Sword in the Stone: a small game for Pendragon, packaged on its own as a plugin.

It is the proof that a game from another package plugs into Pendragon like the built-in
ones: one entry point (``pendragon.games: sword-stone``) and no line of ``pendragon``.

===================  ==================================================================
``rules/``           the pure rules, action catalog and observation layout
``plugin.py``        the registration (:data:`~pendragon_sword_stone.plugin.PLUGIN`)
``heuristic.py``     the hand-written policy (``heuristic`` bot)
``terminal.py``      the terminal's drawing of a seat's observation
``web.py``           the web table's hooks
``board.js``         the web page's board module
``locale/``          message catalogs: ``messages.pot`` (English), ``ru``, ``cs``, ``pl``
===================  ==================================================================
"""
