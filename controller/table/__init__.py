"""The table: device events become engine inputs, recorded durably, applied, and published.

- :mod:`controller.table.table`: the loop (:class:`~controller.table.table.Table`): button presses
  through the game's controls, the camera's settled readings matched to what the engine waits
  for (or a question to the dealer), hidden rolls sealed; every input verified, appended to the
  record (durable), applied and published; faults as states; the ``TableHandle`` for the web.
- :mod:`controller.table.ledger`: a game's record turned into the inputs in effect; undo, a
  misread die replaced, a hand voided, derived again on every replay.
- :mod:`controller.table.controls`: what each game's buttons mean with the stake on the bet spot.
- :mod:`controller.table.camera`: frames -> settled tray -> dice by zone -> the roll needed.
- :mod:`controller.table.records`: the typed records between the table, the web and the venue.
- :mod:`controller.table.build`, :mod:`~controller.table.demo`, :mod:`~controller.table.sim_seats`:
  the simulated table of ``dicetable demo`` and the real one of ``dicetable run``.
- The record itself is :mod:`controller.store` (SQLite, WAL, ``synchronous=FULL``).
"""
