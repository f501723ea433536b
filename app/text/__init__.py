"""Words the user reads, in their language: translation, Korean particles, the engine's catalogue and error wording. No Qt."""
