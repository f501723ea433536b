"""An attribute of a Qt adapter that one of its plain models keeps (app.chat.chat_controller)."""

from __future__ import annotations

from typing import Any


class Kept:
    """``name = Kept("store")``: ``owner.store.name``, read and set (methods too) through
    the adapter, so its users need not know which model keeps what."""

    def __init__(self, owner: str) -> None:
        self.owner, self.name = owner, ""

    def __set_name__(self, cls: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: object, cls: type | None = None) -> Any:
        return self if obj is None else getattr(getattr(obj, self.owner), self.name)

    def __set__(self, obj: object, value: object) -> None:
        setattr(getattr(obj, self.owner), self.name, value)
