"""The app's conversation models, with no Qt: the conversation store (messages, history,
titles, the model's window) and the request tracker (requests in flight, stop, the message
that waits). app.chat.chat_controller adapts them to Qt signals."""

from app.conversation.requests import Answer, Requests, RequestTracker, Wait
from app.conversation.store import Conversations, ConversationStore, is_document

__all__ = ["Answer", "Conversations", "ConversationStore", "Requests", "RequestTracker", "Wait",
           "is_document"]
