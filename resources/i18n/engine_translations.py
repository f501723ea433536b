"""Korean and Simplified Chinese for the engine's message catalogue (engine/messages.py).

Keys are the English templates exactly; placeholders in braces must be kept as they are
(a test checks both). build_translations.py writes them into the .ts files under the
Qt context ``engine``, where app/messages.py looks them up.
"""

ENGINE_TRANSLATIONS: dict[str, tuple[str, str]] = {  # English: (Korean, Simplified Chinese)
    "No model is loaded yet. Choose a model in Settings.": (
        "아직 불러온 모델이 없습니다. 설정에서 모델을 선택하세요.",
        "尚未加载模型。请在“设置”中选择模型。"),
    "Something went wrong inside the engine.": (
        "엔진 내부에서 문제가 발생했습니다.", "引擎内部出现问题。"),
}
