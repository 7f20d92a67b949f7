"""The table's controller: rules engines (games/), bots, the event store and the command line."""
