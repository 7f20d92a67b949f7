"""The JSON the scoreboard receives: the table's public state plus the hand chart and live odds.

An update is serialised once, however many streams send it (a small cache keyed by its place
among the changes), so two hundred spectators cost one ``json.dumps`` per change.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any

from controller.games.hand_rules import HandRules
from controller.table.records import TableHandle, TableState, Update
from web.odds import chart, live_odds, rules_for

CACHED = 256


def sse(event: str, data: str, seq: int | None = None) -> str:
    """One event in the wire format (``data`` is one line of JSON).

    >>> sse("update", '{"a":1}', 7)
    'id: 7\\nevent: update\\ndata: {"a":1}\\n\\n'
    """
    head = f"id: {seq}\n" if seq is not None else ""
    return f"{head}event: {event}\ndata: {data}\n\n"
PRIVATE_QUESTION = ("seen", "evidence")


def public_json(state: TableState) -> dict[str, Any]:
    """``state.to_json()`` without what only the dealer may see: the dice the camera read for an
    open question and its evidence picture (the room learns the question's text, not its dice)."""
    data = state.to_json()
    if data.get("question"):
        data["question"] = {key: value for key, value in data["question"].items()
                            if key not in PRIVATE_QUESTION}
    return data


class Payloads:
    """Serialised events and states, and each game's hand rules, cached."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._events: OrderedDict[tuple[int, int, str], bytes] = OrderedDict()
        self._rules: dict[int, HandRules | None] = {}

    def event(self, table: TableHandle, update: Update, late: str = "") -> bytes:
        """``update``'s whole event as the stream sends it (``id``, ``event``, ``data``), encoded
        once: every stream then writes the same bytes, with no formatting or encoding of its own."""
        key = (*update.place, update.kind)  # notices share a record's number, not its place
        with self._lock:
            if key in self._events:
                return self._events[key]
        data = json.dumps(self.document(table, update.state, update.kind, update.text, late),
                          separators=(",", ":"))
        text = sse("update", data, update.seq).encode()
        with self._lock:
            self._events[key] = text
            while len(self._events) > CACHED:
                self._events.popitem(last=False)
        return text

    def document(self, table: TableHandle, state: TableState, kind: str = "state",
                 text: str = "", late: str = "") -> dict[str, Any]:
        """The public document of ``state``: what ``/api/state`` answers and each event carries
        (``colours``: the seats' colours, as the record has them; ``late``: how late the
        board runs, "" when it is live)."""
        rules = self.rules(table, state.game_no, state.view.game)
        return {"seq": state.seq, "kind": kind, "text": text, "state": public_json(state),
                "chart": list(chart(rules)) if rules else [],
                "odds": live_odds(state.view, rules) if rules else [],
                "colours": list(state.colours), "late": late}

    def rules(self, table: TableHandle, game_no: int, game: str) -> HandRules | None:
        """The hand rules of game ``game_no`` (its options come from the record), or None."""
        with self._lock:
            if game_no in self._rules:
                return self._rules[game_no]
        options = next((summary.options for summary in table.games(limit=10)
                        if summary.game_no == game_no), {})
        found = rules_for(game, options)
        with self._lock:
            self._rules[game_no] = found
        return found
