"""The examples in the hardware modules' docstrings are true."""

import doctest

import pytest

import hardware.clock
import hardware.devices
import hardware.faults
import hardware.panels
import hardware.rc522_regs
import hardware.rfid


@pytest.mark.parametrize("module", [hardware.clock, hardware.devices, hardware.faults,
                                    hardware.panels, hardware.rc522_regs, hardware.rfid],
                         ids=lambda m: m.__name__)
def test_docstring_examples_hold(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
