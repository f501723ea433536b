"""Model inspection: the GGUF header, read without loading weights, and the facts it gives."""
