"""The Flask scoreboard and dealer console (reads public state, submits inputs)."""
