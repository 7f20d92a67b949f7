"""How the web answers a refused input: the table's reason, with the HTTP status that fits.

The table not ready (paused, at fault, a question open) is 409 Conflict; an illegal or malformed
input is 400. The API answers JSON, the console a short page with a way back; never a traceback.
"""

from __future__ import annotations

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from controller.games.errors import DiceTableError, TableNotReady


def register(app: Flask) -> None:
    """Install the handlers on ``app``."""
    app.register_error_handler(DiceTableError, _refused)
    app.register_error_handler(HTTPException, _http)


def _refused(error: DiceTableError) -> tuple[Response | str, int]:
    status = 409 if isinstance(error, TableNotReady) else 400
    return _answer(str(error), status)


def _http(error: HTTPException) -> tuple[Response | str, int]:
    return _answer(error.description or error.name, error.code or 500)


def _answer(reason: str, status: int) -> tuple[Response | str, int]:
    if request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json":
        return jsonify({"error": reason, "status": status}), status
    return render_template("refused.html", reason=reason, status=status), status
