"""A message refused as too long says its own word count, as a plain count of its text gives
it (it said "about 5,420 words" for a text of 6,108)."""

from __future__ import annotations

import pytest

from engine.api import ChatMessage
from engine.errors import MessageTooLongError
from engine.runtime.conversation.context_window import Room, count_words, fit

SYSTEM = ChatMessage("system", "You are a helpful assistant.")


def _tokens(messages) -> int:          # English prose: about 1.18 tokens a word
    return sum(int(len(m.content.split()) * 1.18) + 4 for m in messages)


def test_the_refusal_counts_the_words_of_the_text_itself():
    text = " ".join(f"word{i % 97}," for i in range(6108))
    assert len(text.split()) == 6108
    with pytest.raises(MessageTooLongError) as caught:
        fit((SYSTEM, ChatMessage("user", text)), _tokens, Room(4096, 1024, 0))
    said = str(caught.value.message)
    assert "6,108 words" in said, said
    # the room in words at this text's own rate: (4096 - 16) tokens / 1.18 ≈ 3,460
    assert "about 3,4" in said, said


def test_chinese_and_japanese_count_each_character_korean_its_spaced_words():
    assert count_words("The model reads  every word.\n") == 5
    assert count_words("这条消息太长了。") == 7            # 7 characters; 。 is no word
    assert count_words("日本語のテキスト") == 8
    assert count_words("이 메시지는 너무 깁니다.") == 4     # Korean is written with spaces
    assert count_words("Rotary 模型，很好") == 5           # 1 + 4 characters
