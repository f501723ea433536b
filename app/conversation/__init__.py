"""The app's conversation models, with no Qt: the conversation store (messages, history,
titles, the model's window). The requests in flight are app.session's, whose Session owns
both and reports to the screen through one callback (app.chat.chat_controller)."""

from app.conversation.chat_text import Wait
from app.conversation.store import Conversations, ConversationStore, is_document

__all__ = ["Conversations", "ConversationStore", "Wait", "is_document"]
