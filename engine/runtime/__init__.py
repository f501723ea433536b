"""Running a model. Here: the llama.cpp bindings (bindings), the owned native model
(llama_model), the one planning entry point (planning), loading with fallback (loader), the
request queue (requests), the engine thread (service) and the ranked list of models found
(found_models). Beside them, by concern: chat/ (formats and llama.cpp's chat layer),
conversation/ (the context window and each conversation's kept state), generation/ (the
answer loop, sampling, loop guard, prompt progress, accounting, read-ahead, summary model),
devices/ (placement, back-end probe, processor calibration, native self-test) and experts/
(routing record, slot cache, predictor, prefetch)."""
