"""The app's conversation models, with no Qt: the conversation store (messages, history,
titles, the model's window). The requests in flight are app.session's; app.chat.chat_controller
adapts both to Qt signals."""

from app.conversation.chat_text import Wait
from app.conversation.store import Conversations, ConversationStore, is_document

__all__ = ["Conversations", "ConversationStore", "Wait", "is_document"]
