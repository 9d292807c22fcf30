"""The online table: play in a browser with friends and bots (``pendragon serve``).

A FastAPI server (:mod:`pendragon.web.server`) keeps every live game in memory
(:mod:`pendragon.web.tables`), stores each table as its options, seed and action log
(:mod:`pendragon.web.storage`, SQLite or PostgreSQL), and pushes every seat its own
observation over a WebSocket. The pages (``static/``) need no build step and speak English,
Russian, Czech and Polish (the catalogs of :mod:`pendragon.i18n`). See ``docs/web.md``.

Needs the ``web`` extras (``pip install -e '.[web]'``).
"""
