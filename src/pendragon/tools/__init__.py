"""Developer tools run with ``python -m`` (golden playthroughs)."""
