"""Benchmarks run with ``python -m bench.run`` (not part of the installed package)."""
