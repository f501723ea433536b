"""The command line, in one place: ``python -m engine`` and the ``rotary-engine`` script
(engine/__main__.py, a thin entry point) run main.py: the parser, the command table and the
model commands (info, plan, chat, trace, demo). Beside it, the commands that talk to other
folders' work: devices.py (``devices``, ``--device``), models.py (``models``), documents.py
(``summarize``, ``ask``) and remote.py (``chat --server``). Nothing in the engine imports this
package; it imports the engine. The residency simulator's command line is a developer tool
outside the shipped engine: ``python -m tools.residency_sim``."""
