<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name />
    <message>
        <source>No model loaded</source>
        <translation>尚未加载模型</translation>
    </message>
    <message>
        <source>Your saved conversations could not be read, so Rotary started a new, empty history. The damaged file was kept next to the new one.</source>
        <translation>无法读取已保存的对话，因此 Rotary 新建了一个空的历史记录。损坏的文件已保存在新文件旁边。</translation>
    </message>
    <message>
        <source>Loading: {name}</source>
        <translation>正在加载：{name}</translation>
    </message>
    <message>
        <source>Model: {name}</source>
        <translation>模型：{name}</translation>
    </message>
    <message>
        <source>There is no conversation to export yet.</source>
        <translation>还没有可以导出的对话。</translation>
    </message>
    <message>
        <source>Export conversation</source>
        <translation>导出对话</translation>
    </message>
    <message>
        <source>Markdown files (*.md)</source>
        <translation>Markdown 文件 (*.md)</translation>
    </message>
    <message>
        <source>The conversation could not be saved there.</source>
        <translation>无法将对话保存到该位置。</translation>
    </message>
    <message>
        <source>Conversation saved to {path}.</source>
        <translation>对话已保存到 {path}。</translation>
    </message>
    <message>
        <source>No setting is made for a graphics card as small as this one ({vram} GB), so Rotary fits the smallest one to the {vram} GB this card has.</source>
        <translation>没有为这么小的显卡（{vram} GB）准备的设置，因此 Rotary 把最小的设置调整到这张显卡的 {vram} GB。</translation>
    </message>
    <message>
        <source>A part of Rotary is missing or damaged. Please reinstall Rotary.</source>
        <translation>Rotary 的某个部分缺失或已损坏。请重新安装 Rotary。</translation>
    </message>
    <message>
        <source>This copy of Rotary cannot use an office server.</source>
        <translation>这个 Rotary 副本无法使用办公室服务器。</translation>
    </message>
    <message>
        <source>No model is loaded yet.</source>
        <translation>尚未加载模型。</translation>
    </message>
    <message>
        <source>Measured now that it is loaded. {placed}</source>
        <translation>加载后实测：{placed}</translation>
    </message>
    <message>
        <source>Rotary is closing.</source>
        <translation>Rotary 正在关闭。</translation>
    </message>
    <message>
        <source>The model is not ready yet. Please wait until loading has finished.</source>
        <translation>模型尚未就绪。请等待加载完成。</translation>
    </message>
    <message>
        <source>Waiting for the previous answer to end…</source>
        <translation>正在等待上一个回答结束…</translation>
    </message>
    <message>
        <source>Reading your message…</source>
        <translation>正在阅读您的消息…</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <source>Writing the answer…</source>
        <translation>正在撰写回答…</translation>
    </message>
    <message>
        <source>“{name}” looks like a base model: it was not trained to chat, so it may continue your text instead of answering it. For a helpful assistant, choose a model whose name contains “Instruct” or “Chat” in Settings.</source>
        <translation>“{name}”看起来是一个基础模型：它没有经过对话训练，可能会接着写您的文字，而不是回答。若想要一个有用的助手，请在“设置”中选择名称包含“Instruct”或“Chat”的模型。</translation>
    </message>
    <message>
        <source>This model</source>
        <translation>这个模型</translation>
    </message>
    <message>
        <source>One question already waits for the document; send this one when its answer has begun.</source>
        <translation>已有一个问题在等待文档；请在其回答开始后再发送这个问题。</translation>
    </message>
    <message>
        <source>A message is already waiting to be sent; send this one when its answer has begun.</source>
        <translation>已有一条消息在等待发送；请在其回答开始后再发送这一条。</translation>
    </message>
    <message>
        <source>Your question will be sent when the document has been read: “{text}”</source>
        <translation>文档读完后将发送您的问题：“{text}”</translation>
    </message>
    <message>
        <source>Your message will be sent when this answer is finished: “{text}”</source>
        <translation>此回答完成后将发送您的消息：“{text}”</translation>
    </message>
    <message>
        <source>Your question was not sent: “{text}”. Send it again where you want the answer.</source>
        <translation>您的问题未发送：“{text}”。请在需要回答的对话中重新发送。</translation>
    </message>
    <message>
        <source>Waiting for the other answer…</source>
        <translation>正在等待另一个回答结束…</translation>
    </message>
    <message>
        <source>Thinking…</source>
        <translation>思考中…</translation>
    </message>
    <message>
        <source>The model on the office server ended its answer at once. Its chat template may not suit this model: ask your IT contact.</source>
        <translation>办公室服务器上的模型立即结束了回答。它的对话格式（聊天模板）可能不适合这个模型，请联系您的 IT 人员。</translation>
    </message>
    <message>
        <source>“{name}” looks like a base model: it has no chat template, so it may not know how to answer. Choose a model whose name contains “Instruct” or “Chat” in Settings.</source>
        <translation>“{name}”看起来是基础模型：它没有对话格式（聊天模板），可能不知道如何回答。请在设置中选择名称含有“Instruct”或“Chat”的模型。</translation>
    </message>
    <message>
        <source>It ended its answer at once; its chat template may not suit it. Try Write again, or another model in Settings.</source>
        <translation>它立即结束了回答，其对话格式（聊天模板）可能不适合它。请试试“重新撰写”，或在设置中换一个模型。</translation>
    </message>
    <message>
        <source>The model gave no answer.</source>
        <translation>模型没有给出回答。</translation>
    </message>
    <message>
        <source>You</source>
        <translation>您</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <source>Answer status</source>
        <translation>回答状态</translation>
    </message>
    <message>
        <source>Not read by the model</source>
        <translation>模型未阅读</translation>
    </message>
    <message>
        <source>Attach as a document</source>
        <translation>作为文档附加</translation>
    </message>
    <message>
        <source>Attach this message's text to the conversation as a document, so that questions can be asked about it</source>
        <translation>将这条消息的文字作为文档附加到对话中，以便就其内容提问</translation>
    </message>
    <message>
        <source>⚠ Not read: too long for the model's memory. Its text is attached as a document instead.</source>
        <translation>⚠ 未阅读：对模型的记忆来说太长了。其文字已改为作为文档附加。</translation>
    </message>
    <message>
        <source>⚠ Not read: too long for the model's memory.</source>
        <translation>⚠ 未阅读：对模型的记忆来说太长了。</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy this message</source>
        <translation>复制这条消息</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <source>Edit this message and send it again</source>
        <translation>编辑这条消息并重新发送</translation>
    </message>
    <message>
        <source>Write again</source>
        <translation>重新撰写</translation>
    </message>
    <message>
        <source>Write an answer to this message</source>
        <translation>为这条消息撰写回答</translation>
    </message>
    <message>
        <source>Write this answer again</source>
        <translation>重新撰写这个回答</translation>
    </message>
    <message>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <source>Type a message below and press Enter to send it.</source>
        <translation>在下方输入消息，然后按 Enter 发送。</translation>
    </message>
    <message>
        <source>What the assistant is doing</source>
        <translation>助手正在做什么</translation>
    </message>
    <message>
        <source>About this model</source>
        <translation>关于这个模型</translation>
    </message>
    <message>
        <source>Message waiting to be sent</source>
        <translation>等待发送的消息</translation>
    </message>
    <message>
        <source>Don't send</source>
        <translation>不发送</translation>
    </message>
    <message>
        <source>Don't send the waiting message; put it back in the message box</source>
        <translation>不发送等待中的消息；将其放回消息框</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>Enter sends the message; Shift+Enter starts a new line.</source>
        <translation>按 Enter 发送消息；按 Shift+Enter 换行。</translation>
    </message>
    <message>
        <source>Write your message…</source>
        <translation>输入您的消息…</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Send the message</source>
        <translation>发送消息</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop writing the answer</source>
        <translation>停止撰写回答</translation>
    </message>
    <message>
        <source>Send edited message</source>
        <translation>发送编辑后的消息</translation>
    </message>
    <message>
        <source>Editing an earlier message. Press Escape to cancel.</source>
        <translation>正在编辑之前的消息。按 Esc 取消。</translation>
    </message>
    <message>
        <source>Earlier messages are no longer sent to the model: its memory begins here.</source>
        <translation>之前的消息不再发送给模型：它的记忆从这里开始。</translation>
    </message>
    <message>
        <source>You stopped this answer.</source>
        <translation>您停止了这个回答。</translation>
    </message>
    <message>
        <source>Stopped when the model was changed.</source>
        <translation>更换模型时已停止。</translation>
    </message>
    <message>
        <source>Stopped when Rotary was closed.</source>
        <translation>关闭 Rotary 时已停止。</translation>
    </message>
    <message>
        <source>The answer reached its length limit.</source>
        <translation>回答已达到长度上限。</translation>
    </message>
    <message>
        <source>The model began repeating itself, so Rotary stopped it; the repeats are left out.</source>
        <translation>模型开始重复自己的话，Rotary 已将其停止；重复的部分已略去。</translation>
    </message>
    <message>
        <source>This answer was not finished. See the notice at the top.</source>
        <translation>这个回答没有完成。请查看顶部的通知。</translation>
    </message>
    <message>
        <source>This answer was cut off when Rotary closed unexpectedly.</source>
        <translation>Rotary 意外关闭，这个回答被中断了。</translation>
    </message>
    <message>
        <source>This answer is still being written…</source>
        <translation>这个回答仍在撰写中…</translation>
    </message>
    <message>
        <source>This answer was not finished: {why}</source>
        <translation>此回答未完成：{why}</translation>
    </message>
    <message>
        <source>This answer was not finished.</source>
        <translation>这个回答没有完成。</translation>
    </message>
    <message>
        <source>Answer stopped.</source>
        <translation>回答已停止。</translation>
    </message>
    <message>
        <source>Answer finished.</source>
        <translation>回答已完成。</translation>
    </message>
    <message>
        <source>Search conversations</source>
        <translation>搜索对话</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>对话列表</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
    <message>
        <source>Start a new chat</source>
        <translation>开始新对话</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <source>Rename the selected conversation</source>
        <translation>重命名所选对话</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Delete the selected conversation</source>
        <translation>删除所选对话</translation>
    </message>
    <message>
        <source>writing an answer</source>
        <translation>正在撰写回答</translation>
    </message>
    <message>
        <source>waiting for the other answer</source>
        <translation>正在等待另一个回答</translation>
    </message>
    <message>
        <source>Rename conversation</source>
        <translation>重命名对话</translation>
    </message>
    <message>
        <source>New name:</source>
        <translation>新名称：</translation>
    </message>
    <message>
        <source>Delete conversation</source>
        <translation>删除对话</translation>
    </message>
    <message>
        <source>Delete “{title}”? This cannot be undone.</source>
        <translation>要删除“{title}”吗？此操作无法撤销。</translation>
    </message>
    <message>
        <source>The office server cannot be reached, so no model is running. See the notice at the top.</source>
        <translation>无法连接办公室服务器，因此没有模型在运行。请查看顶部的通知。</translation>
    </message>
    <message>
        <source>The office server did not start the model. See the notice at the top.</source>
        <translation>办公室服务器未启动模型。请查看顶部的通知。</translation>
    </message>
    <message>
        <source>The model runs on the office server, not on this computer.</source>
        <translation>模型在办公室服务器上运行，而不是在这台电脑上。</translation>
    </message>
    <message>
        <source>No graphics card: the model runs on the processor.</source>
        <translation>没有显卡：模型在处理器上运行。</translation>
    </message>
    <message>
        <source>Graphics memory: unknown (the graphics driver stopped answering)</source>
        <translation>显存：未知（显卡驱动停止响应）</translation>
    </message>
    <message>
        <source>Graphics memory: unknown</source>
        <translation>显存：未知</translation>
    </message>
    <message>
        <source>Graphics memory: {used} of {total} GB in use</source>
        <translation>显存：已用 {used} / {total} GB</translation>
    </message>
    <message>
        <source>Rotary {gb} GB</source>
        <translation>Rotary {gb} GB</translation>
    </message>
    <message>
        <source>Rotary's share not reported</source>
        <translation>未报告 Rotary 的占用</translation>
    </message>
    <message>
        <source>Graphics memory (VRAM), measured by the NVIDIA driver: {ours}, other programs {other} GB, free {free} GB of {total} GB.</source>
        <translation>显存（VRAM，由 NVIDIA 驱动测得）：{ours}，其他程序 {other} GB，空闲 {free} GB，共 {total} GB。</translation>
    </message>
    <message>
        <source>in use by all programs</source>
        <translation>所有程序正在使用</translation>
    </message>
    <message>
        <source>others {gb} GB</source>
        <translation>其他 {gb} GB</translation>
    </message>
    <message>
        <source>System memory used by Rotary: unknown</source>
        <translation>Rotary 使用的系统内存：未知</translation>
    </message>
    <message>
        <source>System memory used by Rotary: {size} GB</source>
        <translation>Rotary 使用的系统内存：{size} GB</translation>
    </message>
    <message>
        <source>Writing speed: shown while an answer is written</source>
        <translation>写作速度：撰写回答时显示</translation>
    </message>
    <message>
        <source>Writing speed: less than 1 word a second</source>
        <translation>写作速度：每秒不到 1 个词</translation>
    </message>
    <message>
        <source>Writing speed: about 1 word a second</source>
        <translation>写作速度：每秒约 1 个词</translation>
    </message>
    <message>
        <source>Writing speed: about {n} words a second</source>
        <translation>写作速度：每秒约 {n} 个词</translation>
    </message>
    <message>
        <source>First word after {s} s</source>
        <translation>{s} 秒后出现第一个词</translation>
    </message>
    <message>
        <source>Reading the document: less than 1 word a second</source>
        <translation>阅读文档：每秒不到 1 个词</translation>
    </message>
    <message>
        <source>Reading the document: about 1 word a second</source>
        <translation>阅读文档：每秒约 1 个词</translation>
    </message>
    <message>
        <source>Reading the document: about {n} words a second</source>
        <translation>阅读文档：每秒约 {n} 个词</translation>
    </message>
    <message>
        <source>Reading your message: less than 1 word a second</source>
        <translation>阅读您的消息：每秒不到 1 个词</translation>
    </message>
    <message>
        <source>Reading your message: about 1 word a second</source>
        <translation>阅读您的消息：每秒约 1 个词</translation>
    </message>
    <message>
        <source>Reading your message: about {n} words a second</source>
        <translation>阅读您的消息：每秒约 {n} 个词</translation>
    </message>
    <message>
        <source>first word right away</source>
        <translation>第一个词立即出现</translation>
    </message>
    <message>
        <source>first word after {s} s</source>
        <translation>{s} 秒后出现第一个词</translation>
    </message>
    <message>
        <source>Speeds are measured by the engine while it writes an answer.</source>
        <translation>速度由引擎在撰写回答时测得。</translation>
    </message>
    <message>
        <source>Measured here while the office server writes: {w} tokens per second. A token is a piece of a word; words shown here are tokens × {ratio}.</source>
        <translation>在办公室服务器撰写时于本机测量：每秒 {w} 个词元。词元是词的一部分；此处显示的词数为词元 × {ratio}。</translation>
    </message>
    <message>
        <source>Measured by the engine: writing {w} tokens per second, reading {r} tokens per second. A token is a piece of a word; words shown here are tokens × {ratio}.</source>
        <translation>由引擎测得：写入每秒 {w} 个 token，读取每秒 {r} 个 token。token 是词的片段；这里显示的词数为 token × {ratio}。</translation>
    </message>
    <message>
        <source>Conversation memory: not reported by the server</source>
        <translation>对话记忆：服务器未提供</translation>
    </message>
    <message>
        <source>Conversation memory: not reported by the server; about {n} words sent so far</source>
        <translation>对话记忆：服务器未提供；目前已发送约 {n} 个词</translation>
    </message>
    <message>
        <source>Conversation memory: no model loaded</source>
        <translation>对话记忆：尚未加载模型</translation>
    </message>
    <message>
        <source>Conversation memory: shown after the next answer</source>
        <translation>对话记忆：下一次回答后显示</translation>
    </message>
    <message>
        <source>Conversation memory: about {n} words left</source>
        <translation>对话记忆：约剩 {n} 个词</translation>
    </message>
    <message>
        <source>Context: {used} tokens sent so far, counted by the server; it does not say how many it can hold.</source>
        <translation>上下文：目前已发送 {used} 个 token（由服务器计数）；服务器未说明它能容纳多少。</translation>
    </message>
    <message>
        <source>Context: {used} of {size} tokens used, measured by the engine.</source>
        <translation>上下文：已使用 {used} / {size} 个 token（由引擎测得）。</translation>
    </message>
    <message>
        <source>Ready on the graphics card: {pct}% of the work</source>
        <translation>已在显卡上就绪：{pct}% 的工作</translation>
    </message>
    <message>
        <source>Hide details</source>
        <translation>隐藏详细信息</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详细信息</translation>
    </message>
    <message>
        <source>How much of the model's work for this answer was already on the graphics card: more is faster.</source>
        <translation>此回答中模型工作已在显卡上的比例：越高越快。</translation>
    </message>
    <message>
        <source>Expert hit rate, measured by the engine: the share of expert work whose experts were already in graphics memory.</source>
        <translation>专家命中率（由引擎测得）：所需专家已在显存中的专家计算所占比例。</translation>
    </message>
    <message>
        <source>This word: {hits} of {all} experts from the graphics card; {mb} MB copied there during this answer.</source>
        <translation>这个词：{all} 个专家中有 {hits} 个由显卡处理；本次回答期间向显卡复制了 {mb} MB。</translation>
    </message>
    <message>
        <source>Per layer, in order: {shares}.</source>
        <translation>按层依次：{shares}。</translation>
    </message>
    <message>
        <source>How the model is running</source>
        <translation>模型的运行情况</translation>
    </message>
    <message>
        <source>How it is running</source>
        <translation>运行情况</translation>
    </message>
    <message>
        <source>Resident memory (RSS) of the Rotary process, measured by the operating system.</source>
        <translation>Rotary 进程的常驻内存（RSS），由操作系统测得。</translation>
    </message>
    <message>
        <source>Small demo model (always writes the same short message; for trying Rotary only)</source>
        <translation>小型演示模型（总是写出同一段简短信息；仅用于试用 Rotary）</translation>
    </message>
    <message>
        <source>The model file was moved or deleted: {path}. Please choose it again.</source>
        <translation>模型文件已被移动或删除：{path}。请重新选择。</translation>
    </message>
    <message>
        <source>Choose a model…</source>
        <translation>选择模型…</translation>
    </message>
    <message>
        <source>Your computer did not have enough memory for the first plan, so Rotary chose a safer one: {what}</source>
        <translation>您的电脑内存不足以执行最初的方案，因此 Rotary 选择了更稳妥的方案：{what}</translation>
    </message>
    <message>
        <source>The model is ready. It uses less graphics memory than planned, so answers may be a little slower.</source>
        <translation>模型已就绪。它使用的显存比计划少，因此回答可能会稍慢。</translation>
    </message>
    <message>
        <source>Try the safer setting</source>
        <translation>尝试更稳妥的设置</translation>
    </message>
    <message>
        <source>Choose another model…</source>
        <translation>选择其他模型…</translation>
    </message>
    <message>
        <source>Rotary closed unexpectedly while loading the model last time. Loading it with the safer setting keeps the whole model in system memory and uses the processor: slower, but it should not crash.</source>
        <translation>上次加载模型时 Rotary 意外关闭。更稳妥的设置会把整个模型放在内存中并使用处理器运行：速度较慢，但不应再崩溃。</translation>
    </message>
    <message>
        <source>Use the safer setting</source>
        <translation>使用更稳妥的设置</translation>
    </message>
    <message>
        <source>Try the same setting again</source>
        <translation>用相同设置再试一次</translation>
    </message>
    <message>
        <source>Loading progress</source>
        <translation>加载进度</translation>
    </message>
    <message>
        <source>Why a safer setting was chosen</source>
        <translation>为什么选择了更稳妥的设置</translation>
    </message>
    <message>
        <source>Loading {name}…</source>
        <translation>正在加载 {name}…</translation>
    </message>
    <message>
        <source>Rotary</source>
        <translation>Rotary</translation>
    </message>
    <message>
        <source>Current model</source>
        <translation>当前模型</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New chat</source>
        <translation>新对话(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Export conversation…</source>
        <translation>导出对话(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;First-time setup…</source>
        <translation>首次设置(&amp;F)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Chat</source>
        <translation>对话(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Stop the answer</source>
        <translation>停止回答(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Write the last answer again</source>
        <translation>重新撰写最后一个回答(&amp;W)</translation>
    </message>
    <message>
        <source>&amp;Edit my last message</source>
        <translation>编辑我的最后一条消息(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Copy the last answer</source>
        <translation>复制最后一个回答(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Think before answering</source>
        <translation>回答前先思考(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Go</source>
        <translation>转到(&amp;G)</translation>
    </message>
    <message>
        <source>Go to the &amp;message box</source>
        <translation>转到消息输入框(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Search conversations</source>
        <translation>搜索对话(&amp;S)</translation>
    </message>
    <message>
        <source>Go to the &amp;conversation list</source>
        <translation>转到对话列表(&amp;C)</translation>
    </message>
    <message>
        <source>Go to the &amp;live numbers</source>
        <translation>转到实时数据(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Getting started</source>
        <translation>入门(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Where models come from</source>
        <translation>模型从哪里来(&amp;W)</translation>
    </message>
    <message>
        <source>Open the &amp;log folder</source>
        <translation>打开日志文件夹(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;About Rotary</source>
        <translation>关于 Rotary(&amp;A)</translation>
    </message>
    <message>
        <source>Fits well.</source>
        <translation>非常合适。</translation>
    </message>
    <message>
        <source>Fits, but only just.</source>
        <translation>能够运行，但余量很小。</translation>
    </message>
    <message>
        <source>Too big for this computer.</source>
        <translation>对这台电脑来说太大了。</translation>
    </message>
    <message>
        <source>Measured on this computer with this model and setting, over its last answers: {low}–{high} tokens per second. A token is a piece of a word; words shown are tokens × {ratio}.</source>
        <translation>在这台电脑上用这个模型和设置，根据最近几次回答测得：每秒 {low}–{high} 个 token。token 是词的片段；显示的词数为 token × {ratio}。</translation>
    </message>
    <message>
        <source>Estimated for this computer: {low}–{high} tokens per second. A token is a piece of a word; words shown are tokens × {ratio}. Rotary measures the real speed during the first answers, and then names one figure.</source>
        <translation>针对这台电脑的估计：每秒 {low}–{high} 个 token。token 是词的片段；显示的词数为 token × {ratio}。Rotary 会在最初几次回答时测量实际速度，之后给出一个数值。</translation>
    </message>
    <message>
        <source>Model file</source>
        <translation>模型文件</translation>
    </message>
    <message>
        <source>Choose a model file, or drop it here</source>
        <translation>选择模型文件，或拖放到这里</translation>
    </message>
    <message>
        <source>GGUF: the file format of models for llama.cpp. Such files end in .gguf.</source>
        <translation>GGUF：llama.cpp 使用的模型文件格式。这类文件以 .gguf 结尾。</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Browse for a model file</source>
        <translation>浏览模型文件</translation>
    </message>
    <message>
        <source>Does the model fit</source>
        <translation>模型是否合适</translation>
    </message>
    <message>
        <source>Choose a model file</source>
        <translation>选择模型文件</translation>
    </message>
    <message>
        <source>Language models (*.gguf)</source>
        <translation>语言模型 (*.gguf)</translation>
    </message>
    <message>
        <source>Notice</source>
        <translation>通知</translation>
    </message>
    <message>
        <source>Copy details</source>
        <translation>复制详细信息</translation>
    </message>
    <message>
        <source>Copy the details of this notice</source>
        <translation>复制此通知的详细信息</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Dismiss this notice</source>
        <translation>关闭此通知</translation>
    </message>
    <message>
        <source>Something went wrong inside Rotary. Your conversations are safe. If it happens again, copy the details for your IT contact.</source>
        <translation>Rotary 内部出现问题。您的对话是安全的。如果再次发生，请复制详细信息并发给 IT 联系人。</translation>
    </message>
    <message>
        <source>Something went wrong inside Rotary.</source>
        <translation>Rotary 内部出现问题。</translation>
    </message>
    <message>
        <source>model file</source>
        <translation>模型文件</translation>
    </message>
    <message>
        <source>setting for this computer</source>
        <translation>适合这台电脑的设置</translation>
    </message>
    <message>
        <source>conversation memory</source>
        <translation>对话记忆</translation>
    </message>
    <message>
        <source>parts of the model on the graphics card</source>
        <translation>放在显卡上的模型部分</translation>
    </message>
    <message>
        <source>processor cores used</source>
        <translation>使用的处理器核心</translation>
    </message>
    <message>
        <source>answer variety</source>
        <translation>回答的多样性</translation>
    </message>
    <message>
        <source>the model's own answer variety</source>
        <translation>模型自带的回答多样性</translation>
    </message>
    <message>
        <source>system prompt</source>
        <translation>系统提示词</translation>
    </message>
    <message>
        <source>language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>first-time setup</source>
        <translation>首次设置</translation>
    </message>
    <message>
        <source>where the model runs</source>
        <translation>模型运行的位置</translation>
    </message>
    <message>
        <source>office server address</source>
        <translation>办公室服务器地址</translation>
    </message>
    <message>
        <source>office server model</source>
        <translation>办公室服务器模型</translation>
    </message>
    <message>
        <source>office server certificate check</source>
        <translation>办公室服务器证书检查</translation>
    </message>
    <message>
        <source>office certificate file</source>
        <translation>办公室证书文件</translation>
    </message>
    <message>
        <source>The saved {what} was not valid, so the default was restored.</source>
        <translation>保存的{what}无效，已恢复为默认值。</translation>
    </message>
    <message>
        <source>Your settings file could not be read, so the default settings were restored.</source>
        <translation>无法读取您的设置文件，已恢复默认设置。</translation>
    </message>
    <message>
        <source>The old file was kept as {name}.</source>
        <translation>旧文件已保存为 {name}。</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Same as the system</source>
        <translation>与系统相同</translation>
    </message>
    <message>
        <source>Model file:</source>
        <translation>模型文件：</translation>
    </message>
    <message>
        <source>Setting for this computer</source>
        <translation>适合这台电脑的设置</translation>
    </message>
    <message>
        <source>Automatic ({n} of {total})</source>
        <translation>自动（{total} 个中的 {n} 个）</translation>
    </message>
    <message>
        <source>Now: the small demo model. Choose a model file, or drop it here</source>
        <translation>当前：小型演示模型。选择模型文件，或拖放到这里</translation>
    </message>
    <message>
        <source>Memory recipe (preset): how the model is shared between the graphics card and system memory.</source>
        <translation>内存方案（预设）：模型如何分配到显卡和系统内存。</translation>
    </message>
    <message>
        <source>Setting for this computer:</source>
        <translation>适合这台电脑的设置：</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>语言：</translation>
    </message>
    <message>
        <source>A new language is used after restarting Rotary.</source>
        <translation>新语言将在重新启动 Rotary 后生效。</translation>
    </message>
    <message>
        <source>Colours follow your system's light or dark setting.</source>
        <translation>颜色跟随系统的浅色或深色设置。</translation>
    </message>
    <message>
        <source>Run first-time setup again</source>
        <translation>重新运行首次设置</translation>
    </message>
    <message>
        <source>Advanced</source>
        <translation>高级</translation>
    </message>
    <message>
        <source>Conversation memory</source>
        <translation>对话记忆</translation>
    </message>
    <message>
        <source>Context length, in tokens (pieces of words): how much of the conversation the model can see at once. More uses more memory.</source>
        <translation>上下文长度（以 token 计，token 是词的片段）：模型一次能看到多少对话内容。越大占用的内存越多。</translation>
    </message>
    <message>
        <source>Model parts on the graphics card</source>
        <translation>放在显卡上的模型部分</translation>
    </message>
    <message>
        <source>How many parts of the model stay on the graphics card. More is faster but needs more graphics memory; Automatic lets Rotary choose for this computer.</source>
        <translation>模型有多少部分留在显卡上。越多越快，但需要更多显存；选“自动”则由 Rotary 为这台电脑选择。</translation>
    </message>
    <message>
        <source>Processor cores to use</source>
        <translation>使用的处理器核心</translation>
    </message>
    <message>
        <source>Processor threads.</source>
        <translation>处理器线程。</translation>
    </message>
    <message>
        <source>Answer variety</source>
        <translation>回答的多样性</translation>
    </message>
    <message>
        <source>Temperature: lower gives steadier answers, higher gives more varied ones.</source>
        <translation>温度（temperature）：越低回答越稳定，越高回答越多样。</translation>
    </message>
    <message>
        <source>Standing instructions</source>
        <translation>固定指示</translation>
    </message>
    <message>
        <source>System prompt: text the model reads before every conversation.</source>
        <translation>系统提示词：模型在每次对话前阅读的文字。</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> 个 token</translation>
    </message>
    <message>
        <source>Conversation memory:</source>
        <translation>对话记忆：</translation>
    </message>
    <message>
        <source>Model parts on the graphics card:</source>
        <translation>放在显卡上的模型部分：</translation>
    </message>
    <message>
        <source>Processor cores to use:</source>
        <translation>使用的处理器核心：</translation>
    </message>
    <message>
        <source>Answer variety:</source>
        <translation>回答的多样性：</translation>
    </message>
    <message>
        <source>Standing instructions:</source>
        <translation>固定指示：</translation>
    </message>
    <message>
        <source>Use the model's own answer variety</source>
        <translation>使用模型自带的回答多样性</translation>
    </message>
    <message>
        <source>The office server applies its own for its model.</source>
        <translation>办公室服务器会为其模型使用自己的设置。</translation>
    </message>
    <message>
        <source>Known once a model is loaded.</source>
        <translation>加载模型后即可得知。</translation>
    </message>
    <message>
        <source>Rotary chooses it for the model and this computer.</source>
        <translation>由 Rotary 根据模型和这台电脑来决定。</translation>
    </message>
    <message>
        <source>About {n} words of the conversation.</source>
        <translation>约为对话中的 {n} 个词。</translation>
    </message>
    <message>
        <source>No graphics card was found, so models will run on the processor.</source>
        <translation>未找到显卡，因此模型将在处理器上运行。</translation>
    </message>
    <message>
        <source>This model is used whole on every word, so this does not apply.</source>
        <translation>这个模型每个词都会整体用到，因此此项不适用。</translation>
    </message>
    <message>
        <source>The model file's own answer variety: {temperature}.</source>
        <translation>模型文件自带的回答多样性：{temperature}。</translation>
    </message>
    <message>
        <source>Recommended for this kind of model: answer variety {temperature}.</source>
        <translation>此类模型的推荐值：回答多样性 {temperature}。</translation>
    </message>
    <message>
        <source>Rotary's usual answer variety: {temperature}.</source>
        <translation>Rotary 的常用回答多样性：{temperature}。</translation>
    </message>
    <message>
        <source>{size} GB of system memory</source>
        <translation>{size} GB 内存</translation>
    </message>
    <message>
        <source>Found the graphics card {name} with {vram} GB of graphics memory, and {ram}.</source>
        <translation>找到显卡 {name}（显存 {vram} GB），以及 {ram}。</translation>
    </message>
    <message>
        <source>{why} This computer has {ram}.</source>
        <translation>{why}这台电脑有 {ram}。</translation>
    </message>
    <message>
        <source>No graphics card was found, so models will run on the processor. This computer has {ram}.</source>
        <translation>未找到显卡，因此模型将在处理器上运行。这台电脑有 {ram}。</translation>
    </message>
    <message>
        <source>Your computer</source>
        <translation>您的电脑</translation>
    </message>
    <message>
        <source>Choose one of the models found on this computer, or another model file (.gguf) with Other file…, or drag it onto this window.</source>
        <translation>从在这台电脑上找到的模型中选择一个，或用“其他文件…”选择另一个模型文件（.gguf），或将其拖到此窗口。</translation>
    </message>
    <message>
        <source>Looking at your computer…</source>
        <translation>正在检查您的电脑…</translation>
    </message>
    <message>
        <source>What Rotary found on this computer</source>
        <translation>Rotary 在这台电脑上找到的内容</translation>
    </message>
    <message>
        <source>Press “Check my computer” to see what this computer has.</source>
        <translation>按“检查我的电脑”查看这台电脑的配置。</translation>
    </message>
    <message>
        <source>Check my computer</source>
        <translation>检查我的电脑</translation>
    </message>
    <message>
        <source>Writes a short test answer with the demo model, checks that conversations and settings can be saved, and that nothing went to the network.</source>
        <translation>用演示模型写一段简短的测试回答，检查对话和设置能否保存，以及没有任何内容发送到网络。</translation>
    </message>
    <message>
        <source>Choose a model</source>
        <translation>选择模型</translation>
    </message>
    <message>
        <source>Use the small demo model</source>
        <translation>使用小型演示模型</translation>
    </message>
    <message>
        <source>Use the small demo model, which always writes the same short message and is only for trying Rotary</source>
        <translation>使用小型演示模型（总是写出同一段简短信息，仅用于试用 Rotary）</translation>
    </message>
    <message>
        <source>The demo model is tiny and always writes the same short message. It only shows how Rotary works; it cannot answer questions.</source>
        <translation>演示模型很小，总是写出同一段简短信息。它只用来展示 Rotary 的工作方式，不能回答问题。</translation>
    </message>
    <message>
        <source>A model is one large file whose name ends in .gguf. At work, ask your IT contact for one; if you are allowed to download files, Hugging Face (huggingface.co) publishes many. Help → Where models come from says more.</source>
        <translation>模型是一个名称以 .gguf 结尾的大文件。在单位请向 IT 联系人索取；如果允许下载文件，Hugging Face（huggingface.co）上有很多。更多内容见“帮助 → 模型从哪里来”。</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>准备就绪</translation>
    </message>
    <message>
        <source>Set up Rotary</source>
        <translation>设置 Rotary</translation>
    </message>
    <message>
        <source>Your organisation has chosen the model Rotary uses, so there is nothing more to choose.</source>
        <translation>您的单位已经选定了 Rotary 使用的模型，因此无需再做选择。</translation>
    </message>
    <message>
        <source>Rotary could not look at this computer's hardware. You can still continue.</source>
        <translation>Rotary 无法检查这台电脑的硬件。您仍然可以继续。</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <source>Rotary will use {recipe}.</source>
        <translation>Rotary 将使用{recipe}。</translation>
    </message>
    <message>
        <source>{setting}, fitted to the {vram} GB this card has</source>
        <translation>{setting}，并按这张显卡的 {vram} GB 调整</translation>
    </message>
    <message>
        <source>Small demo model</source>
        <translation>小型演示模型</translation>
    </message>
    <message>
        <source>the small demo model</source>
        <translation>小型演示模型</translation>
    </message>
    <message>
        <source>Rotary will use {name} with {recipe}. You can change this later in Settings.</source>
        <translation>Rotary 将以{recipe}使用 {name}。您之后可以在设置中更改。</translation>
    </message>
    <message>
        <source>Rotary reads PDF, Word (.docx), text and Markdown files.</source>
        <translation>Rotary 可以读取 PDF、Word（.docx）、文本和 Markdown 文件。</translation>
    </message>
    <message>
        <source>Please wait until the document has been read.</source>
        <translation>请等待文档读取完成。</translation>
    </message>
    <message>
        <source>Please wait until the document has been summarised.</source>
        <translation>请等待文档总结完成。</translation>
    </message>
    <message>
        <source>Looking at the document…</source>
        <translation>正在查看文档…</translation>
    </message>
    <message>
        <source>Reading the document…</source>
        <translation>正在阅读文档…</translation>
    </message>
    <message>
        <source>The document is no longer at {path}. Attach it again to summarise it.</source>
        <translation>文档已不在 {path}。请重新附加它以进行总结。</translation>
    </message>
    <message>
        <source>Waiting for the model to finish loading before reading.</source>
        <translation>正在等待模型加载完成，然后开始读取。</translation>
    </message>
    <message>
        <source>The model could not be loaded. Reading starts as soon as a model has loaded.</source>
        <translation>无法加载模型。模型一加载完成就开始读取。</translation>
    </message>
    <message>
        <source>Please wait until the current answer is finished.</source>
        <translation>请等待当前回答完成。</translation>
    </message>
    <message>
        <source>I asked: {question}</source>
        <translation>我的要求：{question}</translation>
    </message>
    <message>
        <source>Document: {name} — {found}
{style}</source>
        <translation>文档：{name} — {found}
{style}</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>What was found in the document</source>
        <translation>在文档中发现的内容</translation>
    </message>
    <message>
        <source>Summarise replaces this document's earlier summary, and what followed it in the conversation.</source>
        <translation>点击“总结”会替换此文档之前的总结，以及对话中在它之后的内容。</translation>
    </message>
    <message>
        <source>Kind of summary</source>
        <translation>总结类型</translation>
    </message>
    <message>
        <source>Anything to look for? (optional)</source>
        <translation>有什么需要特别关注的吗？（可选）</translation>
    </message>
    <message>
        <source>What the summary should focus on</source>
        <translation>总结应关注的内容</translation>
    </message>
    <message>
        <source>Summarise</source>
        <translation>总结</translation>
    </message>
    <message>
        <source>Summarise the document</source>
        <translation>总结文档</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Close this card; the document stays in the conversation</source>
        <translation>关闭此卡片；文档仍保留在对话中</translation>
    </message>
    <message>
        <source>Don't read</source>
        <translation>不读取</translation>
    </message>
    <message>
        <source>Don't read the documents waiting for the model</source>
        <translation>不读取正在等待模型的文档</translation>
    </message>
    <message>
        <source>Ask a question about it below, or choose a summary:</source>
        <translation>可在下方就此文档提问，或选择一种总结：</translation>
    </message>
    <message>
        <source>Add documents to ask about or summarise (PDF, Word, text)</source>
        <translation>添加要提问或总结的文档（PDF、Word、文本）</translation>
    </message>
    <message>
        <source>Choose documents</source>
        <translation>选择文档</translation>
    </message>
    <message>
        <source>Parts of the document read</source>
        <translation>已阅读的文档部分</translation>
    </message>
    <message>
        <source>Reading progress</source>
        <translation>阅读进度</translation>
    </message>
    <message>
        <source>Stop reading; keep what was read so far</source>
        <translation>停止阅读；保留目前已读的内容</translation>
    </message>
    <message>
        <source>Attach…</source>
        <translation>附加…</translation>
    </message>
    <message>
        <source>Documents ({patterns})</source>
        <translation>文档 ({patterns})</translation>
    </message>
    <message>
        <source>Where the model runs</source>
        <translation>模型运行的位置</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>这台电脑</translation>
    </message>
    <message>
        <source>An office server</source>
        <translation>办公室服务器</translation>
    </message>
    <message>
        <source>Where your conversations are sent</source>
        <translation>您的对话发送到哪里</translation>
    </message>
    <message>
        <source>Office server address</source>
        <translation>办公室服务器地址</translation>
    </message>
    <message>
        <source>Model on the office server</source>
        <translation>办公室服务器上的模型</translation>
    </message>
    <message>
        <source>Ask the server for its models</source>
        <translation>向服务器查询可用模型</translation>
    </message>
    <message>
        <source>What the server said</source>
        <translation>服务器的答复</translation>
    </message>
    <message>
        <source>Access key (leave empty if the server needs none)</source>
        <translation>访问密钥（服务器不需要时请留空）</translation>
    </message>
    <message>
        <source>The key is kept in this computer's password store, not in Rotary's files.</source>
        <translation>密钥保存在这台电脑的密码库中，而不是 Rotary 的文件里。</translation>
    </message>
    <message>
        <source>This computer has no password store, so Rotary keeps the key only until it closes: type it again after a restart. It is never written to Rotary's files.</source>
        <translation>这台电脑没有密码库，因此 Rotary 只在关闭前保留密钥：重新启动后请再次输入。密钥从不写入 Rotary 的文件。</translation>
    </message>
    <message>
        <source>Check the server's security certificate (recommended)</source>
        <translation>检查服务器的安全证书（推荐）</translation>
    </message>
    <message>
        <source>Without this check, someone on the network could pretend to be the server and read your conversations.</source>
        <translation>如果不检查，网络上的其他人可能冒充服务器并读取您的对话。</translation>
    </message>
    <message>
        <source>The office's certificate file (optional)</source>
        <translation>办公室的证书文件（可选）</translation>
    </message>
    <message>
        <source>Address:</source>
        <translation>地址：</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>Access key:</source>
        <translation>访问密钥：</translation>
    </message>
    <message>
        <source>Office certificate:</source>
        <translation>办公室证书：</translation>
    </message>
    <message>
        <source>The office's certificate file</source>
        <translation>办公室的证书文件</translation>
    </message>
    <message>
        <source>Certificates (*.pem *.crt *.cer);;All files (*)</source>
        <translation>证书 (*.pem *.crt *.cer);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Type the server's address, for example https://ai.office.lan:8000.</source>
        <translation>请输入服务器地址，例如 https://ai.office.lan:8000。</translation>
    </message>
    <message>
        <source>{model} on the office server</source>
        <translation>办公室服务器上的 {model}</translation>
    </message>
    <message>
        <source>Try again</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>My office has a model server: use it instead…</source>
        <translation>我的办公室有模型服务器：改用它…</translation>
    </message>
    <message>
        <source>Use the office's model server instead of this computer</source>
        <translation>使用办公室的模型服务器，而不是这台电脑</translation>
    </message>
    <message>
        <source>This computer's password store did not take the access key, so Rotary keeps it only until it closes. Ask IT to set the store up, or use a server that needs no key.</source>
        <translation>这台电脑的密码库没有接受访问密钥，因此 Rotary 只在关闭前保留它。请让 IT 人员设置密码库，或使用不需要密钥的服务器。</translation>
    </message>
    <message>
        <source>Your conversations stay on this computer. Rotary opens no network connection.</source>
        <translation>您的对话只留在这台电脑上。Rotary 不会打开任何网络连接。</translation>
    </message>
    <message>
        <source>Your conversations are sent to {address} and answered by the model there. Nothing is sent anywhere else.</source>
        <translation>您的对话会发送到 {address}，由那里的模型回答。不会发送到其他任何地方。</translation>
    </message>
    <message>
        <source>settings folder</source>
        <translation>设置文件夹</translation>
    </message>
    <message>
        <source>history folder</source>
        <translation>对话记录文件夹</translation>
    </message>
    <message>
        <source>demo model</source>
        <translation>演示模型</translation>
    </message>
    <message>
        <source>engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>reading scanned pages</source>
        <translation>读取扫描页面</translation>
    </message>
    <message>
        <source>built-in accelerators</source>
        <translation>内置加速功能</translation>
    </message>
    <message>
        <source>working without the network</source>
        <translation>不使用网络运行</translation>
    </message>
    <message>
        <source>showing the window</source>
        <translation>显示窗口</translation>
    </message>
    <message>
        <source>Everything works: Rotary wrote a short answer with its demo model, can save your conversations and settings, and used no network.</source>
        <translation>一切正常：Rotary 用演示模型写出了一段简短回答，可以保存您的对话和设置，并且没有使用网络。</translation>
    </message>
    <message>
        <source>Rotary found a problem on this computer ({names}). Please copy the details for your IT contact.</source>
        <translation>Rotary 在这台电脑上发现了问题（{names}）。请复制详细信息并发给您的 IT 联系人。</translation>
    </message>
    <message>
        <source>saving settings</source>
        <translation>保存设置</translation>
    </message>
    <message>
        <source>saving conversations</source>
        <translation>保存对话</translation>
    </message>
    <message>
        <source>writing the demo model</source>
        <translation>生成演示模型</translation>
    </message>
    <message>
        <source>loading the demo model and writing a short answer</source>
        <translation>加载演示模型并写一个简短的回答</translation>
    </message>
    <message>
        <source>checking the built-in accelerators</source>
        <translation>检查内置加速功能</translation>
    </message>
    <message>
        <source>reading a scanned page</source>
        <translation>读取扫描的页面</translation>
    </message>
    <message>
        <source>checking that nothing used the network</source>
        <translation>确认没有使用网络</translation>
    </message>
    <message>
        <source>Checking {step} of {steps}: {what}… {seconds} s</source>
        <translation>正在检查第 {step} 项（共 {steps} 项）：{what}… {seconds} 秒</translation>
    </message>
    <message>
        <source>The model file cannot be opened. Check that it is still there and that you may read it.</source>
        <translation>无法打开模型文件。请确认文件仍在原处，并且您有读取权限。</translation>
    </message>
    <message>
        <source>Rotary cannot run this kind of model yet.</source>
        <translation>Rotary 目前还无法运行这类模型。</translation>
    </message>
    <message>
        <source>This computer does not have enough memory for this model, even with the smallest settings.</source>
        <translation>即使使用最小的设置，这台电脑的内存也不足以运行此模型。</translation>
    </message>
    <message>
        <source>The model could not be loaded.</source>
        <translation>无法加载模型。</translation>
    </message>
    <message>
        <source>Something went wrong while writing the answer.</source>
        <translation>撰写回答时出了问题。</translation>
    </message>
    <message>
        <source>Something went wrong between this computer and the office server.</source>
        <translation>这台电脑与办公室服务器之间出了问题。</translation>
    </message>
    <message>
        <source>This document is too large for Rotary.</source>
        <translation>此文档对 Rotary 来说太大了。</translation>
    </message>
    <message>
        <source>This document is protected by a password. Save a copy without the password and try again.</source>
        <translation>此文档受密码保护。请另存一份不带密码的副本后再试。</translation>
    </message>
    <message>
        <source>This PDF holds only pictures of its pages (a scan), so there is no text to read.</source>
        <translation>此 PDF 只包含页面图片（扫描件），没有可读取的文字。</translation>
    </message>
    <message>
        <source>This document is damaged, or is not what its name says.</source>
        <translation>此文档已损坏，或与其文件名所示的类型不符。</translation>
    </message>
    <message>
        <source>This document has no text to read.</source>
        <translation>此文档没有可读取的文字。</translation>
    </message>
    <message>
        <source>This document cannot be summarised.</source>
        <translation>无法总结此文档。</translation>
    </message>
    <message>
        <source>Documents in this conversation</source>
        <translation>此对话中的文档</translation>
    </message>
    <message>
        <source>Documents in this conversation (questions search them all):</source>
        <translation>此对话中的文档（提问时会搜索全部）：</translation>
    </message>
    <message>
        <source>Document {name}</source>
        <translation>文档 {name}</translation>
    </message>
    <message>
        <source>Summarise…</source>
        <translation>总结…</translation>
    </message>
    <message>
        <source>Summarise {name}</source>
        <translation>总结 {name}</translation>
    </message>
    <message>
        <source>Remove {name} from this conversation</source>
        <translation>从此对话中移除 {name}</translation>
    </message>
    <message>
        <source>Questions will no longer search it. The file itself is not deleted.</source>
        <translation>提问时将不再搜索此文档。文件本身不会被删除。</translation>
    </message>
    <message>
        <source>The text could not be saved as a document.</source>
        <translation>无法将这段文字保存为文档。</translation>
    </message>
    <message>
        <source>{name}: read.</source>
        <translation>{name}：已读取。</translation>
    </message>
    <message>
        <source>{name}: not read. {why}</source>
        <translation>{name}：未能读取。{why}</translation>
    </message>
    <message>
        <source>{failed} of {count} files could not be read:</source>
        <translation>{count} 个文件中有 {failed} 个无法读取：</translation>
    </message>
    <message>
        <source>What the model thought</source>
        <translation>模型的思考内容</translation>
    </message>
    <message>
        <source>Shows or hides what the model thought before answering</source>
        <translation>显示或隐藏模型在回答前的思考内容</translation>
    </message>
    <message>
        <source>Getting started</source>
        <translation>入门</translation>
    </message>
    <message>
        <source>Type a question in the box at the bottom and press Enter. The answer is written on this computer; nothing is sent to the internet.</source>
        <translation>在底部的输入框中输入问题并按 Enter。回答在这台电脑上写出，不会向互联网发送任何内容。</translation>
    </message>
    <message>
        <source>To ask about a document, press Attach… (or drop the file on the window), then ask your question or press Summarise.</source>
        <translation>要询问文档，请按“附加…”（或把文件拖到窗口上），然后提问或按“总结”。</translation>
    </message>
    <message>
        <source>Stop ends an answer at once and keeps what was written. Your conversations are listed on the left and kept when Rotary closes.</source>
        <translation>“停止”会立即结束回答并保留已写出的内容。您的对话列在左侧，关闭 Rotary 后仍会保留。</translation>
    </message>
    <message>
        <source>The panel on the right shows how fast the answer is written and how much memory the model uses. Settings (Ctrl+,) changes the model and how much it remembers.</source>
        <translation>右侧面板显示回答写出的速度和模型使用的内存。在“设置”（Ctrl+,）中可以更换模型以及它记住的内容量。</translation>
    </message>
    <message>
        <source>Where something goes wrong, the notice at the top says what to do; its "Copy details" button copies what your IT contact needs.</source>
        <translation>出现问题时，顶部的通知会说明该怎么做；其中的“复制详细信息”按钮会复制 IT 联系人需要的内容。</translation>
    </message>
    <message>
        <source>Where models come from</source>
        <translation>模型从哪里来</translation>
    </message>
    <message>
        <source>A model is one large file whose name ends in .gguf (often several gigabytes). Rotary does not include one, apart from a very small demo model for trying it out.</source>
        <translation>模型是一个名称以 .gguf 结尾的大文件（通常有几个 GB）。除了一个用于试用的很小的演示模型外，Rotary 不自带模型。</translation>
    </message>
    <message>
        <source>At work, ask your IT contact for a model file approved by your organisation.</source>
        <translation>在单位，请向 IT 联系人索取本单位批准的模型文件。</translation>
    </message>
    <message>
        <source>If you are allowed to download files, models are published on Hugging Face (huggingface.co): look for a model in GGUF format whose name contains "Instruct" or "Chat", in a size that fits your computer.</source>
        <translation>如果允许下载文件，可以在 Hugging Face（huggingface.co）上找到公开的模型：请选择名称含有“Instruct”或“Chat”、GGUF 格式、大小适合您电脑的模型。</translation>
    </message>
    <message>
        <source>Then choose the file in Settings (Ctrl+,) or in First-time setup.</source>
        <translation>然后在“设置”（Ctrl+,）或“首次设置”中选择该文件。</translation>
    </message>
    <message>
        <source>Back-end: {backend}.</source>
        <translation>后端：{backend}。</translation>
    </message>
    <message>
        <source>The log folder</source>
        <translation>日志文件夹</translation>
    </message>
    <message>
        <source>Rotary could not open a file manager on this computer. The log folder is:</source>
        <translation>Rotary 无法在这台电脑上打开文件管理器。日志文件夹位于：</translation>
    </message>
    <message>
        <source>Copy the path</source>
        <translation>复制路径</translation>
    </message>
    <message>
        <source>Copy the log folder's path</source>
        <translation>复制日志文件夹的路径</translation>
    </message>
    <message>
        <source>The model runs on the office server.</source>
        <translation>模型在办公室服务器上运行。</translation>
    </message>
    <message>
        <source>The model runs on this computer.</source>
        <translation>模型在这台电脑上运行。</translation>
    </message>
    <message>
        <source>No model is loaded.</source>
        <translation>未加载模型。</translation>
    </message>
    <message>
        <source>Rotary runs language models on this computer, without the internet.</source>
        <translation>Rotary 在这台电脑上运行语言模型，无需互联网。</translation>
    </message>
    <message>
        <source>Log file: {path}</source>
        <translation>日志文件：{path}</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>About Rotary</source>
        <translation>关于 Rotary</translation>
    </message>
    <message>
        <source>from LM Studio</source>
        <translation>来自 LM Studio</translation>
    </message>
    <message>
        <source>from Ollama</source>
        <translation>来自 Ollama</translation>
    </message>
    <message>
        <source>from Jan</source>
        <translation>来自 Jan</translation>
    </message>
    <message>
        <source>from GPT4All</source>
        <translation>来自 GPT4All</translation>
    </message>
    <message>
        <source>from Hugging Face</source>
        <translation>来自 Hugging Face</translation>
    </message>
    <message>
        <source>in Downloads</source>
        <translation>在“下载”中</translation>
    </message>
    <message>
        <source>in Documents</source>
        <translation>在“文档”中</translation>
    </message>
    <message>
        <source>from your organisation</source>
        <translation>由您的单位提供</translation>
    </message>
    <message>
        <source>{first} and {second}</source>
        <translation>{first}和{second}</translation>
    </message>
    <message>
        <source>Design: {name}</source>
        <translation>设计：{name}</translation>
    </message>
    <message>
        <source>made of {n} experts</source>
        <translation>由 {n} 个专家组成</translation>
    </message>
    <message>
        <source>can think before answering</source>
        <translation>可以在回答前思考</translation>
    </message>
    <message>
        <source>{size} GB</source>
        <translation>{size} GB</translation>
    </message>
    <message>
        <source>Runs on the graphics card.</source>
        <translation>在显卡上运行。</translation>
    </message>
    <message>
        <source>Runs on the processor.</source>
        <translation>在处理器上运行。</translation>
    </message>
    <message>
        <source>Looking for models on this computer…</source>
        <translation>正在这台电脑上查找模型…</translation>
    </message>
    <message>
        <source>Models found on this computer, best fit first</source>
        <translation>在这台电脑上找到的模型（最合适的在前）</translation>
    </message>
    <message>
        <source>Other file…</source>
        <translation>其他文件…</translation>
    </message>
    <message>
        <source>Choose another model file</source>
        <translation>选择另一个模型文件</translation>
    </message>
    <message>
        <source>Rotary could not look for other models on this computer.</source>
        <translation>Rotary 无法在这台电脑上查找其他模型。</translation>
    </message>
    <message>
        <source>Models found on this computer, best fit first:</source>
        <translation>在这台电脑上找到的模型（最合适的在前）：</translation>
    </message>
    <message>
        <source>No other models were found on this computer.</source>
        <translation>在这台电脑上没有找到其他模型。</translation>
    </message>
    <message>
        <source>No models were found on this computer. Choose a model file with Other file…</source>
        <translation>在这台电脑上没有找到模型。请用“其他文件…”选择模型文件。</translation>
    </message>
    <message>
        <source>Chosen: {name}</source>
        <translation>已选择：{name}</translation>
    </message>
    <message>
        <source>Rotary could not look for models. Choose a model file with Other file…</source>
        <translation>Rotary 无法查找模型。请用“其他文件…”选择模型文件。</translation>
    </message>
    <message>
        <source>Rotary could not open it.</source>
        <translation>Rotary 无法打开它。</translation>
    </message>
    <message>
        <source>It is not written correctly.</source>
        <translation>它的写法不正确。</translation>
    </message>
    <message>
        <source>Your organisation's settings file ({path}) was ignored: {why} Ask your IT department to check it.</source>
        <translation>已忽略您单位的设置文件（{path}）：{why} 请让 IT 部门检查它。</translation>
    </message>
    <message>
        <source>Your organisation's settings file ({path}) has a value Rotary cannot use ({what}), so that value was left out.</source>
        <translation>您单位的设置文件（{path}）中有一个 Rotary 无法使用的值（{what}），因此已略过该值。</translation>
    </message>
    <message>
        <source>Set by your organisation</source>
        <translation>由您的单位设置</translation>
    </message>
    <message>
        <source>Reading your message… {percent}%</source>
        <translation>正在阅读您的消息… {percent}%</translation>
    </message>
    <message>
        <source>Reading your message… {percent}% — almost done</source>
        <translation>正在阅读您的消息… {percent}% — 快完成了</translation>
    </message>
    <message>
        <source>Reading your message… {percent}% — about {seconds} s left</source>
        <translation>正在阅读您的消息… {percent}% — 大约还剩 {seconds} 秒</translation>
    </message>
    <message>
        <source>Reading your message… {percent}% — about {minutes} min left</source>
        <translation>正在阅读您的消息… {percent}% — 大约还剩 {minutes} 分钟</translation>
    </message>
</context>
<context>
    <name>engine</name>
    <message>
        <source>{first} {second}</source>
        <translation>{first}{second}</translation>
    </message>
    <message>
        <source>{gb} GB</source>
        <translation>{gb} GB</translation>
    </message>
    <message>
        <source>{mb} MB</source>
        <translation>{mb} MB</translation>
    </message>
    <message>
        <source>No model is loaded yet. Choose a model in Settings.</source>
        <translation>尚未加载模型。请在“设置”中选择模型。</translation>
    </message>
    <message>
        <source>Something went wrong inside the engine.</source>
        <translation>引擎内部出现问题。</translation>
    </message>
    <message>
        <source>1 page</source>
        <translation>1 页</translation>
    </message>
    <message>
        <source>{n:,} pages</source>
        <translation>{n:,} 页</translation>
    </message>
    <message>
        <source>1 section</source>
        <translation>1 节</translation>
    </message>
    <message>
        <source>{n:,} sections</source>
        <translation>{n:,} 节</translation>
    </message>
    <message>
        <source>1 line</source>
        <translation>1 行</translation>
    </message>
    <message>
        <source>{n:,} lines</source>
        <translation>{n:,} 行</translation>
    </message>
    <message>
        <source>{n} words</source>
        <translation>{n} 个词</translation>
    </message>
    <message>
        <source>about {n:,} words</source>
        <translation>约 {n:,} 个词</translation>
    </message>
    <message>
        <source>{found}, {words}</source>
        <translation>{found}，{words}</translation>
    </message>
    <message>
        <source>{text}.</source>
        <translation>{text}。</translation>
    </message>
    <message>
        <source>Short summary</source>
        <translation>简短总结</translation>
    </message>
    <message>
        <source>Detailed summary</source>
        <translation>详细总结</translation>
    </message>
    <message>
        <source>Bullet points</source>
        <translation>要点列表</translation>
    </message>
    <message>
        <source>Action items</source>
        <translation>待办事项</translation>
    </message>
    <message>
        <source>read in one pass</source>
        <translation>一次读完</translation>
    </message>
    <message>
        <source>read in {n} parts</source>
        <translation>分 {n} 部分阅读</translation>
    </message>
    <message>
        <source>in one pass</source>
        <translation>一次</translation>
    </message>
    <message>
        <source>in {n} parts</source>
        <translation>分 {n} 部分</translation>
    </message>
    <message>
        <source>less than a minute on this computer</source>
        <translation>在这台电脑上不到 1 分钟</translation>
    </message>
    <message>
        <source>about 1 minute on this computer</source>
        <translation>在这台电脑上大约 1 分钟</translation>
    </message>
    <message>
        <source>about {n} minutes on this computer</source>
        <translation>在这台电脑上大约 {n} 分钟</translation>
    </message>
    <message>
        <source>about {n:.1f} hours on this computer</source>
        <translation>在本机上约 {n:.1f} 小时</translation>
    </message>
    <message>
        <source>less than a minute on the office server</source>
        <translation>在办公室服务器上不到 1 分钟</translation>
    </message>
    <message>
        <source>about 1 minute on the office server</source>
        <translation>在办公室服务器上约 1 分钟</translation>
    </message>
    <message>
        <source>about {n} minutes on the office server</source>
        <translation>在办公室服务器上约 {n} 分钟</translation>
    </message>
    <message>
        <source>about {n:.1f} hours on the office server</source>
        <translation>在办公室服务器上约 {n:.1f} 小时</translation>
    </message>
    <message>
        <source>Less than a minute left.</source>
        <translation>剩余不到 1 分钟。</translation>
    </message>
    <message>
        <source>About 1 minute left.</source>
        <translation>大约还剩 1 分钟。</translation>
    </message>
    <message>
        <source>About {n} minutes left.</source>
        <translation>大约还剩 {n} 分钟。</translation>
    </message>
    <message>
        <source>{found}, {how}.</source>
        <translation>{found}，{how}。</translation>
    </message>
    <message>
        <source>{found}, {how}, {duration}.</source>
        <translation>{found}，{how}，{duration}。</translation>
    </message>
    <message>
        <source>{pages} and {n} more</source>
        <translation>{pages} 等另外 {n} 页</translation>
    </message>
    <message>
        <source>Page {pages} has no text (probably a picture) and will be skipped.</source>
        <translation>第 {pages} 页没有文字（可能是图片），将被跳过。</translation>
    </message>
    <message>
        <source>Pages {pages} have no text (probably pictures) and will be skipped.</source>
        <translation>第 {pages} 页没有文字（可能是图片），将被跳过。</translation>
    </message>
    <message>
        <source>Page {pages} has no text and could not be read.</source>
        <translation>第 {pages} 页没有文字，无法读取。</translation>
    </message>
    <message>
        <source>Pages {pages} have no text and could not be read.</source>
        <translation>第 {pages} 页没有文字，无法读取。</translation>
    </message>
    <message>
        <source>Page {pages} is a picture (probably scanned): text recognition read it in {seconds:.0f} s.</source>
        <translation>第 {pages} 页是图片（可能是扫描件）：文字识别用 {seconds:.0f} 秒读取了它。</translation>
    </message>
    <message>
        <source>Pages {pages} are pictures (probably scanned): text recognition read them in {seconds:.0f} s.</source>
        <translation>第 {pages} 页是图片（可能是扫描件）：文字识别用 {seconds:.0f} 秒读取了它们。</translation>
    </message>
    <message>
        <source>Read all of it ({found}) {how}.</source>
        <translation>已{how}读完全部内容（{found}）。</translation>
    </message>
    <message>
        <source>Read all of it ({found}) {how}, but stopped before the summary was finished.</source>
        <translation>已{how}读完全部内容（{found}），但在总结完成之前停止了。</translation>
    </message>
    <message>
        <source>Stopped before any of it ({found}) was read.</source>
        <translation>在阅读文档（{found}）之前就停止了。</translation>
    </message>
    <message>
        <source>Partial: read {done} of {parts} parts of it ({found}); the rest was not read.</source>
        <translation>部分：已读文档（{found}）{parts} 个部分中的 {done} 个，其余未读。</translation>
    </message>
    <message>
        <source>Partial: read {where} of {found} ({done} of {parts} parts); the rest was not read.</source>
        <translation>部分：已读文档（{found}）中的{where}（{parts} 个部分中的 {done} 个），其余未读。</translation>
    </message>
    <message>
        <source>Partial summary: stopped before the end.</source>
        <translation>部分总结：在结束前停止了。</translation>
    </message>
    <message>
        <source>Reading the whole document and writing the summary…</source>
        <translation>正在阅读整个文档并撰写总结…</translation>
    </message>
    <message>
        <source>Reading part {part} of {parts}…</source>
        <translation>正在阅读第 {part} 部分，共 {parts} 部分…</translation>
    </message>
    <message>
        <source>Writing the summary from the notes on all {parts} parts…</source>
        <translation>正在根据全部 {parts} 个部分的笔记撰写总结…</translation>
    </message>
    <message>
        <source>Reading page {page} of {pages} with text recognition…</source>
        <translation>正在用文字识别读取第 {page} 页，共 {pages} 页…</translation>
    </message>
    <message>
        <source>Looking for the passages that answer your question…</source>
        <translation>正在查找能回答您问题的段落…</translation>
    </message>
    <message>
        <source>Reading {n} passages from {where}…</source>
        <translation>正在读取 {where} 中的 {n} 个段落…</translation>
    </message>
    <message>
        <source>p. {page}</source>
        <translation>第 {page} 页</translation>
    </message>
    <message>
        <source>pp. {pages}</source>
        <translation>第 {pages} 页</translation>
    </message>
    <message>
        <source>section “{heading}”</source>
        <translation>“{heading}”部分</translation>
    </message>
    <message>
        <source>lines {lines}</source>
        <translation>第 {lines} 行</translation>
    </message>
    <message>
        <source>the beginning</source>
        <translation>开头部分</translation>
    </message>
    <message>
        <source>{name}, {where}</source>
        <translation>{name}，{where}</translation>
    </message>
    <message>
        <source>{first}; {second}</source>
        <translation>{first}；{second}</translation>
    </message>
    <message>
        <source>{name} (all of it)</source>
        <translation>{name}（全部）</translation>
    </message>
    <message>
        <source>Read for this answer: {where}.</source>
        <translation>本回答阅读了：{where}。</translation>
    </message>
    <message>
        <source>Read all of it for this answer ({where}), {how}.</source>
        <translation>为本回答{how}读完了全部内容（{where}）。</translation>
    </message>
    <message>
        <source>not found on {where}</source>
        <translation>在{where}未找到</translation>
    </message>
    <message>
        <source>the document has no {where}</source>
        <translation>文档中没有{where}</translation>
    </message>
    <message>
        <source>{passed} of {checked} page references checked against the pages.</source>
        <translation>{checked} 处页码引用中有 {passed} 处已在对应页面核实。</translation>
    </message>
    <message>
        <source>'{name}' is in the old Word format (.doc). Open it in Word and save it as .docx, then drop it here again.</source>
        <translation>“{name}”是旧版 Word 格式（.doc）。请在 Word 中打开并另存为 .docx，然后再拖到这里。</translation>
    </message>
    <message>
        <source>Rotary cannot read '{name}'. It reads PDF, Word (.docx), text and Markdown files.</source>
        <translation>Rotary 无法读取“{name}”。它可读取 PDF、Word（.docx）、文本和 Markdown 文件。</translation>
    </message>
    <message>
        <source>'{name}' could not be opened.</source>
        <translation>无法打开“{name}”。</translation>
    </message>
    <message>
        <source>'{name}' is a folder, not a document.</source>
        <translation>“{name}”是文件夹，不是文档。</translation>
    </message>
    <message>
        <source>'{name}' is empty.</source>
        <translation>“{name}”是空的。</translation>
    </message>
    <message>
        <source>'{name}' contains no text to read.</source>
        <translation>“{name}”中没有可读的文字。</translation>
    </message>
    <message>
        <source>'{name}' is {mb:,.0f} MB; Rotary reads documents up to {limit:,.0f} MB.</source>
        <translation>“{name}”有 {mb:,.0f} MB；Rotary 最多读取 {limit:,.0f} MB 的文档。</translation>
    </message>
    <message>
        <source>This file is not a PDF, although its name ends in .pdf.</source>
        <translation>此文件名以 .pdf 结尾，但它不是 PDF。</translation>
    </message>
    <message>
        <source>This PDF has {n:,} pages; Rotary reads documents up to {limit:,} pages.</source>
        <translation>此 PDF 有 {n:,} 页；Rotary 最多读取 {limit:,} 页的文档。</translation>
    </message>
    <message>
        <source>This PDF's pages are pictures (probably scanned), and text recognition is not installed with this copy of Rotary, so it cannot read them.</source>
        <translation>此 PDF 的页面是图片（可能是扫描件），而此版 Rotary 未安装文字识别，因此无法读取。</translation>
    </message>
    <message>
        <source>This PDF's pages are pictures (probably scanned), and text recognition found no words on them.</source>
        <translation>此 PDF 的页面是图片（可能是扫描件），文字识别也未在其中找到文字。</translation>
    </message>
    <message>
        <source>This PDF is protected by a password. Open it, save a copy without the password, and drop that copy here.</source>
        <translation>此 PDF 受密码保护。请打开它，另存一份不带密码的副本，然后把副本拖到这里。</translation>
    </message>
    <message>
        <source>This PDF is damaged and could not be opened.</source>
        <translation>此 PDF 已损坏，无法打开。</translation>
    </message>
    <message>
        <source>This PDF holds more text than Rotary can read at once (it stopped at page {page} of {pages}).</source>
        <translation>此 PDF 的文字超过 Rotary 一次能读取的量（在第 {page} 页停止，共 {pages} 页）。</translation>
    </message>
    <message>
        <source>This Word file is protected by a password (or is an old .doc renamed to .docx). Open it in Word, save a copy without the password as .docx, and drop that copy here.</source>
        <translation>此 Word 文件受密码保护（或是改名为 .docx 的旧版 .doc）。请在 Word 中打开，另存一份不带密码的 .docx 副本，然后把副本拖到这里。</translation>
    </message>
    <message>
        <source>This Word file is damaged and could not be opened.</source>
        <translation>此 Word 文件已损坏，无法打开。</translation>
    </message>
    <message>
        <source>This file is not a Word document, although its name ends in .docx.</source>
        <translation>此文件名以 .docx 结尾，但它不是 Word 文档。</translation>
    </message>
    <message>
        <source>'{name}' is really {what}, although its name ends in {suffix}. {advice}</source>
        <translation>“{name}”的文件名以 {suffix} 结尾，但它实际上是{what}。{advice}</translation>
    </message>
    <message>
        <source>an Excel workbook</source>
        <translation>Excel 工作簿</translation>
    </message>
    <message>
        <source>an old Excel workbook (.xls)</source>
        <translation>旧版 Excel 工作簿（.xls）</translation>
    </message>
    <message>
        <source>a PowerPoint presentation</source>
        <translation>PowerPoint 演示文稿</translation>
    </message>
    <message>
        <source>an old PowerPoint presentation (.ppt)</source>
        <translation>旧版 PowerPoint 演示文稿（.ppt）</translation>
    </message>
    <message>
        <source>an old Word document (.doc)</source>
        <translation>旧版 Word 文档（.doc）</translation>
    </message>
    <message>
        <source>an OpenDocument file (LibreOffice)</source>
        <translation>OpenDocument 文件（LibreOffice）</translation>
    </message>
    <message>
        <source>a ZIP archive</source>
        <translation>一个 ZIP 压缩文件</translation>
    </message>
    <message>
        <source>an old Microsoft Office file</source>
        <translation>旧版 Microsoft Office 文件</translation>
    </message>
    <message>
        <source>an Office file protected by a password</source>
        <translation>受密码保护的 Office 文件</translation>
    </message>
    <message>
        <source>a Rich Text document (.rtf)</source>
        <translation>RTF 格式文档（.rtf）</translation>
    </message>
    <message>
        <source>a picture</source>
        <translation>图片</translation>
    </message>
    <message>
        <source>Open it in the program that made it, save it as PDF (or as .docx), and attach that file.</source>
        <translation>请在创建它的程序中打开，另存为 PDF（或 .docx），然后附加该文件。</translation>
    </message>
    <message>
        <source>Open it in Word, save it as .docx, and attach that file.</source>
        <translation>请在 Word 中打开，另存为 .docx，然后附加该文件。</translation>
    </message>
    <message>
        <source>Unpack it and attach the documents inside.</source>
        <translation>请解压缩，然后附加其中的文档。</translation>
    </message>
    <message>
        <source>Rotary reads text, not pictures: attach the document itself, or a PDF of it.</source>
        <translation>Rotary 读取的是文字而不是图片：请附加文档本身或它的 PDF。</translation>
    </message>
    <message>
        <source>Open it, save a copy without the password as PDF or .docx, and attach that copy.</source>
        <translation>请打开它，将不带密码的副本另存为 PDF 或 .docx，然后附加该副本。</translation>
    </message>
    <message>
        <source>This Word file unpacks to more data than Rotary reads ({mb:,.0f} MB).</source>
        <translation>此 Word 文件解压后的数据超过 Rotary 可读取的量（{mb:,.0f} MB）。</translation>
    </message>
    <message>
        <source>This text file holds more text than Rotary can read at once.</source>
        <translation>此文本文件的文字超过 Rotary 一次能读取的量。</translation>
    </message>
    <message>
        <source>This file does not contain readable text, although its name says it is a text file.</source>
        <translation>此文件名表明它是文本文件，但其中没有可读的文字。</translation>
    </message>
    <message>
        <source>This file does not contain text (it looks like a program or a picture), although its name says it is a text file.</source>
        <translation>此文件名表明它是文本文件，但其中不是文字（看起来像程序或图片）。</translation>
    </message>
    <message>
        <source>There is no summary style called '{name}'.</source>
        <translation>没有名为“{name}”的总结方式。</translation>
    </message>
    <message>
        <source>The model's memory (context) is too small to read documents. Choose a larger context in Settings.</source>
        <translation>模型的记忆空间（上下文）太小，无法读取文档。请在“设置”中选择更大的上下文。</translation>
    </message>
    <message>
        <source>The document could not be split to fit the model's memory.</source>
        <translation>无法将文档拆分到适合模型记忆空间的大小。</translation>
    </message>
    <message>
        <source>Text recognition was stopped, so the document was not read.</source>
        <translation>文字识别已停止，因此未读取该文档。</translation>
    </message>
    <message>
        <source>This conversation has no documents to search. Attach one first.</source>
        <translation>此对话中没有可搜索的文档。请先附加一个文档。</translation>
    </message>
    <message>
        <source>'{name}' is no longer in Rotary's list of read documents. Attach it again.</source>
        <translation>“{name}”已不在 Rotary 已读文档列表中。请重新附加。</translation>
    </message>
    <message>
        <source>No model is loaded yet, so the document cannot be read. Choose a model in Settings.</source>
        <translation>尚未加载模型，因此无法阅读文档。请在“设置”中选择模型。</translation>
    </message>
    <message>
        <source>The document was not read: it was stopped before it started.</source>
        <translation>文档没有被阅读：它在开始之前就被停止了。</translation>
    </message>
    <message>
        <source>Name a model file, or an office server with --server URL.</source>
        <translation>请指定一个模型文件，或用 --server URL 指定办公室服务器。</translation>
    </message>
    <message>
        <source>Name a model file with --model, or an office server with --server URL.</source>
        <translation>请用 --model 指定一个模型文件，或用 --server URL 指定办公室服务器。</translation>
    </message>
    <message>
        <source>This model has no experts, so there is no routing to record.</source>
        <translation>此模型没有专家，因此没有可记录的路由。</translation>
    </message>
    <message>
        <source>Checking the model file…</source>
        <translation>正在检查模型文件…</translation>
    </message>
    <message>
        <source>Loading the model into memory…</source>
        <translation>正在将模型载入内存…</translation>
    </message>
    <message>
        <source>Finding the faster way to use your graphics card (once)…</source>
        <translation>正在寻找更快使用显卡的方式（仅此一次）…</translation>
    </message>
    <message>
        <source>The model is ready.</source>
        <translation>模型已就绪。</translation>
    </message>
    <message>
        <source>{summary} {note}</source>
        <translation>{summary}{note}</translation>
    </message>
    <message>
        <source>This build of Rotary cannot copy the parts of the model a conversation uses most to the graphics card, so whole parts of the model are placed there instead.</source>
        <translation>此版本的 Rotary 无法把对话最常用的模型部分复制到显卡上，因此改为把模型的整个部分放到显卡上。</translation>
    </message>
    <message>
        <source>Rotary could not copy the parts of the model a conversation uses most to the graphics card here, so whole parts of the model are placed there instead.</source>
        <translation>在这台电脑上 Rotary 无法把对话最常用的模型部分复制到显卡上，因此改为把模型的整个部分放到显卡上。</translation>
    </message>
    <message>
        <source>There was not enough graphics memory to copy the parts of the model a conversation uses most to the graphics card.</source>
        <translation>显存不足，无法把对话最常用的模型部分复制到显卡上。</translation>
    </message>
    <message>
        <source>There was not enough memory to load this model with the current settings.</source>
        <translation>以当前设置加载此模型时内存不足。</translation>
    </message>
    <message>
        <source>The model file {name} could not be loaded.</source>
        <translation>无法加载模型文件 {name}。</translation>
    </message>
    <message>
        <source>This model has no experts to keep on the graphics card.</source>
        <translation>此模型没有可以放在显卡上的专家。</translation>
    </message>
    <message>
        <source>This computer does not have enough memory for this model, even with the smallest settings. Try a smaller model.</source>
        <translation>即使使用最小的设置，这台电脑的内存也不足以运行此模型。请换一个更小的模型。</translation>
    </message>
    <message>
        <source>Not enough graphics memory, so less of the model is kept on the graphics card.</source>
        <translation>显存不足，因此放在显卡上的模型部分更少。</translation>
    </message>
    <message>
        <source>The model runs on the graphics card {device}: {gpu} of it there and {ram} in main memory.</source>
        <translation>模型在显卡 {device} 上运行：其中 {gpu} 在显卡上，{ram} 在主内存中。</translation>
    </message>
    <message>
        <source>The model runs on {device}, software that imitates a graphics card on the processor: {gpu} of it there and {ram} in main memory. It writes much more slowly than the processor alone.</source>
        <translation>模型在 {device} 上运行，这是在处理器上模拟显卡的软件：其中 {gpu} 在那里，{ram} 在主内存中。它的写作速度远慢于单用处理器。</translation>
    </message>
    <message>
        <source>The model runs on the graphics card {device}: {gpu} of it there ({slots} of it for the parts the conversation uses most) and {ram} in main memory.</source>
        <translation>模型在显卡 {device} 上运行：其中 {gpu} 在显卡上（其中 {slots} 用于对话最常用的部分），{ram} 在主内存中。</translation>
    </message>
    <message>
        <source>The model runs on the processor ({ram} in main memory); no graphics card is used.</source>
        <translation>模型在处理器上运行（主内存中 {ram}）；未使用显卡。</translation>
    </message>
    <message>
        <source>The model runs on the processor; no graphics card is used.</source>
        <translation>模型在处理器上运行；未使用显卡。</translation>
    </message>
    <message>
        <source>{placed} {unused}</source>
        <translation>{placed}{unused}</translation>
    </message>
    <message>
        <source>The model stopped unexpectedly while writing.</source>
        <translation>模型在撰写回答时意外停止了。</translation>
    </message>
    <message>
        <source>Rotary does not know how to hold a conversation with this model.</source>
        <translation>Rotary 不知道如何与这个模型对话。</translation>
    </message>
    <message>
        <source>This installation of Rotary is incomplete: the part that writes conversations for the model is missing. Install Rotary again.</source>
        <translation>此 Rotary 安装不完整：为模型编写对话的部分缺失。请重新安装 Rotary。</translation>
    </message>
    <message>
        <source>(The model asked to use a tool, "{name}", which Rotary does not offer, so nothing was run.)</source>
        <translation>(模型想使用工具"{name}"，但 Rotary 不提供工具，因此没有执行任何操作。)</translation>
    </message>
    <message>
        <source>(The model asked to use a tool, which Rotary does not offer, so nothing was run.)</source>
        <translation>(模型想使用工具，但 Rotary 不提供工具，因此没有执行任何操作。)</translation>
    </message>
    <message>
        <source>This conversation is too long for the model's memory. Start a new chat or shorten the text.</source>
        <translation>这段对话对模型的记忆来说太长了。请新建对话或缩短文字。</translation>
    </message>
    <message>
        <source>The model started repeating the same words over and over, so Rotary stopped it and kept them once. Try Write again, or another model in Settings.</source>
        <translation>模型开始一遍又一遍地重复同样的话，Rotary 已将其停止，重复的内容只保留一次。请点“重新撰写”，或在设置中换一个模型。</translation>
    </message>
    <message>
        <source>The model started repeating the same words over and over while reading this document, so Rotary stopped and kept no summary. Try again, or another model in Settings.</source>
        <translation>模型在阅读这份文档时开始一遍又一遍地重复同样的话，Rotary 已停止，没有保存总结。请重试，或在设置中换一个模型。</translation>
    </message>
    <message>
        <source>Thought for {words:,} words</source>
        <translation>思考了 {words:,} 个词</translation>
    </message>
    <message>
        <source>Thought for {words:,} words, stopped to answer</source>
        <translation>思考了 {words:,} 个词，停下来作答</translation>
    </message>
    <message>
        <source>This message is too long for the model's memory: {words:,} words, where it can take about {room:,}. Attach it as a document instead, or shorten it; your earlier messages are kept.</source>
        <translation>这条消息对模型的记忆来说太长了：共 {words:,} 个词，而它最多能接收约 {room:,} 个词。请改为作为文档附加，或将其缩短；之前的消息会保留。</translation>
    </message>
    <message>
        <source>The model file's own: answer variety (temperature) {temperature}, top-p {top_p}, top-k {top_k}.</source>
        <translation>模型文件自带的设置：回答多样性（temperature）{temperature}，top-p {top_p}，top-k {top_k}。</translation>
    </message>
    <message>
        <source>Recommended for this kind of model: answer variety (temperature) {temperature}, top-p {top_p}, top-k {top_k}.</source>
        <translation>此类模型的推荐设置：回答多样性（temperature）{temperature}，top-p {top_p}，top-k {top_k}。</translation>
    </message>
    <message>
        <source>Rotary's usual: answer variety (temperature) {temperature}, top-p {top_p}, top-k {top_k}.</source>
        <translation>Rotary 的常用设置：回答多样性（temperature）{temperature}，top-p {top_p}，top-k {top_k}。</translation>
    </message>
    <message>
        <source>{said} Min-p {min_p}.</source>
        <translation>{said}min-p {min_p}。</translation>
    </message>
    <message>
        <source>The model file “{name}” could not be found. It may have been moved or deleted.</source>
        <translation>找不到模型文件“{name}”。它可能已被移动或删除。</translation>
    </message>
    <message>
        <source>Rotary is not allowed to open the model file “{name}”. Ask your IT contact to let your account read it.</source>
        <translation>Rotary 无权打开模型文件“{name}”。请让您的 IT 人员允许您的账户读取它。</translation>
    </message>
    <message>
        <source>The model file “{name}” could not be opened.</source>
        <translation>无法打开模型文件“{name}”。</translation>
    </message>
    <message>
        <source>“{name}” is a folder, not a model file. Choose the .gguf file inside it.</source>
        <translation>“{name}”是文件夹，不是模型文件。请选择其中的 .gguf 文件。</translation>
    </message>
    <message>
        <source>This file is not a model Rotary can use. Choose a .gguf model file.</source>
        <translation>此文件不是 Rotary 可以使用的模型。请选择 .gguf 模型文件。</translation>
    </message>
    <message>
        <source>This file is not a model Rotary can use: it is too short. Choose a .gguf model file.</source>
        <translation>此文件不是 Rotary 可以使用的模型：它太短了。请选择 .gguf 模型文件。</translation>
    </message>
    <message>
        <source>This file is not a model Rotary can use: it looks like {kind}. Choose a .gguf model file.</source>
        <translation>此文件不是 Rotary 可以使用的模型：它看起来是{kind}。请选择 .gguf 模型文件。</translation>
    </message>
    <message>
        <source>a PDF document</source>
        <translation>一个 PDF 文档</translation>
    </message>
    <message>
        <source>a PNG picture</source>
        <translation>一张 PNG 图片</translation>
    </message>
    <message>
        <source>a model in an old format Rotary cannot read</source>
        <translation>一个 Rotary 无法读取的旧格式模型</translation>
    </message>
    <message>
        <source>This model file was made for a different kind of computer. Rotary needs the ordinary version of the file.</source>
        <translation>此模型文件是为另一类电脑制作的。Rotary 需要该文件的普通版本。</translation>
    </message>
    <message>
        <source>This model file is in a format Rotary cannot read (version {version}).</source>
        <translation>此模型文件的格式 Rotary 无法读取（版本 {version}）。</translation>
    </message>
    <message>
        <source>The model file is damaged. Copy or download it again.</source>
        <translation>模型文件已损坏。请重新复制或下载。</translation>
    </message>
    <message>
        <source>The model file is incomplete or damaged. Copy or download it again.</source>
        <translation>模型文件不完整或已损坏。请重新复制或下载。</translation>
    </message>
    <message>
        <source>The model file describes itself in a way Rotary cannot read.</source>
        <translation>模型文件对自身的描述方式 Rotary 无法读取。</translation>
    </message>
    <message>
        <source>This model is stored in a way Rotary does not know yet.</source>
        <translation>此模型的存储方式 Rotary 还不认识。</translation>
    </message>
    <message>
        <source>The model file does not say what kind of model it is. It may be damaged.</source>
        <translation>模型文件没有说明它是哪种模型。它可能已损坏。</translation>
    </message>
    <message>
        <source>Rotary cannot run this kind of model yet (its design is called “{design}”).</source>
        <translation>Rotary 目前还无法运行这类模型（其结构名为“{design}”）。</translation>
    </message>
    <message>
        <source>Rotary cannot use the graphics card {name}: this installation has no graphics support for it, so the model runs on the processor, more slowly. Install Rotary's package with graphics support (or ask your IT contact to).</source>
        <translation>Rotary 无法使用显卡 {name}：此安装不包含对它的显卡支持，因此模型在处理器上运行，速度较慢。请安装带显卡支持的 Rotary 安装包（或请 IT 联系人安装）。</translation>
    </message>
    <message>
        <source>Rotary could not start the graphics card {name}, so the model runs on the processor, more slowly. Updating the graphics card's driver from its maker's website usually fixes this; then restart Rotary.</source>
        <translation>Rotary 无法启动显卡 {name}，因此模型在处理器上运行，速度较慢。通常从显卡厂商网站更新显卡驱动即可解决；然后重新启动 Rotary。</translation>
    </message>
    <message>
        <source>The graphics {name} is built into the processor and shares main memory, so Rotary keeps the model in main memory instead.</source>
        <translation>图形处理器 {name} 内置于处理器中并共用主内存，因此 Rotary 把模型放在主内存中。</translation>
    </message>
    <message>
        <source>{name} is not a graphics card but software that imitates one on the processor, many times more slowly, so Rotary uses the processor directly.</source>
        <translation>{name} 不是显卡，而是在处理器上模拟显卡的软件，速度要慢许多倍，因此 Rotary 直接使用处理器。</translation>
    </message>
    <message>
        <source>There is no device named {name}. `python -m engine devices` lists the ones this installation can use.</source>
        <translation>没有名为 {name} 的设备。`python -m engine devices` 会列出此安装可以使用的设备。</translation>
    </message>
    <message>
        <source>Processor code, by the model's main weight type:</source>
        <translation>处理器代码（按模型的主要权重类型）：</translation>
    </message>
    <message>
        <source>{weights} weights: {label} ({variant}), measured: it reads a prompt {score:.2f}× as fast as the portable build.</source>
        <translation>{weights} 权重：{label}（{variant}），实测读取提示的速度是通用版本的 {score:.2f} 倍。</translation>
    </message>
    <message>
        <source>{weights} weights: {label} ({variant}), by the processor's flags, not measured yet.</source>
        <translation>{weights} 权重：{label}（{variant}），按处理器标志选择，尚未实测。</translation>
    </message>
    <message>
        <source>Processor code: {label} ({variant}), as ROTARY_CPU_ISA asks.</source>
        <translation>处理器代码：按 ROTARY_CPU_ISA 的指定使用 {label}（{variant}）。</translation>
    </message>
    <message>
        <source>Processor code: {label} ({variant}); this processor has no other build to choose from.</source>
        <translation>处理器代码：{label}（{variant}）；此处理器没有其他可选的版本。</translation>
    </message>
    <message>
        <source>Automatic (fit this computer)</source>
        <translation>自动（适配这台电脑）</translation>
    </message>
    <message>
        <source>an automatic setting for this computer</source>
        <translation>为这台电脑自动选择的设置</translation>
    </message>
    <message>
        <source>Laptop with an 8 GB graphics card</source>
        <translation>配备 8 GB 显卡的笔记本电脑</translation>
    </message>
    <message>
        <source>the setting for laptops with an 8 GB graphics card</source>
        <translation>适用于配备 8 GB 显卡的笔记本电脑的设置</translation>
    </message>
    <message>
        <source>Desktop with a 12 GB graphics card</source>
        <translation>配备 12 GB 显卡的台式机</translation>
    </message>
    <message>
        <source>the setting for desktops with a 12 GB graphics card</source>
        <translation>适用于配备 12 GB 显卡的台式机的设置</translation>
    </message>
    <message>
        <source>Desktop with a 16 GB graphics card</source>
        <translation>配备 16 GB 显卡的台式机</translation>
    </message>
    <message>
        <source>the setting for desktops with a 16 GB graphics card</source>
        <translation>适用于配备 16 GB 显卡的台式机的设置</translation>
    </message>
    <message>
        <source>Workstation with a 24 GB graphics card</source>
        <translation>配备 24 GB 显卡的工作站</translation>
    </message>
    <message>
        <source>the setting for workstations with a 24 GB graphics card</source>
        <translation>适用于配备 24 GB 显卡的工作站的设置</translation>
    </message>
    <message>
        <source>Processor only (no graphics card)</source>
        <translation>仅处理器（不用显卡）</translation>
    </message>
    <message>
        <source>the processor-only setting (no graphics card needed)</source>
        <translation>仅用处理器的设置（不需要显卡）</translation>
    </message>
    <message>
        <source>There is no setting called “{name}”.</source>
        <translation>没有名为“{name}”的设置。</translation>
    </message>
    <message>
        <source>One of the advanced settings is not recognised.</source>
        <translation>有一项高级设置无法识别。</translation>
    </message>
    <message>
        <source>The conversation memory format is not recognised.</source>
        <translation>无法识别对话记忆的格式。</translation>
    </message>
    <message>
        <source>A compact conversation memory needs the fast attention option.</source>
        <translation>压缩的对话记忆需要开启快速注意力选项。</translation>
    </message>
    <message>
        <source>This model is too big for this computer: it needs about {need} GB, but the graphics card and memory together have room for about {room} GB. Try a smaller model.</source>
        <translation>此模型对这台电脑来说太大了：它大约需要 {need} GB，但显卡和内存加起来只有大约 {room} GB 的空间。请换一个更小的模型。</translation>
    </message>
    <message>
        <source>the graphics card</source>
        <translation>显卡</translation>
    </message>
    <message>
        <source>The whole model runs on the processor and stays in main memory.</source>
        <translation>整个模型在处理器上运行，并保存在主内存中。</translation>
    </message>
    <message>
        <source>The whole model fits on the graphics card ({card}).</source>
        <translation>整个模型都能放进显卡（{card}）。</translation>
    </message>
    <message>
        <source>{on_gpu} of {total} parts of the model are on the graphics card ({card}); the rest stays in main memory.</source>
        <translation>模型的 {total} 个部分中有 {on_gpu} 个在显卡（{card}）上，其余保存在主内存中。</translation>
    </message>
    <message>
        <source>The graphics card ({card}) holds the parts of the model every word uses, and {slots} of the parts the conversation uses most, copied there as the text goes; the rest stays in main memory.</source>
        <translation>显卡（{card}）存放每个词都会用到的模型部分，以及随着文本进行复制过去的对话最常用部分 {slots}；其余部分留在主内存中。</translation>
    </message>
    <message>
        <source>{on_gpu} of {total} parts of the model are on the graphics card ({card}), with {slots} more there for the parts the conversation uses most, copied as the text goes; the rest stays in main memory.</source>
        <translation>模型 {total} 个部分中有 {on_gpu} 个在显卡（{card}）上，另有 {slots} 用于对话最常用的部分，随文本进行复制；其余部分留在主内存中。</translation>
    </message>
    <message>
        <source>The parts kept in main memory that the conversation uses most are also copied to the graphics card as the text goes.</source>
        <translation>保存在主内存中的部分里，对话用得最多的那些会随着文字的进行复制到显卡上。</translation>
    </message>
    <message>
        <source>Not enough graphics memory, so more of the model stays in main memory ({on_gpu} of {total} parts on the graphics card).</source>
        <translation>显存不足，因此模型更多的部分留在主内存中（显卡上有 {total} 个部分中的 {on_gpu} 个）。</translation>
    </message>
    <message>
        <source>Not enough memory, so the assistant keeps a shorter conversation in mind (about {words:,.0f} words).</source>
        <translation>内存不足，因此助手只能记住较短的对话（大约 {words:,.0f} 个词）。</translation>
    </message>
    <message>
        <source>Not enough memory, so the conversation is kept in a more compact form; answers may be slightly less precise.</source>
        <translation>内存不足，因此对话以更紧凑的形式保存；回答可能会稍微不那么精确。</translation>
    </message>
    <message>
        <source>Not enough memory, so the conversation is kept in an even more compact form; answers may be slightly less precise.</source>
        <translation>内存不足，因此对话以更加紧凑的形式保存；回答可能会稍微不那么精确。</translation>
    </message>
    <message>
        <source>Not enough graphics memory, so the model runs on the processor only; answers will come much more slowly.</source>
        <translation>显存不足，因此模型只在处理器上运行；回答会慢很多。</translation>
    </message>
    <message>
        <source>This will not fit: the model needs about {need} GB on the graphics card, but only {free} GB is free.</source>
        <translation>放不下：模型大约需要 {need} GB 显存，但只有 {free} GB 可用。</translation>
    </message>
    <message>
        <source>This will not fit: the model needs about {need} GB of memory, but this computer has {have} GB.</source>
        <translation>放不下：模型大约需要 {need} GB 内存，但这台电脑只有 {have} GB。</translation>
    </message>
    <message>
        <source>About {ram} in memory (the graphics card is not used); expect {speed}.</source>
        <translation>约占用 {ram} 内存（不使用显卡）；预计{speed}。</translation>
    </message>
    <message>
        <source>About {vram} on the graphics card (and {driver} its driver keeps) and {ram} in memory; expect {speed}.</source>
        <translation>显卡上约 {vram}（另有驱动占用 {driver}），内存中 {ram}；预计{speed}。</translation>
    </message>
    <message>
        <source>About {vram} on the graphics card and {ram} in memory; expect {speed}.</source>
        <translation>显卡上约 {vram}，内存中约 {ram}；预计{speed}。</translation>
    </message>
    <message>
        <source>About {vram} on {device}, software that imitates a graphics card on the processor, and {ram} in memory; expect {speed}.</source>
        <translation>在处理器上模拟显卡的软件 {device} 上约 {vram}，内存中 {ram}；预计{speed}。</translation>
    </message>
    <message>
        <source>roughly {words} words per second</source>
        <translation>每秒大约 {words} 个词</translation>
    </message>
    <message>
        <source>roughly 1 word per second</source>
        <translation>每秒大约 1 个词</translation>
    </message>
    <message>
        <source>less than 1 word per second</source>
        <translation>每秒不到 1 个词</translation>
    </message>
    <message>
        <source>It keeps about {pages:,} pages of a conversation in mind; when a longer one fills them, its older half is set aside at once.</source>
        <translation>它能记住约 {pages:,} 页的对话；更长的对话把它占满时，会一次放下较早的一半。</translation>
    </message>
    <message>
        <source>It keeps less than a page of a conversation in mind; older parts of a longer one are set aside.</source>
        <translation>它只能记住不到一页的对话；更长的对话会先放下较早的部分。</translation>
    </message>
    <message>
        <source>This model was trained for a conversation memory of up to {trained:,} tokens, so Rotary uses {trained:,} instead of the {asked:,} set in Settings.</source>
        <translation>该模型训练时的对话记忆最多为 {trained:,} 个词元，因此 Rotary 使用 {trained:,}，而不是“设置”中设定的 {asked:,}。</translation>
    </message>
    <message>
        <source>Other programs are using memory this model needs; close some first.</source>
        <translation>其他程序正在使用此模型需要的内存；请先关闭一些程序。</translation>
    </message>
    <message>
        <source>Answers will come slowly on this computer.</source>
        <translation>在这台电脑上回答会来得比较慢。</translation>
    </message>
    <message>
        <source>Long texts are read {n_ubatch} words at a time instead of {stock}: each batch copies the experts it uses to the graphics card once, so documents are read several times faster, for {gb} GB of graphics memory.</source>
        <translation>长文本每次读取 {n_ubatch} 个词，而不是 {stock} 个：每一批只把用到的专家复制到显卡一次，因此读取文档快好几倍，代价是占用 {gb} GB 显存。</translation>
    </message>
    <message>
        <source>The processor works through the experts' weights at {cpu} GB/s and the link to the graphics card copies them at {link} GB/s, so each part copies up to {cap} of the {k} experts a word uses and the processor computes the others.</source>
        <translation>处理器处理专家权重的速度为每秒 {cpu} GB，到显卡的连接每秒复制 {link} GB，因此每个部分最多复制一个词所用 {k} 个专家中的 {cap} 个，其余由处理器计算。</translation>
    </message>
    <message>
        <source>The link to the graphics card copies the experts' weights at {link} GB/s, faster than the processor works through them ({cpu} GB/s), so each part copies up to {cap} of the {k} experts a word uses.</source>
        <translation>到显卡的连接每秒复制 {link} GB 专家权重，比处理器处理的速度（每秒 {cpu} GB）更快，因此每个部分最多复制一个词所用 {k} 个专家中的 {cap} 个。</translation>
    </message>
    <message>
        <source>The speeds of the processor and of the link to the graphics card could not be measured, so every expert a word uses may be copied to the graphics card.</source>
        <translation>无法测量处理器和显卡连接的速度，因此一个词所用的每个专家都可以复制到显卡。</translation>
    </message>
    <message>
        <source>Connecting to the office server at {address}…</source>
        <translation>正在连接位于 {address} 的办公室服务器…</translation>
    </message>
    <message>
        <source>Using {model} on the office server at {address}.</source>
        <translation>正在使用位于 {address} 的办公室服务器上的 {model}。</translation>
    </message>
    <message>
        <source>Rotary is not connected to the office server yet.</source>
        <translation>Rotary 尚未连接到办公室服务器。</translation>
    </message>
    <message>
        <source>The environment variable {name} is not set.</source>
        <translation>环境变量 {name} 未设置。</translation>
    </message>
    <message>
        <source>The server address must start with http:// or https:// followed by the server's name, for example {example}.</source>
        <translation>服务器地址必须以 http:// 或 https:// 开头，后面跟服务器名称，例如 {example}。</translation>
    </message>
    <message>
        <source>The certificate file chosen in Settings cannot be read.</source>
        <translation>无法读取在“设置”中选择的证书文件。</translation>
    </message>
    <message>
        <source>The office server at {address} has a security certificate this computer does not trust. Ask your IT contact for the office's certificate file and choose it in Settings.</source>
        <translation>位于 {address} 的办公室服务器使用的安全证书不受这台电脑信任。请向您的 IT 人员索取办公室的证书文件，并在“设置”中选择它。</translation>
    </message>
    <message>
        <source>The office server at {address} does not answer. Check the address, and that this computer is on the office network.</source>
        <translation>位于 {address} 的办公室服务器没有响应。请检查地址，并确认这台电脑已连接到办公室网络。</translation>
    </message>
    <message>
        <source>The office server at {address} took too long to answer. It may be off or overloaded; try again in a minute.</source>
        <translation>位于 {address} 的办公室服务器响应时间过长。它可能已关闭或负载过重，请一分钟后再试。</translation>
    </message>
    <message>
        <source>The connection to the office server at {address} failed.</source>
        <translation>与位于 {address} 的办公室服务器的连接失败了。</translation>
    </message>
    <message>
        <source>The office server at {address} answered, but not like a model server. Check the address.</source>
        <translation>位于 {address} 的办公室服务器有回应，但不像是模型服务器。请检查地址。</translation>
    </message>
    <message>
        <source>There is no model server Rotary can use at {address}. Check the address.</source>
        <translation>{address} 上没有 Rotary 可以使用的模型服务器。请检查地址。</translation>
    </message>
    <message>
        <source>The office server at {address} did not list its models. Check the address, or ask your IT contact.</source>
        <translation>位于 {address} 的办公室服务器没有列出它的模型。请检查地址，或联系您的 IT 人员。</translation>
    </message>
    <message>
        <source>The office server at {address} does not offer the model “{model}”. Choose one of its models in Settings.</source>
        <translation>位于 {address} 的办公室服务器不提供模型“{model}”。请在“设置”中选择它的一个模型。</translation>
    </message>
    <message>
        <source>The office server refused the access key. Check the key in Settings, or ask your IT contact for a new one.</source>
        <translation>办公室服务器拒绝了访问密钥。请在“设置”中检查密钥，或向您的 IT 人员索取新的密钥。</translation>
    </message>
    <message>
        <source>The office server is busy right now. Try again in a moment.</source>
        <translation>办公室服务器现在正忙。请稍后再试。</translation>
    </message>
    <message>
        <source>The office server is busy right now. It suggests trying again in {seconds:.0f} seconds.</source>
        <translation>办公室服务器现在正忙。它建议 {seconds:.0f} 秒后再试。</translation>
    </message>
    <message>
        <source>The office server could not answer (error {status}).</source>
        <translation>办公室服务器无法回答（错误 {status}）。</translation>
    </message>
    <message>
        <source>This conversation is too long for the server's model. Start a new chat or shorten the text.</source>
        <translation>这段对话对服务器上的模型来说太长了。请新建对话或缩短文字。</translation>
    </message>
    <message>
        <source>The office server at {address} sent an answer Rotary cannot read.</source>
        <translation>位于 {address} 的办公室服务器发来了 Rotary 无法读取的回答。</translation>
    </message>
    <message>
        <source>The connection to the office server at {address} was lost while it was writing.</source>
        <translation>位于 {address} 的办公室服务器在撰写回答时连接中断了。</translation>
    </message>
    <message>
        <source>The connection to the office server at {address} was lost while it was writing. The answer so far is kept.</source>
        <translation>位于 {address} 的办公室服务器在撰写回答时连接中断了。已保留目前收到的回答。</translation>
    </message>
    <message>
        <source>The office server could not count the words of the text.</source>
        <translation>办公室服务器无法计算这段文字的字数。</translation>
    </message>
    <message>
        <source>The office server at {address} cannot count words, so Rotary cannot split documents to fit its model. Chat still works.</source>
        <translation>位于 {address} 的办公室服务器无法计算字数，因此 Rotary 无法把文档分成适合其模型的部分。对话仍然可以正常使用。</translation>
    </message>
    <message>
        <source>The office server cannot count the words of a whole conversation.</source>
        <translation>办公室服务器无法计算整段对话的字数。</translation>
    </message>
    <message>
        <source>The office server does not say how long a conversation is, so Rotary cannot split documents to fit its model.</source>
        <translation>办公室服务器没有说明对话有多长，因此 Rotary 无法把文档分成适合其模型的部分。</translation>
    </message>
    <message>
        <source>The office server does not say how much text its model can read at once, so Rotary cannot split documents to fit it.</source>
        <translation>办公室服务器没有说明其模型一次能读多少文字，因此 Rotary 无法按此分割文档。</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>Look in:</source>
        <translation>查找范围：</translation>
    </message>
    <message>
        <source>&amp;Look in:</source>
        <translation>查找范围(&amp;L)：</translation>
    </message>
    <message>
        <source>File &amp;name:</source>
        <translation>文件名(&amp;N)：</translation>
    </message>
    <message>
        <source>Files of type:</source>
        <translation>文件类型：</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>文件类型(&amp;T)：</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>后退</translation>
    </message>
    <message>
        <source>Go back</source>
        <translation>后退</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>前进</translation>
    </message>
    <message>
        <source>Go forward</source>
        <translation>前进</translation>
    </message>
    <message>
        <source>Parent Directory</source>
        <translation>上级文件夹</translation>
    </message>
    <message>
        <source>Go to the parent directory</source>
        <translation>转到上级文件夹</translation>
    </message>
    <message>
        <source>Create New Folder</source>
        <translation>新建文件夹</translation>
    </message>
    <message>
        <source>Create a New Folder</source>
        <translation>新建文件夹</translation>
    </message>
    <message>
        <source>List View</source>
        <translation>列表视图</translation>
    </message>
    <message>
        <source>Change to list view mode</source>
        <translation>切换到列表视图</translation>
    </message>
    <message>
        <source>Detail View</source>
        <translation>详细视图</translation>
    </message>
    <message>
        <source>Change to detail view mode</source>
        <translation>切换到详细视图</translation>
    </message>
    <message>
        <source>Sidebar</source>
        <translation>侧边栏</translation>
    </message>
    <message>
        <source>List of places and bookmarks</source>
        <translation>位置和书签列表</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>打开(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Choose</source>
        <translation>选择(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>All Files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation>重命名(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <source>Show &amp;hidden files</source>
        <translation>显示隐藏文件(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;New Folder</source>
        <translation>新建文件夹(&amp;N)</translation>
    </message>
    <message>
        <source>New Folder</source>
        <translation>新建文件夹</translation>
    </message>
    <message>
        <source>Recent Places</source>
        <translation>最近访问的位置</translation>
    </message>
    <message>
        <source>My Computer</source>
        <translation>我的电脑</translation>
    </message>
    <message>
        <source>Computer</source>
        <translation>计算机</translation>
    </message>
    <message>
        <source>Directory:</source>
        <translation>文件夹：</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>File Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Alias</source>
        <translation>别名</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>快捷方式</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
</context>
<context>
    <name>QFileSystemModel</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>种类</translation>
    </message>
    <message>
        <source>Date Modified</source>
        <translation>修改日期</translation>
    </message>
    <message>
        <source>My Computer</source>
        <translation>我的电脑</translation>
    </message>
    <message>
        <source>Computer</source>
        <translation>计算机</translation>
    </message>
</context>
</TS>