"""The project's one exception tree; each leaf is also the builtin it resembles.

Lives in the pure engine package (stdlib only) so that every other package can import it.
"""


class DiceTableError(Exception):
    """Root of every error dicetable raises on purpose."""


class IllegalAction(DiceTableError, ValueError):
    """An input the rules do not allow now; the message says why, in a player's words."""


class InvalidInput(DiceTableError, ValueError):
    """Text that does not parse as an input, a die face or an option: the message quotes it."""


class HistoryError(DiceTableError, ValueError):
    """A history file that cannot be read or replayed; the message names the line."""


class UnknownGame(DiceTableError, LookupError):
    """A game or variant name that is not registered."""


class DeviceError(DiceTableError, OSError):
    """A device that is missing, broken or misconfigured; the message says how to fix it."""


class DeviceTimeout(DeviceError, TimeoutError):
    """A device that did not answer in time."""


class DeviceDisconnected(DeviceError, ConnectionError):
    """A device that went away (unplugged, link lost)."""


class ConfigError(DiceTableError, ValueError):
    """A table configuration that is invalid; the message names the key."""


class TableNotReady(DiceTableError, RuntimeError):
    """The table does not take inputs now (paused, a device at fault, a question open)."""
