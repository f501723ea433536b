"""The settings model, the organisation's policy, the office server's fields and the app's folders. No Qt."""
