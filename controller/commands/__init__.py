"""Subcommands of ``dicetable``: each module defines ``register(subparsers)``."""
