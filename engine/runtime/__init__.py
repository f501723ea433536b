"""Running a model: llama.cpp bindings, the owned native model, routing record, generation,
loading with fallback, and the engine thread."""
