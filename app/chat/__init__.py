"""The chat: its Qt face (the session's UI events as signals), the message list and the conversation list."""
