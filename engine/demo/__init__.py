"""The built-in demo model, written by the project itself (tiny_moe.py); the tests use the
same writer for their tiny models. Test-only generators live in tests/support/."""
