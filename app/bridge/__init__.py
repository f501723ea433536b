"""Where the GUI meets the engine: the Qt bridge object (engine_bridge.py) and the same engine calls without Qt (facade.py)."""
