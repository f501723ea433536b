"""The residency simulator: replay routing traces through the engine's policies
(engine.residency, the same classes the slot cache runs) and compare them.

simulate (the counting rule, ``replay``/``run_policy``), costmodel (modelled decode times),
prefetch (intra-token uploads: a study the engine does not do), synth/presets (synthetic
traces), stress (the stress suite), logs (routing logs to traces), predictors, report.
Command line: ``python -m tools.residency_sim simulate|synth|stats|convert``. A developer
tool: nothing in engine/ or app/ imports it, and the bundle leaves it out.
"""
