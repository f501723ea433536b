"""The command line, in one place: ``python -m engine`` (engine/__main__.py: the parser, the
command table and the model commands) and the commands that talk to other folders' work:
documents.py (``summarize``, ``ask``) and remote.py (``chat --server``). Nothing in the engine
imports this package; it imports the engine. The residency simulator's command line is a
developer tool outside the shipped engine: ``python -m tools.residency_sim``."""
