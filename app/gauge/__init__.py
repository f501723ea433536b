"""The speed and memory gauge: its Qt-free model and wording, and the widget."""
