"""Documents in a conversation, their Qt side: the card's Qt face (the session's document events as signals), the shelf and the document pane."""
