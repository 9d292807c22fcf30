"""The pure rules of Grail Cup: imports only :mod:`pendragon.core` and the standard library.

Modules: ``data`` (allies, clover tokens, die, counts), ``track`` (the board as a data
file), ``actions`` (the action catalog), ``engine`` (the rules as agenda tasks), ``view``
(what each seat may see), ``state`` (the position: copies, storage, determinisation),
``game`` (options and declared facts), ``fixtures`` (scenario positions).
"""
