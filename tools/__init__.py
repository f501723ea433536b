"""Developer tools that are not part of the shipped app (the bundle leaves this package out,
build.spec): the residency simulator (residency_sim) and the engine's import graph check
(import_graph). Run them from the repository root: ``python -m tools.residency_sim ...``."""
