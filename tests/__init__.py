"""Pendragon's test suite (a package so that ``tests.toygame`` can be imported by tools)."""
