"""Korean particles chosen from the word before them, not written "을(를)".

A Korean particle depends on whether the word before it ends in a consonant (batchim):
"모델을" but "카드를". Translations with a name filled in at run time carry both forms
("{name}을(를)"); ``particles`` picks one from the name's last sound once the sentence is
whole. Hangul syllables carry their batchim in their code point; digits and Latin letters
are read as a Korean reader says them ("270m" ends in "엠", "2" in "이"). No library does this
for Python (the Korean NLP packages bring dictionaries for far more); it is a table.
"""

from __future__ import annotations

import re

# both forms as translations write them -> (after a consonant, after a vowel)
PAIRS = {"을(를)": ("을", "를"), "를(을)": ("을", "를"), "이(가)": ("이", "가"),
         "가(이)": ("이", "가"), "은(는)": ("은", "는"), "는(은)": ("은", "는"),
         "과(와)": ("과", "와"), "와(과)": ("과", "와"), "(으)로": ("으로", "로"),
         "(이)라는": ("이라는", "라는"), "(이)라고": ("이라고", "라고"), "(이)나": ("이나", "나")}
PATTERN = re.compile("|".join(re.escape(form) for form in PAIRS))
# read aloud in Korean: 0 영, 1 일, 3 삼, 6 육, 7 칠, 8 팔 end in a consonant; 2 이, 4 사, 5 오, 9 구 not
DIGITS_WITH_BATCHIM = set("013678")
# Latin letters said as Korean syllables: l 엘, m 엠, n 엔 end in a consonant; the rest
# (r 알 is read "아르" in loanwords, e.g. "서버를") in a vowel
LETTERS_WITH_BATCHIM = set("lmnLMN")
SKIPPED = set(")]}”’\"'」』 .")
RIEUL = 8          # ㄹ as the batchim index: "(으)로" after it is "로"


def _last_sound(text: str) -> tuple[bool, bool] | None:
    """(ends in a consonant, that consonant is ㄹ) for the word ending ``text``."""
    for char in reversed(text):
        if char in SKIPPED:
            continue
        if "가" <= char <= "힣":
            batchim = (ord(char) - ord("가")) % 28
            return batchim != 0, batchim == RIEUL
        if char.isdigit():
            return char in DIGITS_WITH_BATCHIM, char in "178"
        if char.isascii() and char.isalpha():
            return char in LETTERS_WITH_BATCHIM, char in "lL"
        return None
    return None


def particles(text: str) -> str:
    """``text`` with each "을(를)"-style pair reduced to the particle its word takes."""
    def choose(found: re.Match) -> str:
        form = found.group(0)
        sound = _last_sound(text[:found.start()])
        if sound is None:
            return form
        consonant, rieul = sound
        after_consonant, after_vowel = PAIRS[form]
        if form == "(으)로" and rieul:
            return after_vowel
        return after_consonant if consonant else after_vowel
    return PATTERN.sub(choose, text)
