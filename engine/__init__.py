"""Rotary engine: model inspection, memory planning, generation and expert residency.

This package never imports Qt (see tests/engine/test_import_contract.py).
"""

__version__ = "0.1.0"
