"""Rotary's desktop app (PySide6). Reaches the engine only through ``app.bridge.engine_bridge``."""
