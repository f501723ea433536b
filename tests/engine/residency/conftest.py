import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))   # residency_helpers.py without a package
