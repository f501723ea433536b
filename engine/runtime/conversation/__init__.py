"""One conversation in the model: what fits in the context window and the model state kept
between its turns (in RAM and on disk)."""
