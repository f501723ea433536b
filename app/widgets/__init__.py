"""Small Qt pieces every window uses: theme, accessibility, notices, help, Markdown rendering."""
