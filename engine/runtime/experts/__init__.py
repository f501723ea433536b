"""Mixture-of-experts residency: the routing record, the per-expert slot cache, the router
predictor and the hidden-state prefetch."""
