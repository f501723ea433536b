"""Writing an answer: the generation loop, sampling defaults, the loop guard, prompt progress,
the run's accounting, reading ahead and the documents' summary model."""
