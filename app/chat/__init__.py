"""The chat: its Qt controller over the conversation models, the message list, the message box (composer) and the conversation list."""
