"""The pure rules engines: no I/O, clock, threads or randomness; stdlib only, mypy --strict."""
