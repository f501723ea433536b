"""Native code of our own: C helpers compiled on first use (csrc/) and, later, the llama.cpp
patch series."""
