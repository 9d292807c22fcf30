"""The pure rules of Shadows over Camelot: The Card Game.

Imports only :mod:`pendragon.core` and the standard library. Modules: ``cards`` (the rumor
deck, read from ``rumor_deck.json``), ``actions`` (the catalog), ``tasks`` (the agenda),
``engine`` (the runner and its dispatch tables), one module per mechanism (``turn``,
``rumors``, ``questing``, ``quests``, ``loyalty``, ``knights``; shared helpers in
``common``), ``state`` (fields, copies, storage, determinisation), ``view`` (what each seat
sees), ``game`` (options and facts), ``fixtures`` (scenario positions). Rules reference:
``docs/rules/soc-card.md``.
"""
