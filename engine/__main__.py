"""``python -m engine`` and the ``rotary-engine`` script: the command line is engine/cli/
(its commands and their help in engine/cli/main.py)."""

from __future__ import annotations

import sys

from engine.cli.main import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
