"""The chat: its Qt face (the session's UI events as signals), the message list, the message box (composer) and the conversation list."""
