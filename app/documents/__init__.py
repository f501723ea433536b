"""Documents in a conversation: the flow, the shelf and the document pane."""
