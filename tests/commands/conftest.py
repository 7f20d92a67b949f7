"""Fixtures for the command-line tests."""

import pytest


@pytest.fixture
def simulated_hardware(monkeypatch, tmp_path):
    """A simulated table with no configuration file and no injected faults, run from ``tmp_path``."""
    monkeypatch.setenv("DICETABLE_HW", "sim")
    monkeypatch.delenv("DICETABLE_CONFIG", raising=False)
    monkeypatch.delenv("DICETABLE_SIM_FAULTS", raising=False)
    monkeypatch.chdir(tmp_path)
