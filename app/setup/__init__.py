"""Choosing and loading a model: first-run wizard, settings dialogs, model list and checks, loading, self-test."""
