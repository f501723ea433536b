"""Korean and Simplified Chinese for every string the app passes to ``tr``.

The engine's own messages (engine/messages.py) are translated in one place only,
engine_translations.py; the app shows them through app/text/messages.py ``say``, never ``tr``
(tests/engine/test_messages.py checks that no template is in both tables).

Source of truth for ``build_translations.py``, which runs ``pyside6-lupdate``, fills the
.ts files from this table and compiles them with ``pyside6-lrelease``. Keys are the
English source texts exactly; placeholders in braces must be kept as they are.
"""

TRANSLATIONS: dict[str, tuple[str, str]] = {  # English: (Korean, Simplified Chinese)
    "No model loaded": ("불러온 모델 없음", "尚未加载模型"),
    "Your saved conversations could not be read, so Rotary started a new, empty history. The damaged file was kept next to the new one.": (
        "저장된 대화를 읽을 수 없어 Rotary가 새 빈 기록을 시작했습니다. 손상된 파일은 새 파일 옆에 보관했습니다.",
        "无法读取已保存的对话，因此 Rotary 新建了一个空的历史记录。损坏的文件已保存在新文件旁边。"),
    "Loading: {name}": ("불러오는 중: {name}", "正在加载：{name}"),
    "Model: {name}": ("모델: {name}", "模型：{name}"),
    "There is no conversation to export yet.": ("아직 내보낼 대화가 없습니다.", "还没有可以导出的对话。"),
    "Export conversation": ("대화 내보내기", "导出对话"),
    "Markdown files (*.md)": ("마크다운 파일 (*.md)", "Markdown 文件 (*.md)"),
    "The conversation could not be saved there.": ("그 위치에 대화를 저장할 수 없습니다.", "无法将对话保存到该位置。"),
    "Conversation saved to {path}.": ("대화를 {path}에 저장했습니다.", "对话已保存到 {path}。"),
    "A part of Rotary is missing or damaged. Please reinstall Rotary.": (
        "Rotary의 일부가 없거나 손상되었습니다. Rotary를 다시 설치해 주세요.",
        "Rotary 的某个部分缺失或已损坏。请重新安装 Rotary。"),
    "No model is loaded yet.": ("아직 불러온 모델이 없습니다.", "尚未加载模型。"),
    "The model is not ready yet. Please wait until loading has finished.": (
        "모델이 아직 준비되지 않았습니다. 불러오기가 끝날 때까지 기다려 주세요.",
        "模型尚未就绪。请等待加载完成。"),
    "Reading your message…": ("메시지를 읽는 중…", "正在阅读您的消息…"),
    "Stopping…": ("멈추는 중…", "正在停止…"),
    "Writing the answer…": ("답변을 쓰는 중…", "正在撰写回答…"),
    "Waiting for the previous answer to end…": ("앞의 답변이 끝나기를 기다리는 중…",
                                                "正在等待上一个回答结束…"),
    "You": ("나", "您"),
    "The model began repeating itself, so Rotary stopped it; the repeats are left out.": (
        "모델이 같은 말을 되풀이하기 시작해서 Rotary가 멈췄습니다. 되풀이한 부분은 뺐습니다.",
        "模型开始重复自己的话，Rotary 已将其停止；重复的部分已略去。"),
    "Assistant": ("도우미", "助手"),
    "Answer status": ("답변 상태", "回答状态"),
    "Copy": ("복사", "复制"),
    "Copy this message": ("이 메시지 복사", "复制这条消息"),
    "Edit": ("수정", "编辑"),
    "Edit this message and send it again": ("이 메시지를 수정해서 다시 보내기", "编辑这条消息并重新发送"),
    "Write again": ("다시 쓰기", "重新撰写"),
    "Write this answer again": ("이 답변을 다시 쓰기", "重新撰写这个回答"),
    "Conversation": ("대화", "对话"),
    "Type a message below and press Enter to send it.": (
        "아래에 메시지를 입력하고 Enter 키를 눌러 보내세요.", "在下方输入消息，然后按 Enter 发送。"),
    "Earlier messages are no longer sent to the model: its memory begins here.": (
        "앞의 메시지는 더 이상 모델에 보내지 않습니다. 모델의 기억은 여기서 시작됩니다.",
        "之前的消息不再发送给模型：它的记忆从这里开始。"),
    "What the assistant is doing": ("도우미가 하고 있는 일", "助手正在做什么"),
    "Message": ("메시지", "消息"),
    "Enter sends the message; Shift+Enter starts a new line.": (
        "Enter는 메시지를 보내고, Shift+Enter는 줄을 바꿉니다.", "按 Enter 发送消息；按 Shift+Enter 换行。"),
    "Write your message…": ("메시지를 입력하세요…", "输入您的消息…"),
    "Send": ("보내기", "发送"),
    "Send the message": ("메시지 보내기", "发送消息"),
    "Stop": ("멈추기", "停止"),
    "Stop writing the answer": ("답변 쓰기 멈추기", "停止撰写回答"),
    "Send edited message": ("수정한 메시지 보내기", "发送编辑后的消息"),
    "Editing an earlier message. Press Escape to cancel.": (
        "이전 메시지를 수정하는 중입니다. 취소하려면 Esc 키를 누르세요.", "正在编辑之前的消息。按 Esc 取消。"),
    "You stopped this answer.": ("이 답변을 멈췄습니다.", "您停止了这个回答。"),
    "The answer reached its length limit.": ("답변이 길이 제한에 도달했습니다.", "回答已达到长度上限。"),
    "This answer was not finished. See the notice at the top.": (
        "이 답변은 끝나지 않았습니다. 위쪽 알림을 확인하세요.", "这个回答没有完成。请查看顶部的通知。"),
    "Answer stopped.": ("답변이 멈췄습니다.", "回答已停止。"),
    "Answer finished.": ("답변이 끝났습니다.", "回答已完成。"),
    "Search conversations": ("대화 검색", "搜索对话"),
    "Conversations": ("대화 목록", "对话列表"),
    "New chat": ("새 대화", "新对话"),
    "Start a new chat": ("새 대화 시작", "开始新对话"),
    "Rename": ("이름 바꾸기", "重命名"),
    "Rename the selected conversation": ("선택한 대화의 이름 바꾸기", "重命名所选对话"),
    "Delete": ("삭제", "删除"),
    "Delete the selected conversation": ("선택한 대화 삭제", "删除所选对话"),
    "Rename conversation": ("대화 이름 바꾸기", "重命名对话"),
    "New name:": ("새 이름:", "新名称："),
    "Delete conversation": ("대화 삭제", "删除对话"),
    "Delete “{title}”? This cannot be undone.": (
        "“{title}” 대화를 삭제할까요? 되돌릴 수 없습니다.", "要删除“{title}”吗？此操作无法撤销。"),
    "Graphics memory: unknown (the graphics driver stopped answering)": (
        "그래픽 메모리: 알 수 없음 (그래픽 드라이버가 응답하지 않음)", "显存：未知（显卡驱动停止响应）"),
    "Graphics memory: unknown": ("그래픽 메모리: 알 수 없음", "显存：未知"),
    "Small demo model (always writes the same short message; for trying Rotary only)": (
        "작은 데모 모델 (항상 같은 짧은 메시지를 씀; Rotary 체험용)",
        "小型演示模型（总是写出同一段简短信息；仅用于试用 Rotary）"),
    "The model file was moved or deleted: {path}. Please choose it again.": (
        "모델 파일이 옮겨졌거나 삭제되었습니다: {path}. 다시 선택해 주세요.",
        "模型文件已被移动或删除：{path}。请重新选择。"),
    "Choose a model…": ("모델 선택…", "选择模型…"),
    "Your computer did not have enough memory for the first plan, so Rotary chose a safer one: {what}": (
        "처음 계획에 필요한 메모리가 부족해서 Rotary가 더 안전한 계획을 골랐습니다: {what}",
        "您的电脑内存不足以执行最初的方案，因此 Rotary 选择了更稳妥的方案：{what}"),
    "The model is ready. It uses less graphics memory than planned, so answers may be a little slower.": (
        "모델이 준비되었습니다. 계획보다 그래픽 메모리를 적게 쓰므로 답변이 조금 느릴 수 있습니다.",
        "模型已就绪。它使用的显存比计划少，因此回答可能会稍慢。"),
    "Try the safer setting": ("더 안전한 설정으로 시도", "尝试更稳妥的设置"),
    "Choose another model…": ("다른 모델 선택…", "选择其他模型…"),
    "Rotary closed unexpectedly while loading the model last time. Loading it with the safer setting keeps the whole model in system memory and uses the processor: slower, but it should not crash.": (
        "지난번 모델을 불러오는 중에 Rotary가 예기치 않게 종료되었습니다. 더 안전한 설정은 모델 전체를 시스템 메모리에 두고 프로세서를 사용합니다. 느리지만 멈추지 않을 것입니다.",
        "上次加载模型时 Rotary 意外关闭。更稳妥的设置会把整个模型放在内存中并使用处理器运行：速度较慢，但不应再崩溃。"),
    "Use the safer setting": ("더 안전한 설정 사용", "使用更稳妥的设置"),
    "Try the same setting again": ("같은 설정으로 다시 시도", "用相同设置再试一次"),
    "Loading progress": ("불러오기 진행 상황", "加载进度"),
    "Why a safer setting was chosen": ("더 안전한 설정을 고른 이유", "为什么选择了更稳妥的设置"),
    "Loading {name}…": ("{name} 불러오는 중…", "正在加载 {name}…"),
    "Rotary": ("Rotary", "Rotary"),
    "Current model": ("현재 모델", "当前模型"),
    "&File": ("파일(&F)", "文件(&F)"),
    "&New chat": ("새 대화(&N)", "新对话(&N)"),
    "&Export conversation…": ("대화 내보내기(&E)…", "导出对话(&E)…"),
    "&Settings…": ("설정(&S)…", "设置(&S)…"),
    "&First-time setup…": ("처음 설정(&F)…", "首次设置(&F)…"),
    "&Quit": ("끝내기(&Q)", "退出(&Q)"),
    "&Chat": ("대화(&C)", "对话(&C)"),
    "&Stop the answer": ("답변 멈추기(&S)", "停止回答(&S)"),
    "&Write the last answer again": ("마지막 답변 다시 쓰기(&W)", "重新撰写最后一个回答(&W)"),
    "&Edit my last message": ("내 마지막 메시지 수정(&E)", "编辑我的最后一条消息(&E)"),
    "&Copy the last answer": ("마지막 답변 복사(&C)", "复制最后一个回答(&C)"),
    "&Go": ("이동(&G)", "转到(&G)"),
    "Go to the &message box": ("메시지 입력란으로 이동(&M)", "转到消息输入框(&M)"),
    "&Search conversations": ("대화 검색(&S)", "搜索对话(&S)"),
    "Go to the &conversation list": ("대화 목록으로 이동(&C)", "转到对话列表(&C)"),
    "Go to the &live numbers": ("실시간 수치로 이동(&L)", "转到实时数据(&L)"),
    # ---- new-user round 3 (issue 20): lifecycle, documents, settings, gauge ----
    "Summarise replaces this document's earlier summary, and what followed it in the conversation.": (
        "요약하기를 누르면 이 문서의 이전 요약과 대화에서 그 뒤에 이어진 내용이 바뀝니다.",
        "点击“总结”会替换此文档之前的总结，以及对话中在它之后的内容。"),
    "Measured on this computer with this model and setting, over its last answers: {low}–{high} tokens per second. A token is a piece of a word; words shown are tokens × {ratio}.": (
        "이 컴퓨터에서 이 모델과 설정으로 최근 답변들을 쓸 때 잰 값: 초당 {low}–{high}개 토큰. 토큰은 단어의 조각이며, 표시되는 단어 수는 토큰 × {ratio}입니다.",
        "在这台电脑上用这个模型和设置，根据最近几次回答测得：每秒 {low}–{high} 个 token。token 是词的片段；显示的词数为 token × {ratio}。"),
    "Estimated for this computer: {low}–{high} tokens per second. A token is a piece of a word; words shown are tokens × {ratio}. Rotary measures the real speed during the first answers, and then names one figure.": (
        "이 컴퓨터에 대한 예상: 초당 {low}–{high}개 토큰. 토큰은 단어의 조각이며, 표시되는 단어 수는 토큰 × {ratio}입니다. Rotary는 처음 몇 번의 답변에서 실제 속도를 재고, 그다음부터 하나의 값으로 알려 줍니다.",
        "针对这台电脑的估计：每秒 {low}–{high} 个 token。token 是词的片段；显示的词数为 token × {ratio}。Rotary 会在最初几次回答时测量实际速度，之后给出一个数值。"),
    "This computer's password store did not take the access key, so Rotary keeps it only until it closes. Ask IT to set the store up, or use a server that needs no key.": (
        "이 컴퓨터의 암호 저장소가 접근 키를 받지 않아, Rotary가 닫힐 때까지만 키를 보관합니다. IT 담당자에게 저장소 설정을 요청하거나 키가 필요 없는 서버를 사용하세요.",
        "这台电脑的密码库没有接受访问密钥，因此 Rotary 只在关闭前保留它。请让 IT 人员设置密码库，或使用不需要密钥的服务器。"),
    "This computer has no password store, so Rotary keeps the key only until it closes: type it again after a restart. It is never written to Rotary's files.": (
        "이 컴퓨터에는 암호 저장소가 없어 Rotary가 닫힐 때까지만 키를 보관합니다. 다시 시작한 뒤에는 키를 다시 입력해 주세요. 키는 Rotary의 파일에 절대 기록되지 않습니다.",
        "这台电脑没有密码库，因此 Rotary 只在关闭前保留密钥：重新启动后请再次输入。密钥从不写入 Rotary 的文件。"),
    "Reading the document: about {n} words a second": (
        "문서 읽기: 초당 약 {n}단어",
        "阅读文档：每秒约 {n} 个词"),
    "first word right away": (
        "첫 단어는 바로",
        "第一个词立即出现"),
    "Writing speed: about 1 word a second": ("쓰기 속도: 초당 약 1단어", "写作速度：每秒约 1 个词"),
    "Writing speed: less than 1 word a second": ("쓰기 속도: 초당 1단어 미만",
                                                 "写作速度：每秒不到 1 个词"),
    "Reading the document: about 1 word a second": ("문서 읽기: 초당 약 1단어",
                                                    "阅读文档：每秒约 1 个词"),
    "Reading the document: less than 1 word a second": ("문서 읽기: 초당 1단어 미만",
                                                        "阅读文档：每秒不到 1 个词"),
    "Reading your message: about 1 word a second": ("메시지 읽기: 초당 약 1단어",
                                                    "阅读您的消息：每秒约 1 个词"),
    "Reading your message: less than 1 word a second": ("메시지 읽기: 초당 1단어 미만",
                                                        "阅读您的消息：每秒不到 1 个词"),
    "Conversation memory: not reported by the server": (
        "대화 기억: 서버가 알려 주지 않음",
        "对话记忆：服务器未提供"),
    "Conversation memory: not reported by the server; about {n} words sent so far": (
        "대화 기억: 서버가 알려 주지 않음. 지금까지 약 {n}단어를 보냄",
        "对话记忆：服务器未提供；目前已发送约 {n} 个词"),
    "Context: {used} tokens sent so far, counted by the server; it does not say how many it can hold.": (
        "컨텍스트: 지금까지 {used}토큰을 보냈습니다(서버가 센 값). 서버는 얼마나 담을 수 있는지 알려 주지 않습니다.",
        "上下文：目前已发送 {used} 个 token（由服务器计数）；服务器未说明它能容纳多少。"),
    " tokens": (
        " 토큰",
        " 个 token"),
    "Rotary chooses it for the model and this computer.": (
        "Rotary가 모델과 이 컴퓨터에 맞게 정합니다.",
        "由 Rotary 根据模型和这台电脑来决定。"),
    "About {n} words of the conversation.": (
        "대화의 약 {n}단어 분량입니다.",
        "约为对话中的 {n} 个词。"),
    "Stopped when the model was changed.": (
        "모델을 바꿀 때 멈췄습니다.",
        "更换模型时已停止。"),
    "Stopped when Rotary was closed.": (
        "Rotary를 닫을 때 멈췄습니다.",
        "关闭 Rotary 时已停止。"),
    "The model on the office server ended its answer at once. Its chat template may not suit this model: ask your IT contact.": (
        "사무실 서버의 모델이 답변을 바로 끝냈습니다. 대화 형식(채팅 템플릿)이 이 모델에 맞지 않을 수 있습니다. IT 담당자에게 문의해 주세요.",
        "办公室服务器上的模型立即结束了回答。它的对话格式（聊天模板）可能不适合这个模型，请联系您的 IT 人员。"),
    "“{name}” looks like a base model: it has no chat template, so it may not know how to answer. Choose a model whose name contains “Instruct” or “Chat” in Settings.": (
        "“{name}”은(는) 기본 모델로 보입니다. 대화 형식(채팅 템플릿)이 없어 답하는 법을 모를 수 있습니다. 설정에서 이름에 “Instruct”나 “Chat”이 들어간 모델을 골라 주세요.",
        "“{name}”看起来是基础模型：它没有对话格式（聊天模板），可能不知道如何回答。请在设置中选择名称含有“Instruct”或“Chat”的模型。"),
    "It ended its answer at once; its chat template may not suit it. Try Write again, or another model in Settings.": (
        "답변을 바로 끝냈습니다. 대화 형식(채팅 템플릿)이 이 모델에 맞지 않을 수 있습니다. 다시 쓰기를 눌러 보거나 설정에서 다른 모델을 골라 주세요.",
        "它立即结束了回答，其对话格式（聊天模板）可能不适合它。请试试“重新撰写”，或在设置中换一个模型。"),
    "The model gave no answer.": (
        "모델이 답변을 하지 않았습니다.",
        "模型没有给出回答。"),
    "The document is no longer at {path}. Attach it again to summarise it.": (
        "문서가 더 이상 {path}에 없습니다. 요약하려면 다시 첨부해 주세요.",
        "文档已不在 {path}。请重新附加它以进行总结。"),
    "I asked: {question}": (
        "요청한 내용: {question}",
        "我的要求：{question}"),
    "Fits well.": ("잘 맞습니다.", "非常合适。"),
    "Fits, but only just.": ("맞지만 여유가 거의 없습니다.", "能够运行，但余量很小。"),
    "Too big for this computer.": ("이 컴퓨터에는 너무 큽니다.", "对这台电脑来说太大了。"),
    "Model file": ("모델 파일", "模型文件"),
    "Browse…": ("찾아보기…", "浏览…"),
    "Browse for a model file": ("모델 파일 찾아보기", "浏览模型文件"),
    "Does the model fit": ("모델이 맞는지 여부", "模型是否合适"),
    "Choose a model file": ("모델 파일 선택", "选择模型文件"),
    "Language models (*.gguf)": ("언어 모델 (*.gguf)", "语言模型 (*.gguf)"),
    "Notice": ("알림", "通知"),
    "Copy details": ("자세한 내용 복사", "复制详细信息"),
    "Copy the details of this notice": ("이 알림의 자세한 내용 복사", "复制此通知的详细信息"),
    "Dismiss": ("닫기", "关闭"),
    "Dismiss this notice": ("이 알림 닫기", "关闭此通知"),
    "Something went wrong inside Rotary. Your conversations are safe. If it happens again, copy the details for your IT contact.": (
        "Rotary 내부에서 문제가 생겼습니다. 대화 내용은 안전합니다. 다시 발생하면 자세한 내용을 복사해 IT 담당자에게 전달하세요.",
        "Rotary 内部出现问题。您的对话是安全的。如果再次发生，请复制详细信息并发给 IT 联系人。"),
    "Something went wrong inside Rotary.": ("Rotary 내부에서 문제가 생겼습니다.", "Rotary 内部出现问题。"),
    "model file": ("모델 파일", "模型文件"),
    "system prompt": ("시스템 프롬프트", "系统提示词"),
    "language": ("언어", "语言"),
    "first-time setup": ("처음 설정", "首次设置"),
    "The saved {what} was not valid, so the default was restored.": (
        "저장된 {what} 값이 올바르지 않아 기본값으로 되돌렸습니다.", "保存的{what}无效，已恢复为默认值。"),
    "Your settings file could not be read, so the default settings were restored.": (
        "설정 파일을 읽을 수 없어 기본 설정으로 되돌렸습니다.", "无法读取您的设置文件，已恢复默认设置。"),
    "The old file was kept as {name}.": ("이전 파일은 {name}(으)로 보관했습니다.", "旧文件已保存为 {name}。"),
    "Automatic": ("자동", "自动"),
    "Settings": ("설정", "设置"),
    "Language": ("언어", "语言"),
    "Same as the system": ("시스템과 같게", "与系统相同"),
    "Model file:": ("모델 파일:", "模型文件："),
    "Language:": ("언어:", "语言："),
    "A new language is used after restarting Rotary.": (
        "새 언어는 Rotary를 다시 시작한 뒤에 적용됩니다.", "新语言将在重新启动 Rotary 后生效。"),
    "Colours follow your system's light or dark setting.": (
        "색상은 시스템의 밝은/어두운 모드 설정을 따릅니다.", "颜色跟随系统的浅色或深色设置。"),
    "Run first-time setup again": ("처음 설정 다시 실행", "重新运行首次设置"),
    "Advanced": ("고급", "高级"),
    "{size} GB of system memory": ("시스템 메모리 {size} GB", "{size} GB 内存"),
    "Found the graphics card {name} with {vram} GB of graphics memory, and {ram}.": (
        "그래픽 카드 {name}(그래픽 메모리 {vram} GB)와 {ram}를 찾았습니다.",
        "找到显卡 {name}（显存 {vram} GB），以及 {ram}。"),
    "Your computer": ("내 컴퓨터", "您的电脑"),
    "Looking at your computer…": ("컴퓨터를 살펴보는 중…", "正在检查您的电脑…"),
    "What Rotary found on this computer": ("Rotary가 이 컴퓨터에서 찾은 것", "Rotary 在这台电脑上找到的内容"),
    "Choose a model": ("모델 선택", "选择模型"),
    "Use the small demo model": ("작은 데모 모델 사용", "使用小型演示模型"),
    "Use the small demo model, which always writes the same short message and is only for trying Rotary": (
        "항상 같은 짧은 메시지를 쓰는 Rotary 체험용 작은 데모 모델 사용",
        "使用小型演示模型（总是写出同一段简短信息，仅用于试用 Rotary）"),
    "The demo model is tiny and always writes the same short message. It only shows how Rotary works; it cannot answer questions.": (
        "데모 모델은 아주 작고 항상 같은 짧은 메시지를 씁니다. Rotary가 어떻게 작동하는지만 보여 주며, 질문에 답하지는 못합니다.",
        "演示模型很小，总是写出同一段简短信息。它只用来展示 Rotary 的工作方式，不能回答问题。"),
    "Choose one of the models found on this computer, or another model file (.gguf) with Other file…, or drag it onto this window.": (
        "이 컴퓨터에서 찾은 모델 중 하나를 고르거나, ‘다른 파일…’로 다른 모델 파일(.gguf)을 선택하거나, 이 창으로 끌어다 놓으세요.",
        "从在这台电脑上找到的模型中选择一个，或用“其他文件…”选择另一个模型文件（.gguf），或将其拖到此窗口。"),
    "Ready": ("준비 완료", "准备就绪"),
    "Set up Rotary": ("Rotary 설정", "设置 Rotary"),
    "Rotary could not look at this computer's hardware. You can still continue.": (
        "Rotary가 이 컴퓨터의 하드웨어를 확인하지 못했습니다. 그래도 계속할 수 있습니다.",
        "Rotary 无法检查这台电脑的硬件。您仍然可以继续。"),
    "Rotary will use {recipe}.": ("Rotary는 {recipe}을(를) 사용합니다.", "Rotary 将使用{recipe}。"),
    "the small demo model": ("작은 데모 모델", "小型演示模型"),
    "Rotary will use {name} with {recipe}. You can change this later in Settings.": (
        "Rotary는 {name}을(를) {recipe}(으)로 사용합니다. 나중에 설정에서 바꿀 수 있습니다.",
        "Rotary 将以{recipe}使用 {name}。您之后可以在设置中更改。"),
    'Answer variety': (
        '답변의 다양성',
        '回答的多样性'),
    'Answer variety:': (
        '답변의 다양성:',
        '回答的多样性：'),
    'Answered from the graphics card: {pct}%': (
        '그래픽 카드에서 처리: {pct}%',
        '由显卡处理：{pct}%'),
    'Choose a model file, or drop it here': (
        '모델 파일을 선택하거나 여기에 끌어다 놓으세요',
        '选择模型文件，或拖放到这里'),
    'Now: the small demo model. Choose a model file, or drop it here': (
        '지금은 작은 데모 모델입니다. 모델 파일을 선택하거나 여기에 끌어다 놓으세요',
        '当前：小型演示模型。选择模型文件，或拖放到这里'),
    'Context length, in tokens (pieces of words): how much of the conversation the model can see at once. More uses more memory.': (
        '컨텍스트 길이(토큰 단위, 토큰은 단어의 조각): 모델이 한 번에 볼 수 있는 대화의 양입니다. 늘리면 메모리를 더 씁니다.',
        '上下文长度（以 token 计，token 是词的片段）：模型一次能看到多少对话内容。越大占用的内存越多。'),
    'Context: {used} of {size} tokens used, measured by the engine.': (
        '컨텍스트: {size}개 토큰 중 {used}개 사용 (엔진이 측정).',
        '上下文：已使用 {used} / {size} 个 token（由引擎测得）。'),
    'Conversation memory': (
        '대화 기억',
        '对话记忆'),
    'Conversation memory:': (
        '대화 기억:',
        '对话记忆：'),
    'Conversation memory: about {n} words left': (
        '대화 기억: 약 {n}단어 남음',
        '对话记忆：约剩 {n} 个词'),
    'Conversation memory: no model loaded': (
        '대화 기억: 불러온 모델 없음',
        '对话记忆：尚未加载模型'),
    'Conversation memory: shown after the next answer': (
        '대화 기억: 다음 답변 후에 표시',
        '对话记忆：下一次回答后显示'),
    'Expert hit rate, measured by the engine: the share of expert work whose experts were already in graphics memory.': (
        '전문가 적중률(엔진이 측정): 필요한 전문가가 이미 그래픽 메모리에 있던 작업의 비율.',
        '专家命中率（由引擎测得）：所需专家已在显存中的专家计算所占比例。'),
    'Expert layers on the GPU: how many layers keep their experts in graphics memory. More is faster but needs more graphics memory.': (
        'GPU의 전문가 레이어: 전문가를 그래픽 메모리에 두는 레이어 수입니다. 많을수록 빠르지만 그래픽 메모리가 더 필요합니다.',
        'GPU 上的专家层：有多少层把专家放在显存中。越多越快，但需要更多显存。'),
    'GGUF: the file format of models for llama.cpp. Such files end in .gguf.': (
        'GGUF: llama.cpp용 모델 파일 형식입니다. 이런 파일은 .gguf로 끝납니다.',
        'GGUF：llama.cpp 使用的模型文件格式。这类文件以 .gguf 结尾。'),
    'Graphics memory (VRAM), measured by the NVIDIA driver: {ours}, other programs {other} GB, free {free} GB of {total} GB.': (
        '그래픽 메모리(VRAM, NVIDIA 드라이버가 측정): {ours}, 다른 프로그램 {other} GB, 여유 {free} GB / 전체 {total} GB.',
        '显存（VRAM，由 NVIDIA 驱动测得）：{ours}，其他程序 {other} GB，空闲 {free} GB，共 {total} GB。'),
    'Graphics memory: {used} of {total} GB in use': (
        '그래픽 메모리: {total} GB 중 {used} GB 사용 중',
        '显存：已用 {used} / {total} GB'),
    'How it is running': (
        '실행 상태',
        '运行情况'),
    'How the model is running': (
        '모델의 실행 상태',
        '模型的运行情况'),
    'Measured by the engine: writing {w} tokens per second, reading {r} tokens per second. A token is a piece of a word; words shown here are tokens × {ratio}.': (
        '엔진이 측정: 쓰기 초당 {w}개 토큰, 읽기 초당 {r}개 토큰. 토큰은 단어의 조각이며, 여기 표시되는 단어 수는 토큰 × {ratio}입니다.',
        '由引擎测得：写入每秒 {w} 个 token，读取每秒 {r} 个 token。token 是词的片段；这里显示的词数为 token × {ratio}。'),
    'Memory recipe (preset): how the model is shared between the graphics card and system memory.': (
        '메모리 구성(프리셋): 모델을 그래픽 카드와 시스템 메모리에 어떻게 나눌지 정합니다.',
        '内存方案（预设）：模型如何分配到显卡和系统内存。'),
    'Model parts on the graphics card': (
        '그래픽 카드에 두는 모델 부분',
        '放在显卡上的模型部分'),
    'Model parts on the graphics card:': (
        '그래픽 카드에 두는 모델 부분:',
        '放在显卡上的模型部分：'),
    '{why} This computer has {ram}.': (
        '{why} 이 컴퓨터에는 {ram}가 있습니다.',
        '{why}这台电脑有 {ram}。'),
    'No graphics card was found, so models will run on the processor. This computer has {ram}.': (
        '그래픽 카드가 없어 모델은 프로세서에서 실행됩니다. 이 컴퓨터에는 {ram}가 있습니다.',
        '未找到显卡，因此模型将在处理器上运行。这台电脑有 {ram}。'),
    'No graphics card: the model runs on the processor.': (
        '그래픽 카드 없음: 모델이 프로세서에서 실행됩니다.',
        '没有显卡：模型在处理器上运行。'),
    'Processor cores to use': (
        '사용할 프로세서 코어',
        '使用的处理器核心'),
    'Processor cores to use:': (
        '사용할 프로세서 코어:',
        '使用的处理器核心：'),
    'Processor threads.': (
        '프로세서 스레드.',
        '处理器线程。'),
    'Reading your message: about {n} words a second': (
        '메시지 읽기: 초당 약 {n}단어',
        '阅读您的消息：每秒约 {n} 个词'),
    'Resident memory (RSS) of the Rotary process, measured by the operating system.': (
        'Rotary 프로세스의 상주 메모리(RSS), 운영체제가 측정.',
        'Rotary 进程的常驻内存（RSS），由操作系统测得。'),
    'Rotary is closing.': (
        'Rotary를 닫는 중입니다.',
        'Rotary 正在关闭。'),
    'Rotary {gb} GB': (
        'Rotary {gb} GB',
        'Rotary {gb} GB'),
    "Rotary's share not reported": (
        'Rotary 사용량은 보고되지 않음',
        '未报告 Rotary 的占用'),
    'Setting for this computer': (
        '이 컴퓨터용 설정',
        '适合这台电脑的设置'),
    'Setting for this computer:': (
        '이 컴퓨터용 설정:',
        '适合这台电脑的设置：'),
    'Speeds are measured by the engine while it writes an answer.': (
        '속도는 엔진이 답변을 쓰는 동안 측정합니다.',
        '速度由引擎在撰写回答时测得。'),
    'Standing instructions': (
        '고정 지시문',
        '固定指示'),
    'Standing instructions:': (
        '고정 지시문:',
        '固定指示：'),
    'System memory used by Rotary: unknown': (
        'Rotary가 쓰는 시스템 메모리: 알 수 없음',
        'Rotary 使用的系统内存：未知'),
    'System memory used by Rotary: {size} GB': (
        'Rotary가 쓰는 시스템 메모리: {size} GB',
        'Rotary 使用的系统内存：{size} GB'),
    'System prompt: text the model reads before every conversation.': (
        '시스템 프롬프트: 모델이 모든 대화 전에 읽는 글입니다.',
        '系统提示词：模型在每次对话前阅读的文字。'),
    'Temperature: lower gives steadier answers, higher gives more varied ones.': (
        '온도(temperature): 낮으면 답변이 안정적이고, 높으면 더 다양해집니다.',
        '温度（temperature）：越低回答越稳定，越高回答越多样。'),
    'This computer has no NVIDIA graphics card, so everything runs on the processor.': (
        '이 컴퓨터에는 NVIDIA 그래픽 카드가 없어 모든 작업이 프로세서에서 실행됩니다.',
        '这台电脑没有 NVIDIA 显卡，因此全部在处理器上运行。'),
    'This model is not made of experts, so this does not apply.': (
        '이 모델은 전문가(expert)로 나뉘어 있지 않아 이 설정이 적용되지 않습니다.',
        '这个模型不是由专家组成的，因此此项不适用。'),
    'Writing speed: about {n} words a second': (
        '쓰기 속도: 초당 약 {n}단어',
        '写作速度：每秒约 {n} 个词'),
    'Writing speed: shown while an answer is written': (
        '쓰기 속도: 답변을 쓰는 동안 표시',
        '写作速度：撰写回答时显示'),
    'answer variety': (
        '답변의 다양성',
        '回答的多样性'),
    'conversation memory': (
        '대화 기억',
        '对话记忆'),
    'first word after {s} s': (
        '{s}초 후 첫 단어',
        '{s} 秒后出现第一个词'),
    'in use by all programs': (
        '모든 프로그램이 사용 중',
        '所有程序正在使用'),
    'others {gb} GB': (
        '기타 {gb} GB',
        '其他 {gb} GB'),
    'parts of the model on the graphics card': (
        '그래픽 카드에 두는 모델 부분',
        '放在显卡上的模型部分'),
    'processor cores used': (
        '사용하는 프로세서 코어',
        '使用的处理器核心'),
    'setting for this computer': (
        '이 컴퓨터용 설정',
        '适合这台电脑的设置'),
    'About this model': (
        '이 모델에 대하여',
        '关于这个模型'),
    'This answer is still being written…': (
        '이 답변은 아직 작성 중입니다…',
        '这个回答仍在撰写中…'),
    'This answer was cut off when Rotary closed unexpectedly.': (
        'Rotary가 예기치 않게 닫혀 이 답변이 중간에 끊겼습니다.',
        'Rotary 意外关闭，这个回答被中断了。'),
    'This answer was not finished.': (
        '이 답변은 끝나지 않았습니다.',
        '这个回答没有完成。'),
    'This model': (
        '이 모델',
        '这个模型'),
    'Write an answer to this message': (
        '이 메시지에 대한 답변 쓰기',
        '为这条消息撰写回答'),
    '“{name}” looks like a base model: it was not trained to chat, so it may continue your text instead of answering it. For a helpful assistant, choose a model whose name contains “Instruct” or “Chat” in Settings.': (
        '“{name}”은(는) 기본 모델로 보입니다. 대화용으로 학습되지 않아 질문에 답하는 대신 글을 이어 쓸 수 있습니다. 도움이 되는 도우미를 원하시면 설정에서 이름에 “Instruct” 또는 “Chat”이 들어간 모델을 선택하세요.',
        '“{name}”看起来是一个基础模型：它没有经过对话训练，可能会接着写您的文字，而不是回答。若想要一个有用的助手，请在“设置”中选择名称包含“Instruct”或“Chat”的模型。'),
    'The model runs on the office server, not on this computer.': (
        '모델은 이 컴퓨터가 아니라 사무실 서버에서 실행됩니다.',
        '模型在办公室服务器上运行，而不是在这台电脑上。'),
    'Access key (leave empty if the server needs none)': (
        '접근 키 (서버에 필요 없으면 비워 두세요)',
        '访问密钥（服务器不需要时请留空）'),
    'Access key:': (
        '접근 키:',
        '访问密钥：'),
    'Address:': (
        '주소:',
        '地址：'),
    'An office server': (
        '사무실 서버',
        '办公室服务器'),
    'Anything to look for? (optional)': (
        '특별히 찾을 내용이 있나요? (선택)',
        '有什么需要特别关注的吗？（可选）'),
    'Ask the server for its models': (
        '서버에 모델 목록 요청',
        '向服务器查询可用模型'),
    'Attach…': (
        '첨부…',
        '附加…'),
    'Certificates (*.pem *.crt *.cer);;All files (*)': (
        '인증서 (*.pem *.crt *.cer);;모든 파일 (*)',
        '证书 (*.pem *.crt *.cer);;所有文件 (*)'),
    "Check the server's security certificate (recommended)": (
        '서버의 보안 인증서 확인 (권장)',
        '检查服务器的安全证书（推荐）'),
    'Document': (
        '문서',
        '文档'),
    'Document: {name} — {found}\n{style}': (
        '문서: {name} — {found}\n{style}',
        '文档：{name} — {found}\n{style}'),
    'Documents ({patterns})': (
        '문서 ({patterns})',
        '文档 ({patterns})'),
    'Kind of summary': (
        '요약 종류',
        '总结类型'),
    'Looking at the document…': (
        '문서를 살펴보는 중…',
        '正在查看文档…'),
    'Model on the office server': (
        '사무실 서버의 모델',
        '办公室服务器上的模型'),
    'Model:': (
        '모델:',
        '模型：'),
    'My office has a model server: use it instead…': (
        '사무실에 모델 서버가 있습니다: 대신 사용하기…',
        '我的办公室有模型服务器：改用它…'),
    'Office certificate:': (
        '사무실 인증서:',
        '办公室证书：'),
    'Office server address': (
        '사무실 서버 주소',
        '办公室服务器地址'),
    'Parts of the document read': (
        '읽은 문서 부분',
        '已阅读的文档部分'),
    'Please wait until the current answer is finished.': (
        '지금 답변이 끝날 때까지 기다려 주세요.',
        '请等待当前回答完成。'),
    'Reading progress': (
        '읽기 진행 상황',
        '阅读进度'),
    'Reading the document…': (
        '문서를 읽는 중…',
        '正在阅读文档…'),
    'Rotary reads PDF, Word (.docx), text and Markdown files.': (
        'Rotary는 PDF, Word(.docx), 텍스트, 마크다운 파일을 읽습니다.',
        'Rotary 可以读取 PDF、Word（.docx）、文本和 Markdown 文件。'),
    'Stop reading; keep what was read so far': (
        '읽기 멈추기; 지금까지 읽은 내용은 유지',
        '停止阅读；保留目前已读的内容'),
    'Summarise': (
        '요약하기',
        '总结'),
    'Summarise the document': (
        '문서 요약하기',
        '总结文档'),
    "The key is kept in this computer's password store, not in Rotary's files.": (
        '키는 Rotary 파일이 아니라 이 컴퓨터의 암호 저장소에 보관됩니다.',
        '密钥保存在这台电脑的密码库中，而不是 Rotary 的文件里。'),
    "The office's certificate file": (
        '사무실 인증서 파일',
        '办公室的证书文件'),
    "The office's certificate file (optional)": (
        '사무실 인증서 파일 (선택)',
        '办公室的证书文件（可选）'),
    'This computer': (
        '이 컴퓨터',
        '这台电脑'),
    'This copy of Rotary cannot use an office server.': (
        '이 Rotary는 사무실 서버를 사용할 수 없습니다.',
        '这个 Rotary 副本无法使用办公室服务器。'),
    'Try again': (
        '다시 시도',
        '重试'),
    "Type the server's address, for example https://ai.office.lan:8000.": (
        '서버 주소를 입력하세요. 예: https://ai.office.lan:8000',
        '请输入服务器地址，例如 https://ai.office.lan:8000。'),
    "Use the office's model server instead of this computer": (
        '이 컴퓨터 대신 사무실 모델 서버 사용',
        '使用办公室的模型服务器，而不是这台电脑'),
    'What the summary should focus on': (
        '요약에서 중점을 둘 내용',
        '总结应关注的内容'),
    'What was found in the document': (
        '문서에서 찾은 내용',
        '在文档中发现的内容'),
    'Where the model runs': (
        '모델이 실행되는 곳',
        '模型运行的位置'),
    'Where your conversations are sent': (
        '대화가 보내지는 곳',
        '您的对话发送到哪里'),
    'Without this check, someone on the network could pretend to be the server and read your conversations.': (
        '이 확인이 없으면 네트워크의 누군가가 서버인 척하고 대화를 읽을 수 있습니다.',
        '如果不检查，网络上的其他人可能冒充服务器并读取您的对话。'),
    'Your conversations are sent to {address} and answered by the model there. Nothing is sent anywhere else.': (
        '대화는 {address}(으)로 보내져 그곳의 모델이 답합니다. 다른 곳으로는 아무것도 보내지 않습니다.',
        '您的对话会发送到 {address}，由那里的模型回答。不会发送到其他任何地方。'),
    'Your conversations stay on this computer. Rotary opens no network connection.': (
        '대화는 이 컴퓨터에만 남습니다. Rotary는 네트워크 연결을 열지 않습니다.',
        '您的对话只留在这台电脑上。Rotary 不会打开任何网络连接。'),
    'office certificate file': (
        '사무실 인증서 파일',
        '办公室证书文件'),
    'office server address': (
        '사무실 서버 주소',
        '办公室服务器地址'),
    'office server certificate check': (
        '사무실 서버 인증서 확인',
        '办公室服务器证书检查'),
    'office server model': (
        '사무실 서버 모델',
        '办公室服务器模型'),
    'where the model runs': (
        '모델이 실행되는 곳',
        '模型运行的位置'),
    '{model} on the office server': (
        '사무실 서버의 {model}',
        '办公室服务器上的 {model}'),
    'This word: {hits} of {all} experts from the graphics card; {mb} MB copied there during this answer.': (
        '이번 단어: 전문가 {all}개 중 {hits}개를 그래픽 카드에서 처리; 이 답변 동안 {mb} MB를 그곳으로 복사.',
        '这个词：{all} 个专家中有 {hits} 个由显卡处理；本次回答期间向显卡复制了 {mb} MB。'),
    "Check my computer": ("내 컴퓨터 점검", "检查我的电脑"),
    "Checking…": ("점검 중…", "正在检查…"),
    "Everything works: Rotary wrote a short answer with its demo model, can save your conversations and settings, and used no network.": (
        "모두 정상입니다: Rotary가 데모 모델로 짧은 답변을 썼고, 대화와 설정을 저장할 수 있으며, 네트워크를 사용하지 않았습니다.",
        "一切正常：Rotary 用演示模型写出了一段简短回答，可以保存您的对话和设置，并且没有使用网络。"),
    "Rotary found a problem on this computer ({names}). Please copy the details for your IT contact.": (
        "Rotary가 이 컴퓨터에서 문제를 발견했습니다 ({names}). 자세한 내용을 복사해 IT 담당자에게 전달해 주세요.",
        "Rotary 在这台电脑上发现了问题（{names}）。请复制详细信息并发给您的 IT 联系人。"),
    "Writes a short test answer with the demo model, checks that conversations and settings can be saved, and that nothing went to the network.": (
        "데모 모델로 짧은 시험 답변을 쓰고, 대화와 설정을 저장할 수 있는지, 네트워크로 아무것도 나가지 않았는지 확인합니다.",
        "用演示模型写一段简短的测试回答，检查对话和设置能否保存，以及没有任何内容发送到网络。"),
    "Per layer, in order: {shares}.": ("층별, 순서대로: {shares}.", "按层依次：{shares}。"),
    # The documents of a conversation (app/documents/document_shelf.py, app/documents/document_view.py).
    "built-in accelerators": ("내장 가속 기능", "内置加速功能"),
    'reading scanned pages': (
        '스캔한 쪽 읽기',
        '读取扫描页面'),
    'Add documents to ask about or summarise (PDF, Word, text)': (
        '질문하거나 요약할 문서 추가(PDF, Word, 텍스트)',
        '添加要提问或总结的文档（PDF、Word、文本）'),
    'Ask a question about it below, or choose a summary:': (
        '아래에서 이 문서에 대해 질문하거나 요약 방식을 고르세요:',
        '可在下方就此文档提问，或选择一种总结：'),
    'Choose documents': (
        '문서 선택',
        '选择文档'),
    'Close': (
        '닫기',
        '关闭'),
    'Close this card; the document stays in the conversation': (
        '이 카드를 닫습니다. 문서는 대화에 남아 있습니다',
        '关闭此卡片；文档仍保留在对话中'),
    'Document {name}': (
        '문서 {name}',
        '文档 {name}'),
    'Documents in this conversation': (
        '이 대화의 문서',
        '此对话中的文档'),
    'Documents in this conversation (questions search them all):': (
        '이 대화의 문서(질문하면 모두에서 찾습니다):',
        '此对话中的文档（提问时会搜索全部）：'),
    'Summarise {name}': (
        '{name} 요약',
        '总结 {name}'),
    'Summarise…': (
        '요약…',
        '总结…'),
    'Remove {name} from this conversation': (
        '이 대화에서 {name} 제거',
        '从此对话中移除 {name}'),
    'Questions will no longer search it. The file itself is not deleted.': (
        '질문할 때 더 이상 이 문서에서 찾지 않습니다. 파일 자체는 삭제되지 않습니다.',
        '提问时将不再搜索此文档。文件本身不会被删除。'),
    # The self-test's checks, named in its failure message (app/setup/selftest.py: check_titles).
    'settings folder': (
        '설정 폴더',
        '设置文件夹'),
    'history folder': (
        '대화 기록 폴더',
        '对话记录文件夹'),
    'demo model': (
        '데모 모델',
        '演示模型'),
    'engine': (
        '엔진',
        '引擎'),
    'working without the network': (
        '네트워크 없이 작동',
        '不使用网络运行'),
    'showing the window': (
        '창 표시',
        '显示窗口'),
    # Engine errors by kind (app/text/error_text.py); the engine's English goes to the details.
    'The model file cannot be opened. Check that it is still there and that you may read it.': (
        '모델 파일을 열 수 없습니다. 파일이 아직 그 자리에 있는지, 읽을 권한이 있는지 확인해 주세요.',
        '无法打开模型文件。请确认文件仍在原处，并且您有读取权限。'),
    'Rotary cannot run this kind of model yet.': (
        'Rotary는 아직 이런 종류의 모델을 실행할 수 없습니다.',
        'Rotary 目前还无法运行这类模型。'),
    'This computer does not have enough memory for this model, even with the smallest settings.': (
        '가장 작은 설정으로도 이 컴퓨터의 메모리가 이 모델에 부족합니다.',
        '即使使用最小的设置，这台电脑的内存也不足以运行此模型。'),
    'The model could not be loaded.': (
        '모델을 불러올 수 없었습니다.',
        '无法加载模型。'),
    'Something went wrong while writing the answer.': (
        '답변을 쓰는 중에 문제가 생겼습니다.',
        '撰写回答时出了问题。'),
    'Something went wrong between this computer and the office server.': (
        '이 컴퓨터와 사무실 서버 사이에 문제가 생겼습니다.',
        '这台电脑与办公室服务器之间出了问题。'),
    'This document is too large for Rotary.': (
        '이 문서는 Rotary가 다루기에 너무 큽니다.',
        '此文档对 Rotary 来说太大了。'),
    'This document is protected by a password. Save a copy without the password and try again.': (
        '이 문서는 암호로 보호되어 있습니다. 암호 없는 사본을 저장한 뒤 다시 시도해 주세요.',
        '此文档受密码保护。请另存一份不带密码的副本后再试。'),
    'This PDF holds only pictures of its pages (a scan), so there is no text to read.': (
        '이 PDF에는 쪽의 그림(스캔)만 있어 읽을 글자가 없습니다.',
        '此 PDF 只包含页面图片（扫描件），没有可读取的文字。'),
    'This document is damaged, or is not what its name says.': (
        '이 문서는 손상되었거나 이름과 다른 종류의 파일입니다.',
        '此文档已损坏，或与其文件名所示的类型不符。'),
    'This document has no text to read.': (
        '이 문서에는 읽을 글자가 없습니다.',
        '此文档没有可读取的文字。'),
    'This document cannot be summarised.': (
        '이 문서는 요약할 수 없습니다.',
        '无法总结此文档。'),
    # ---- thinking, Think before answering, the model's own sampling (fmt28) -------------
    "Thinking…": ("생각하는 중…", "思考中…"),
    "What the model thought": ("모델이 생각한 내용", "模型的思考内容"),
    "Shows or hides what the model thought before answering": (
        "모델이 답하기 전에 생각한 내용을 보이거나 숨깁니다",
        "显示或隐藏模型在回答前的思考内容"),
    "&Think before answering": ("답하기 전에 생각하기(&T)", "回答前先思考(&T)"),
    "Use the model's own answer variety": ("모델 자체의 답변 다양성 사용", "使用模型自带的回答多样性"),
    "The office server applies its own for its model.": (
        "사무실 서버가 그 모델에 맞는 자체 값을 씁니다.", "办公室服务器会为其模型使用自己的设置。"),
    "Known once a model is loaded.": ("모델을 불러오면 알 수 있습니다.", "加载模型后即可得知。"),
    "the model's own answer variety": ("모델 자체의 답변 다양성", "模型自带的回答多样性"),
    # Issue 29: errors where the user acts, waiting said, names, the server's side panel.
    'What the server said': (
        '서버의 응답',
        '服务器的答复'),
    'Small demo model': (
        '작은 데모 모델',
        '小型演示模型'),
    'writing an answer': (
        '답변 작성 중',
        '正在撰写回答'),
    'waiting for the other answer': (
        '다른 답변을 기다리는 중',
        '正在等待另一个回答'),
    'Waiting for the other answer…': (
        '다른 답변이 끝나기를 기다리는 중…',
        '正在等待另一个回答结束…'),
    'Your question will be sent when the document has been read: “{text}”': (
        '문서를 다 읽으면 질문을 보냅니다: “{text}”',
        '文档读完后将发送您的问题：“{text}”'),
    'Waiting for the model to finish loading before reading.': (
        '읽기 전에 모델 불러오기가 끝나기를 기다리는 중입니다.',
        '正在等待模型加载完成，然后开始读取。'),
    'The model could not be loaded. Reading starts as soon as a model has loaded.': (
        '모델을 불러올 수 없었습니다. 모델을 불러오는 대로 읽기 시작합니다.',
        '无法加载模型。模型一加载完成就开始读取。'),
    "Don't read": (
        '읽지 않기',
        '不读取'),
    "Don't read the documents waiting for the model": (
        '모델을 기다리는 문서를 읽지 않습니다',
        '不读取正在等待模型的文档'),
    'Your message will be sent when this answer is finished: “{text}”': (
        '이 답변이 끝나면 메시지를 보냅니다: “{text}”',
        '此回答完成后将发送您的消息：“{text}”'),
    'A message is already waiting to be sent; send this one when its answer has begun.': (
        '보낼 메시지가 이미 하나 기다리고 있습니다. 그 답변이 시작되면 이 메시지를 보내세요.',
        '已有一条消息在等待发送；请在其回答开始后再发送这一条。'),
    'Message waiting to be sent': (
        '보내기를 기다리는 메시지',
        '等待发送的消息'),
    "Don't send": (
        '보내지 않기',
        '不发送'),
    "Don't send the waiting message; put it back in the message box": (
        '기다리는 메시지를 보내지 않고 메시지 입력란으로 되돌립니다',
        '不发送等待中的消息；将其放回消息框'),
    'Your question was not sent: “{text}”. Send it again where you want the answer.': (
        '질문을 보내지 않았습니다: “{text}”. 답변을 받을 대화에서 다시 보내세요.',
        '您的问题未发送：“{text}”。请在需要回答的对话中重新发送。'),
    'The office server cannot be reached, so no model is running. See the notice at the top.': (
        '사무실 서버에 연결할 수 없어 실행 중인 모델이 없습니다. 위쪽 알림을 확인하세요.',
        '无法连接办公室服务器，因此没有模型在运行。请查看顶部的通知。'),
    'First word after {s} s': (
        '{s}초 후 첫 단어',
        '{s} 秒后出现第一个词'),
    'Measured here while the office server writes: {w} tokens per second. A token is a piece of a word; words shown here are tokens × {ratio}.': (
        '사무실 서버가 쓰는 동안 이 컴퓨터에서 측정: 초당 {w}토큰. 토큰은 단어의 조각이며, 여기 표시된 단어 수는 토큰 × {ratio}입니다.',
        '在办公室服务器撰写时于本机测量：每秒 {w} 个词元。词元是词的一部分；此处显示的词数为词元 × {ratio}。'),
    'One question already waits for the document; send this one when its answer has begun.': (
        '문서를 기다리는 질문이 이미 하나 있습니다. 그 답변이 시작되면 이 질문을 보내세요.',
        '已有一个问题在等待文档；请在其回答开始后再发送这个问题。'),
    'The office server did not start the model. See the notice at the top.': (
        '사무실 서버가 모델을 시작하지 않았습니다. 위쪽 알림을 확인하세요.',
        '办公室服务器未启动模型。请查看顶部的通知。'),
    # ---- models found on this computer (app/setup/model_list.py) ----
    "from LM Studio": ("LM Studio에서", "来自 LM Studio"),
    "from Ollama": ("Ollama에서", "来自 Ollama"),
    "from Jan": ("Jan에서", "来自 Jan"),
    "from GPT4All": ("GPT4All에서", "来自 GPT4All"),
    "from Hugging Face": ("Hugging Face에서", "来自 Hugging Face"),
    "in Downloads": ("다운로드 폴더", "在“下载”中"),
    "in Documents": ("문서 폴더", "在“文档”中"),
    "from your organisation": ("소속 기관 제공", "由您的单位提供"),
    "Design: {name}": ("설계: {name}", "设计：{name}"),
    "made of {n} experts": ("전문가 {n}개로 구성", "由 {n} 个专家组成"),
    "can think before answering": ("답하기 전에 생각할 수 있음", "可以在回答前思考"),
    "{size} GB": ("{size} GB", "{size} GB"),
    "Cannot be used:": ("사용할 수 없음:", "无法使用："),
    "Runs on the graphics card.": ("그래픽 카드에서 실행됩니다.", "在显卡上运行。"),
    "Runs on the processor.": ("프로세서에서 실행됩니다.", "在处理器上运行。"),
    "Looking for models on this computer…": ("이 컴퓨터에서 모델을 찾는 중…", "正在这台电脑上查找模型…"),
    "Models found on this computer, best fit first": (
        "이 컴퓨터에서 찾은 모델(가장 잘 맞는 것부터)", "在这台电脑上找到的模型（最合适的在前）"),
    "Models found on this computer, best fit first:": (
        "이 컴퓨터에서 찾은 모델(가장 잘 맞는 것부터):", "在这台电脑上找到的模型（最合适的在前）："),
    "Other file…": ("다른 파일…", "其他文件…"),
    "Choose another model file": ("다른 모델 파일 선택", "选择另一个模型文件"),
    "No models were found on this computer. Choose a model file with Other file…": (
        "이 컴퓨터에서 모델을 찾지 못했습니다. ‘다른 파일…’로 모델 파일을 선택하세요.",
        "在这台电脑上没有找到模型。请用“其他文件…”选择模型文件。"),
    "Rotary could not look for models. Choose a model file with Other file…": (
        "Rotary가 모델을 찾을 수 없었습니다. ‘다른 파일…’로 모델 파일을 선택하세요.",
        "Rotary 无法查找模型。请用“其他文件…”选择模型文件。"),
    # ---- the organisation's settings file (app/settings/policy.py, app/setup/settings_locks.py) ----
    "Your organisation has chosen the model Rotary uses, so there is nothing more to choose.": (
        "소속 기관에서 Rotary가 사용할 모델을 이미 정했으므로 더 고를 것이 없습니다.",
        "您的单位已经选定了 Rotary 使用的模型，因此无需再做选择。"),
    "Set by your organisation": ("소속 기관에서 설정함", "由您的单位设置"),
    "Rotary could not open it.": ("Rotary가 이 파일을 열 수 없었습니다.", "Rotary 无法打开它。"),
    "It is not written correctly.": ("파일 내용이 올바르게 작성되지 않았습니다.", "它的写法不正确。"),
    "Your organisation's settings file ({path}) was ignored: {why} Ask your IT department to check it.": (
        "소속 기관의 설정 파일({path})을 무시했습니다: {why} IT 부서에 확인을 요청하세요.",
        "已忽略您单位的设置文件（{path}）：{why} 请让 IT 部门检查它。"),
    "Your organisation's settings file ({path}) has a value Rotary cannot use ({what}), so that value was left out.": (
        "소속 기관의 설정 파일({path})에 Rotary가 사용할 수 없는 값({what})이 있어 그 값은 제외했습니다.",
        "您单位的设置文件（{path}）中有一个 Rotary 无法使用的值（{what}），因此已略过该值。"),
    # ---- issue 37: files attached together, help, plain words ----
    '{name}: read.': ('{name}: 읽었습니다.', '{name}：已读取。'),
    '{name}: not read. {why}': ('{name}: 읽지 못했습니다. {why}', '{name}：未能读取。{why}'),
    '{failed} of {count} files could not be read:': (
        '파일 {count}개 중 {failed}개를 읽지 못했습니다:', '{count} 个文件中有 {failed} 个无法读取：'),
    'No setting is made for a graphics card as small as this one ({vram} GB), so Rotary fits the smallest one to the {vram} GB this card has.': (
        '이렇게 작은 그래픽 카드({vram} GB)에 맞춘 설정은 없으므로, Rotary는 가장 작은 설정을 이 카드의 {vram} GB에 맞춥니다.',
        '没有为这么小的显卡（{vram} GB）准备的设置，因此 Rotary 把最小的设置调整到这张显卡的 {vram} GB。'),
    'Measured now that it is loaded. {placed}': (
        '불러온 지금 측정한 값: {placed}',
        '加载后实测：{placed}'),
    '&Help': (
        '도움말(&H)',
        '帮助(&H)'),
    '&Getting started': (
        '시작하기(&G)',
        '入门(&G)'),
    '&Where models come from': (
        '모델을 구하는 곳(&W)',
        '模型从哪里来(&W)'),
    'Open the &log folder': (
        '로그 폴더 열기(&L)',
        '打开日志文件夹(&L)'),
    '&About Rotary': (
        'Rotary 정보(&A)',
        '关于 Rotary(&A)'),
    'About Rotary': (
        'Rotary 정보',
        '关于 Rotary'),
    'Getting started': (
        '시작하기',
        '入门'),
    'Where models come from': (
        '모델을 구하는 곳',
        '模型从哪里来'),
    'Type a question in the box at the bottom and press Enter. The answer is written on this computer; nothing is sent to the internet.': (
        '아래쪽 상자에 질문을 입력하고 Enter 키를 누르세요. 답변은 이 컴퓨터에서 작성되며 인터넷으로는 아무것도 보내지 않습니다.',
        '在底部的输入框中输入问题并按 Enter。回答在这台电脑上写出，不会向互联网发送任何内容。'),
    'To ask about a document, press Attach… (or drop the file on the window), then ask your question or press Summarise.': (
        '문서에 대해 물으려면 첨부…를 누르거나 파일을 창에 끌어다 놓은 다음, 질문하거나 요약하기를 누르세요.',
        '要询问文档，请按“附加…”（或把文件拖到窗口上），然后提问或按“总结”。'),
    'Stop ends an answer at once and keeps what was written. Your conversations are listed on the left and kept when Rotary closes.': (
        '중지는 답변을 바로 끝내고 그때까지 쓴 내용을 남깁니다. 대화는 왼쪽에 나열되며 Rotary를 닫아도 보관됩니다.',
        '“停止”会立即结束回答并保留已写出的内容。您的对话列在左侧，关闭 Rotary 后仍会保留。'),
    'The panel on the right shows how fast the answer is written and how much memory the model uses. Settings (Ctrl+,) changes the model and how much it remembers.': (
        '오른쪽 패널은 답변이 얼마나 빨리 쓰이는지와 모델이 메모리를 얼마나 쓰는지 보여 줍니다. 설정(Ctrl+,)에서 모델과 기억하는 양을 바꿀 수 있습니다.',
        '右侧面板显示回答写出的速度和模型使用的内存。在“设置”（Ctrl+,）中可以更换模型以及它记住的内容量。'),
    'Where something goes wrong, the notice at the top says what to do; its "Copy details" button copies what your IT contact needs.': (
        '문제가 생기면 위쪽 알림이 할 일을 알려 줍니다. 알림의 "자세한 내용 복사" 버튼은 IT 담당자에게 필요한 내용을 복사합니다.',
        '出现问题时，顶部的通知会说明该怎么做；其中的“复制详细信息”按钮会复制 IT 联系人需要的内容。'),
    'A model is one large file whose name ends in .gguf (often several gigabytes). Rotary does not include one, apart from a very small demo model for trying it out.': (
        '모델은 이름이 .gguf로 끝나는 큰 파일 하나입니다(보통 몇 기가바이트). Rotary에는 시험용 아주 작은 데모 모델 말고는 모델이 들어 있지 않습니다.',
        '模型是一个名称以 .gguf 结尾的大文件（通常有几个 GB）。除了一个用于试用的很小的演示模型外，Rotary 不自带模型。'),
    'At work, ask your IT contact for a model file approved by your organisation.': (
        '회사에서는 IT 담당자에게 조직에서 승인한 모델 파일을 요청하세요.',
        '在单位，请向 IT 联系人索取本单位批准的模型文件。'),
    'If you are allowed to download files, models are published on Hugging Face (huggingface.co): look for a model in GGUF format whose name contains "Instruct" or "Chat", in a size that fits your computer.': (
        '파일을 내려받아도 된다면, 모델은 Hugging Face(huggingface.co)에 공개되어 있습니다. 이름에 "Instruct"나 "Chat"이 들어간 GGUF 형식 모델 중 컴퓨터에 맞는 크기를 찾으세요.',
        '如果允许下载文件，可以在 Hugging Face（huggingface.co）上找到公开的模型：请选择名称含有“Instruct”或“Chat”、GGUF 格式、大小适合您电脑的模型。'),
    'Then choose the file in Settings (Ctrl+,) or in First-time setup.': (
        '그런 다음 설정(Ctrl+,)이나 처음 설정에서 그 파일을 고르세요.',
        '然后在“设置”（Ctrl+,）或“首次设置”中选择该文件。'),
    'Back-end: {backend}.': (
        '백엔드: {backend}.',
        '后端：{backend}。'),
    'The model runs on the office server.': (
        '모델은 사무실 서버에서 실행됩니다.',
        '模型在办公室服务器上运行。'),
    'No model is loaded.': (
        '불러온 모델이 없습니다.',
        '未加载模型。'),
    'Log file: {path}': (
        '로그 파일: {path}',
        '日志文件：{path}'),
    'Rotary runs language models on this computer, without the internet.': (
        'Rotary는 인터넷 없이 이 컴퓨터에서 언어 모델을 실행합니다.',
        'Rotary 在这台电脑上运行语言模型，无需互联网。'),
    'none': (
        '없음',
        '无'),
    'Automatic ({n} of {total})': (
        '자동({total}개 중 {n}개)',
        '自动（{total} 个中的 {n} 个）'),
    'How many parts of the model stay on the graphics card. More is faster but needs more graphics memory; Automatic lets Rotary choose for this computer.': (
        '모델의 몇 부분을 그래픽 카드에 둘지 정합니다. 많을수록 빠르지만 그래픽 메모리가 더 필요합니다. 자동이면 Rotary가 이 컴퓨터에 맞게 고릅니다.',
        '模型有多少部分留在显卡上。越多越快，但需要更多显存；选“自动”则由 Rotary 为这台电脑选择。'),
    'This model is used whole on every word, so this does not apply.': (
        '이 모델은 단어마다 전체가 쓰이므로 이 설정은 해당되지 않습니다.',
        '这个模型每个词都会整体用到，因此此项不适用。'),
    "The model file's own answer variety: {temperature}.": (
        '모델 파일 자체의 답변 다양성: {temperature}.',
        '模型文件自带的回答多样性：{temperature}。'),
    'Recommended for this kind of model: answer variety {temperature}.': (
        '이런 종류의 모델에 권장: 답변 다양성 {temperature}.',
        '此类模型的推荐值：回答多样性 {temperature}。'),
    "Rotary's usual answer variety: {temperature}.": (
        'Rotary의 기본 답변 다양성: {temperature}.',
        'Rotary 的常用回答多样性：{temperature}。'),
    'Ready on the graphics card: {pct}% of the work': (
        '그래픽 카드에서 준비됨: 작업의 {pct}%',
        '已在显卡上就绪：{pct}% 的工作'),
    'Hide details': (
        '자세한 내용 숨기기',
        '隐藏详细信息'),
    'Details': (
        '자세히',
        '详细信息'),
    "How much of the model's work for this answer was already on the graphics card: more is faster.": (
        '이 답변에서 모델 작업 중 이미 그래픽 카드에 있던 비율입니다. 높을수록 빠릅니다.',
        '此回答中模型工作已在显卡上的比例：越高越快。'),
    'No graphics card was found, so models will run on the processor.': (
        '그래픽 카드가 없어 모델은 프로세서에서 실행됩니다.',
        '未找到显卡，因此模型将在处理器上运行。'),
    'Press “Check my computer” to see what this computer has.': (
        '이 컴퓨터에 무엇이 있는지 보려면 “내 컴퓨터 점검”을 누르세요.',
        '按“检查我的电脑”查看这台电脑的配置。'),
    'This answer was not finished: {why}': (
        '이 답변은 끝나지 않았습니다: {why}',
        '此回答未完成：{why}'),
    'A model is one large file whose name ends in .gguf. At work, ask your IT contact for one; if you are allowed to download files, Hugging Face (huggingface.co) publishes many. Help → Where models come from says more.': (
        '모델은 이름이 .gguf로 끝나는 큰 파일 하나입니다. 회사에서는 IT 담당자에게 요청하세요. 파일을 내려받아도 된다면 Hugging Face(huggingface.co)에 많이 공개되어 있습니다. 자세한 내용은 도움말 → 모델을 구하는 곳에 있습니다.',
        '模型是一个名称以 .gguf 结尾的大文件。在单位请向 IT 联系人索取；如果允许下载文件，Hugging Face（huggingface.co）上有很多。更多内容见“帮助 → 模型从哪里来”。'),
    'The model runs on this computer.': (
        '모델은 이 컴퓨터에서 실행됩니다.',
        '模型在这台电脑上运行。'),
    # ---- issue 47: waits that say how long, a refused message marked, small fixes ----
    'Reading your message… {percent}%': (
        '메시지를 읽는 중… {percent}%',
        '正在阅读您的消息… {percent}%'),
    'Reading your message… {percent}% — almost done': (
        '메시지를 읽는 중… {percent}% — 거의 끝났습니다',
        '正在阅读您的消息… {percent}% — 快完成了'),
    'Reading your message… {percent}% — about {seconds} s left': (
        '메시지를 읽는 중… {percent}% — 약 {seconds}초 남음',
        '正在阅读您的消息… {percent}% — 大约还剩 {seconds} 秒'),
    'Reading your message… {percent}% — about {minutes} min left': (
        '메시지를 읽는 중… {percent}% — 약 {minutes}분 남음',
        '正在阅读您的消息… {percent}% — 大约还剩 {minutes} 分钟'),
    'Checking {step} of {steps}: {what}… {seconds} s': (
        '확인 중 {step}/{steps}: {what}… {seconds}초',
        '正在检查第 {step} 项（共 {steps} 项）：{what}… {seconds} 秒'),
    'saving settings': (
        '설정 저장',
        '保存设置'),
    'saving conversations': (
        '대화 저장',
        '保存对话'),
    'writing the demo model': (
        '데모 모델 만들기',
        '生成演示模型'),
    'loading the demo model and writing a short answer': (
        '데모 모델을 불러와 짧은 답변 쓰기',
        '加载演示模型并写一个简短的回答'),
    'checking the built-in accelerators': (
        '내장 가속 기능 확인',
        '检查内置加速功能'),
    'reading a scanned page': (
        '스캔한 페이지 읽기',
        '读取扫描的页面'),
    'checking that nothing used the network': (
        '네트워크를 쓰지 않았는지 확인',
        '确认没有使用网络'),
    'Attach as a document': (
        '문서로 첨부',
        '作为文档附加'),
    "Attach this message's text to the conversation as a document, so that questions can be asked about it": (
        '이 메시지의 글을 대화에 문서로 첨부하여 그 내용에 대해 질문할 수 있게 합니다',
        '将这条消息的文字作为文档附加到对话中，以便就其内容提问'),
    'Not read by the model': (
        '모델이 읽지 않음',
        '模型未阅读'),
    "⚠ Not read: too long for the model's memory.": (
        '⚠ 읽지 않음: 모델이 기억하기에 너무 깁니다.',
        '⚠ 未阅读：对模型的记忆来说太长了。'),
    "⚠ Not read: too long for the model's memory. Its text is attached as a document instead.": (
        '⚠ 읽지 않음: 모델이 기억하기에 너무 깁니다. 대신 그 글을 문서로 첨부했습니다.',
        '⚠ 未阅读：对模型的记忆来说太长了。其文字已改为作为文档附加。'),
    'The text could not be saved as a document.': (
        '글을 문서로 저장할 수 없습니다.',
        '无法将这段文字保存为文档。'),
    '{setting}, fitted to the {vram} GB this card has': (
        '{setting}(이 그래픽 카드의 {vram} GB에 맞춤)',
        '{setting}，并按这张显卡的 {vram} GB 调整'),
    'The log folder': (
        '로그 폴더',
        '日志文件夹'),
    'Rotary could not open a file manager on this computer. The log folder is:': (
        'Rotary가 이 컴퓨터에서 파일 관리자를 열 수 없었습니다. 로그 폴더 위치:',
        'Rotary 无法在这台电脑上打开文件管理器。日志文件夹位于：'),
    'Copy the path': (
        '경로 복사',
        '复制路径'),
    "Copy the log folder's path": (
        '로그 폴더 경로 복사',
        '复制日志文件夹的路径'),
    '{first} and {second}': (
        '{first}, {second}',
        '{first}和{second}'),
}
