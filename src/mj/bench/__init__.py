"""Micro-benchmarks of hot paths, each runnable as ``python -m mj.bench.<name>``."""
