"""Documents in a conversation, their Qt side: the flow, the shelf and the document pane."""
