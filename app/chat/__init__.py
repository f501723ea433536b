"""The chat: its Qt controller over the conversation models, the message list and the conversation list."""
