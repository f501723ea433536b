"""Documents: read PDF, Word, text and Markdown files, and summarise them whole or in parts.

extract (file → labelled sections, cached by SHA-256) → split (parts that fit, counted with
the model's tokenizer) → plan (fit or split, time estimate) → summarize (map-reduce on the
engine thread; DocumentRequest in, DocumentInspected/Progress/Finished out). No Qt here.
"""
