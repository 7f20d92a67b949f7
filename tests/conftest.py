"""Shared fixtures and settings for the whole suite."""

import os

from hypothesis import HealthCheck, settings

# CI machines are small and loaded: a property test must fail on a wrong answer, never on time.
settings.register_profile("dicetable", deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", parent=settings.get_profile("dicetable"), database=None)
settings.load_profile("ci" if os.environ.get("CI") else "dicetable")
