<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="ko_KR">
<context>
    <name />
    <message>
        <source>No model loaded</source>
        <translation>불러온 모델 없음</translation>
    </message>
    <message>
        <source>Your saved conversations could not be read, so Rotary started a new, empty history. The damaged file was kept next to the new one.</source>
        <translation>저장된 대화를 읽을 수 없어 Rotary가 새 빈 기록을 시작했습니다. 손상된 파일은 새 파일 옆에 보관했습니다.</translation>
    </message>
    <message>
        <source>Loading: {name}</source>
        <translation>불러오는 중: {name}</translation>
    </message>
    <message>
        <source>Model: {name}</source>
        <translation>모델: {name}</translation>
    </message>
    <message>
        <source>There is no conversation to export yet.</source>
        <translation>아직 내보낼 대화가 없습니다.</translation>
    </message>
    <message>
        <source>Export conversation</source>
        <translation>대화 내보내기</translation>
    </message>
    <message>
        <source>Markdown files (*.md)</source>
        <translation>마크다운 파일 (*.md)</translation>
    </message>
    <message>
        <source>The conversation could not be saved there.</source>
        <translation>그 위치에 대화를 저장할 수 없습니다.</translation>
    </message>
    <message>
        <source>Conversation saved to {path}.</source>
        <translation>대화를 {path}에 저장했습니다.</translation>
    </message>
    <message>
        <source>No setting is made for a graphics card as small as this one ({vram} GB), so Rotary fits the smallest one to the {vram} GB this card has.</source>
        <translation>이렇게 작은 그래픽 카드({vram} GB)에 맞춘 설정은 없으므로, Rotary는 가장 작은 설정을 이 카드의 {vram} GB에 맞춥니다.</translation>
    </message>
    <message>
        <source>A part of Rotary is missing or damaged. Please reinstall Rotary.</source>
        <translation>Rotary의 일부가 없거나 손상되었습니다. Rotary를 다시 설치해 주세요.</translation>
    </message>
    <message>
        <source>This copy of Rotary cannot use an office server.</source>
        <translation>이 Rotary는 사무실 서버를 사용할 수 없습니다.</translation>
    </message>
    <message>
        <source>No model is loaded yet.</source>
        <translation>아직 불러온 모델이 없습니다.</translation>
    </message>
    <message>
        <source>Measured now that it is loaded. {placed}</source>
        <translation>불러온 지금 측정한 값: {placed}</translation>
    </message>
    <message>
        <source>Rotary is closing.</source>
        <translation>Rotary를 닫는 중입니다.</translation>
    </message>
    <message>
        <source>The model is not ready yet. Please wait until loading has finished.</source>
        <translation>모델이 아직 준비되지 않았습니다. 불러오기가 끝날 때까지 기다려 주세요.</translation>
    </message>
    <message>
        <source>Waiting for the previous answer to end…</source>
        <translation>앞의 답변이 끝나기를 기다리는 중…</translation>
    </message>
    <message>
        <source>Reading your message…</source>
        <translation>메시지를 읽는 중…</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>멈추는 중…</translation>
    </message>
    <message>
        <source>Writing the answer…</source>
        <translation>답변을 쓰는 중…</translation>
    </message>
    <message>
        <source>“{name}” looks like a base model: it was not trained to chat, so it may continue your text instead of answering it. For a helpful assistant, choose a model whose name contains “Instruct” or “Chat” in Settings.</source>
        <translation>“{name}”은(는) 기본 모델로 보입니다. 대화용으로 학습되지 않아 질문에 답하는 대신 글을 이어 쓸 수 있습니다. 도움이 되는 도우미를 원하시면 설정에서 이름에 “Instruct” 또는 “Chat”이 들어간 모델을 선택하세요.</translation>
    </message>
    <message>
        <source>This model</source>
        <translation>이 모델</translation>
    </message>
    <message>
        <source>One question already waits for the document; send this one when its answer has begun.</source>
        <translation>문서를 기다리는 질문이 이미 하나 있습니다. 그 답변이 시작되면 이 질문을 보내세요.</translation>
    </message>
    <message>
        <source>A message is already waiting to be sent; send this one when its answer has begun.</source>
        <translation>보낼 메시지가 이미 하나 기다리고 있습니다. 그 답변이 시작되면 이 메시지를 보내세요.</translation>
    </message>
    <message>
        <source>Your question will be sent when the document has been read: “{text}”</source>
        <translation>문서를 다 읽으면 질문을 보냅니다: “{text}”</translation>
    </message>
    <message>
        <source>Your message will be sent when this answer is finished: “{text}”</source>
        <translation>이 답변이 끝나면 메시지를 보냅니다: “{text}”</translation>
    </message>
    <message>
        <source>Your question was not sent: “{text}”. Send it again where you want the answer.</source>
        <translation>질문을 보내지 않았습니다: “{text}”. 답변을 받을 대화에서 다시 보내세요.</translation>
    </message>
    <message>
        <source>Waiting for the other answer…</source>
        <translation>다른 답변이 끝나기를 기다리는 중…</translation>
    </message>
    <message>
        <source>Thinking…</source>
        <translation>생각하는 중…</translation>
    </message>
    <message>
        <source>The model on the office server ended its answer at once. Its chat template may not suit this model: ask your IT contact.</source>
        <translation>사무실 서버의 모델이 답변을 바로 끝냈습니다. 대화 형식(채팅 템플릿)이 이 모델에 맞지 않을 수 있습니다. IT 담당자에게 문의해 주세요.</translation>
    </message>
    <message>
        <source>“{name}” looks like a base model: it has no chat template, so it may not know how to answer. Choose a model whose name contains “Instruct” or “Chat” in Settings.</source>
        <translation>“{name}”은(는) 기본 모델로 보입니다. 대화 형식(채팅 템플릿)이 없어 답하는 법을 모를 수 있습니다. 설정에서 이름에 “Instruct”나 “Chat”이 들어간 모델을 골라 주세요.</translation>
    </message>
    <message>
        <source>It ended its answer at once; its chat template may not suit it. Try Write again, or another model in Settings.</source>
        <translation>답변을 바로 끝냈습니다. 대화 형식(채팅 템플릿)이 이 모델에 맞지 않을 수 있습니다. 다시 쓰기를 눌러 보거나 설정에서 다른 모델을 골라 주세요.</translation>
    </message>
    <message>
        <source>The model gave no answer.</source>
        <translation>모델이 답변을 하지 않았습니다.</translation>
    </message>
    <message>
        <source>You</source>
        <translation>나</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>도우미</translation>
    </message>
    <message>
        <source>Answer status</source>
        <translation>답변 상태</translation>
    </message>
    <message>
        <source>Not read by the model</source>
        <translation>모델이 읽지 않음</translation>
    </message>
    <message>
        <source>Attach as a document</source>
        <translation>문서로 첨부</translation>
    </message>
    <message>
        <source>Attach this message's text to the conversation as a document, so that questions can be asked about it</source>
        <translation>이 메시지의 글을 대화에 문서로 첨부하여 그 내용에 대해 질문할 수 있게 합니다</translation>
    </message>
    <message>
        <source>⚠ Not read: too long for the model's memory. Its text is attached as a document instead.</source>
        <translation>⚠ 읽지 않음: 모델이 기억하기에 너무 깁니다. 대신 그 글을 문서로 첨부했습니다.</translation>
    </message>
    <message>
        <source>⚠ Not read: too long for the model's memory.</source>
        <translation>⚠ 읽지 않음: 모델이 기억하기에 너무 깁니다.</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>복사</translation>
    </message>
    <message>
        <source>Copy this message</source>
        <translation>이 메시지 복사</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>수정</translation>
    </message>
    <message>
        <source>Edit this message and send it again</source>
        <translation>이 메시지를 수정해서 다시 보내기</translation>
    </message>
    <message>
        <source>Write again</source>
        <translation>다시 쓰기</translation>
    </message>
    <message>
        <source>Write an answer to this message</source>
        <translation>이 메시지에 대한 답변 쓰기</translation>
    </message>
    <message>
        <source>Write this answer again</source>
        <translation>이 답변을 다시 쓰기</translation>
    </message>
    <message>
        <source>Conversation</source>
        <translation>대화</translation>
    </message>
    <message>
        <source>Type a message below and press Enter to send it.</source>
        <translation>아래에 메시지를 입력하고 Enter 키를 눌러 보내세요.</translation>
    </message>
    <message>
        <source>What the assistant is doing</source>
        <translation>도우미가 하고 있는 일</translation>
    </message>
    <message>
        <source>About this model</source>
        <translation>이 모델에 대하여</translation>
    </message>
    <message>
        <source>Message waiting to be sent</source>
        <translation>보내기를 기다리는 메시지</translation>
    </message>
    <message>
        <source>Don't send</source>
        <translation>보내지 않기</translation>
    </message>
    <message>
        <source>Don't send the waiting message; put it back in the message box</source>
        <translation>기다리는 메시지를 보내지 않고 메시지 입력란으로 되돌립니다</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>메시지</translation>
    </message>
    <message>
        <source>Enter sends the message; Shift+Enter starts a new line.</source>
        <translation>Enter는 메시지를 보내고, Shift+Enter는 줄을 바꿉니다.</translation>
    </message>
    <message>
        <source>Write your message…</source>
        <translation>메시지를 입력하세요…</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>보내기</translation>
    </message>
    <message>
        <source>Send the message</source>
        <translation>메시지 보내기</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>멈추기</translation>
    </message>
    <message>
        <source>Stop writing the answer</source>
        <translation>답변 쓰기 멈추기</translation>
    </message>
    <message>
        <source>Send edited message</source>
        <translation>수정한 메시지 보내기</translation>
    </message>
    <message>
        <source>Editing an earlier message. Press Escape to cancel.</source>
        <translation>이전 메시지를 수정하는 중입니다. 취소하려면 Esc 키를 누르세요.</translation>
    </message>
    <message>
        <source>Earlier messages are no longer sent to the model: its memory begins here.</source>
        <translation>앞의 메시지는 더 이상 모델에 보내지 않습니다. 모델의 기억은 여기서 시작됩니다.</translation>
    </message>
    <message>
        <source>You stopped this answer.</source>
        <translation>이 답변을 멈췄습니다.</translation>
    </message>
    <message>
        <source>Stopped when the model was changed.</source>
        <translation>모델을 바꿀 때 멈췄습니다.</translation>
    </message>
    <message>
        <source>Stopped when Rotary was closed.</source>
        <translation>Rotary를 닫을 때 멈췄습니다.</translation>
    </message>
    <message>
        <source>The answer reached its length limit.</source>
        <translation>답변이 길이 제한에 도달했습니다.</translation>
    </message>
    <message>
        <source>The model began repeating itself, so Rotary stopped it; the repeats are left out.</source>
        <translation>모델이 같은 말을 되풀이하기 시작해서 Rotary가 멈췄습니다. 되풀이한 부분은 뺐습니다.</translation>
    </message>
    <message>
        <source>This answer was not finished. See the notice at the top.</source>
        <translation>이 답변은 끝나지 않았습니다. 위쪽 알림을 확인하세요.</translation>
    </message>
    <message>
        <source>This answer was cut off when Rotary closed unexpectedly.</source>
        <translation>Rotary가 예기치 않게 닫혀 이 답변이 중간에 끊겼습니다.</translation>
    </message>
    <message>
        <source>This answer is still being written…</source>
        <translation>이 답변은 아직 작성 중입니다…</translation>
    </message>
    <message>
        <source>This answer was not finished: {why}</source>
        <translation>이 답변은 끝나지 않았습니다: {why}</translation>
    </message>
    <message>
        <source>This answer was not finished.</source>
        <translation>이 답변은 끝나지 않았습니다.</translation>
    </message>
    <message>
        <source>Answer stopped.</source>
        <translation>답변이 멈췄습니다.</translation>
    </message>
    <message>
        <source>Answer finished.</source>
        <translation>답변이 끝났습니다.</translation>
    </message>
    <message>
        <source>Search conversations</source>
        <translation>대화 검색</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>대화 목록</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>새 대화</translation>
    </message>
    <message>
        <source>Start a new chat</source>
        <translation>새 대화 시작</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>이름 바꾸기</translation>
    </message>
    <message>
        <source>Rename the selected conversation</source>
        <translation>선택한 대화의 이름 바꾸기</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>삭제</translation>
    </message>
    <message>
        <source>Delete the selected conversation</source>
        <translation>선택한 대화 삭제</translation>
    </message>
    <message>
        <source>writing an answer</source>
        <translation>답변 작성 중</translation>
    </message>
    <message>
        <source>waiting for the other answer</source>
        <translation>다른 답변을 기다리는 중</translation>
    </message>
    <message>
        <source>Rename conversation</source>
        <translation>대화 이름 바꾸기</translation>
    </message>
    <message>
        <source>New name:</source>
        <translation>새 이름:</translation>
    </message>
    <message>
        <source>Delete conversation</source>
        <translation>대화 삭제</translation>
    </message>
    <message>
        <source>Delete “{title}”? This cannot be undone.</source>
        <translation>“{title}” 대화를 삭제할까요? 되돌릴 수 없습니다.</translation>
    </message>
    <message>
        <source>The office server cannot be reached, so no model is running. See the notice at the top.</source>
        <translation>사무실 서버에 연결할 수 없어 실행 중인 모델이 없습니다. 위쪽 알림을 확인하세요.</translation>
    </message>
    <message>
        <source>The office server did not start the model. See the notice at the top.</source>
        <translation>사무실 서버가 모델을 시작하지 않았습니다. 위쪽 알림을 확인하세요.</translation>
    </message>
    <message>
        <source>The model runs on the office server, not on this computer.</source>
        <translation>모델은 이 컴퓨터가 아니라 사무실 서버에서 실행됩니다.</translation>
    </message>
    <message>
        <source>No graphics card: the model runs on the processor.</source>
        <translation>그래픽 카드 없음: 모델이 프로세서에서 실행됩니다.</translation>
    </message>
    <message>
        <source>Graphics memory: unknown (the graphics driver stopped answering)</source>
        <translation>그래픽 메모리: 알 수 없음 (그래픽 드라이버가 응답하지 않음)</translation>
    </message>
    <message>
        <source>Graphics memory: unknown</source>
        <translation>그래픽 메모리: 알 수 없음</translation>
    </message>
    <message>
        <source>Graphics memory: {used} of {total} GB in use</source>
        <translation>그래픽 메모리: {total} GB 중 {used} GB 사용 중</translation>
    </message>
    <message>
        <source>Rotary {gb} GB</source>
        <translation>Rotary {gb} GB</translation>
    </message>
    <message>
        <source>Rotary's share not reported</source>
        <translation>Rotary 사용량은 보고되지 않음</translation>
    </message>
    <message>
        <source>Graphics memory (VRAM), measured by the NVIDIA driver: {ours}, other programs {other} GB, free {free} GB of {total} GB.</source>
        <translation>그래픽 메모리(VRAM, NVIDIA 드라이버가 측정): {ours}, 다른 프로그램 {other} GB, 여유 {free} GB / 전체 {total} GB.</translation>
    </message>
    <message>
        <source>in use by all programs</source>
        <translation>모든 프로그램이 사용 중</translation>
    </message>
    <message>
        <source>others {gb} GB</source>
        <translation>기타 {gb} GB</translation>
    </message>
    <message>
        <source>System memory used by Rotary: unknown</source>
        <translation>Rotary가 쓰는 시스템 메모리: 알 수 없음</translation>
    </message>
    <message>
        <source>System memory used by Rotary: {size} GB</source>
        <translation>Rotary가 쓰는 시스템 메모리: {size} GB</translation>
    </message>
    <message>
        <source>Writing speed: shown while an answer is written</source>
        <translation>쓰기 속도: 답변을 쓰는 동안 표시</translation>
    </message>
    <message>
        <source>Writing speed: less than 1 word a second</source>
        <translation>쓰기 속도: 초당 1단어 미만</translation>
    </message>
    <message>
        <source>Writing speed: about 1 word a second</source>
        <translation>쓰기 속도: 초당 약 1단어</translation>
    </message>
    <message>
        <source>Writing speed: about {n} words a second</source>
        <translation>쓰기 속도: 초당 약 {n}단어</translation>
    </message>
    <message>
        <source>First word after {s} s</source>
        <translation>{s}초 후 첫 단어</translation>
    </message>
    <message>
        <source>Reading the document: less than 1 word a second</source>
        <translation>문서 읽기: 초당 1단어 미만</translation>
    </message>
    <message>
        <source>Reading the document: about 1 word a second</source>
        <translation>문서 읽기: 초당 약 1단어</translation>
    </message>
    <message>
        <source>Reading the document: about {n} words a second</source>
        <translation>문서 읽기: 초당 약 {n}단어</translation>
    </message>
    <message>
        <source>Reading your message: less than 1 word a second</source>
        <translation>메시지 읽기: 초당 1단어 미만</translation>
    </message>
    <message>
        <source>Reading your message: about 1 word a second</source>
        <translation>메시지 읽기: 초당 약 1단어</translation>
    </message>
    <message>
        <source>Reading your message: about {n} words a second</source>
        <translation>메시지 읽기: 초당 약 {n}단어</translation>
    </message>
    <message>
        <source>first word right away</source>
        <translation>첫 단어는 바로</translation>
    </message>
    <message>
        <source>first word after {s} s</source>
        <translation>{s}초 후 첫 단어</translation>
    </message>
    <message>
        <source>Speeds are measured by the engine while it writes an answer.</source>
        <translation>속도는 엔진이 답변을 쓰는 동안 측정합니다.</translation>
    </message>
    <message>
        <source>Measured here while the office server writes: {w} tokens per second. A token is a piece of a word; words shown here are tokens × {ratio}.</source>
        <translation>사무실 서버가 쓰는 동안 이 컴퓨터에서 측정: 초당 {w}토큰. 토큰은 단어의 조각이며, 여기 표시된 단어 수는 토큰 × {ratio}입니다.</translation>
    </message>
    <message>
        <source>Measured by the engine: writing {w} tokens per second, reading {r} tokens per second. A token is a piece of a word; words shown here are tokens × {ratio}.</source>
        <translation>엔진이 측정: 쓰기 초당 {w}개 토큰, 읽기 초당 {r}개 토큰. 토큰은 단어의 조각이며, 여기 표시되는 단어 수는 토큰 × {ratio}입니다.</translation>
    </message>
    <message>
        <source>Conversation memory: not reported by the server</source>
        <translation>대화 기억: 서버가 알려 주지 않음</translation>
    </message>
    <message>
        <source>Conversation memory: not reported by the server; about {n} words sent so far</source>
        <translation>대화 기억: 서버가 알려 주지 않음. 지금까지 약 {n}단어를 보냄</translation>
    </message>
    <message>
        <source>Conversation memory: no model loaded</source>
        <translation>대화 기억: 불러온 모델 없음</translation>
    </message>
    <message>
        <source>Conversation memory: shown after the next answer</source>
        <translation>대화 기억: 다음 답변 후에 표시</translation>
    </message>
    <message>
        <source>Conversation memory: about {n} words left</source>
        <translation>대화 기억: 약 {n}단어 남음</translation>
    </message>
    <message>
        <source>Context: {used} tokens sent so far, counted by the server; it does not say how many it can hold.</source>
        <translation>컨텍스트: 지금까지 {used}토큰을 보냈습니다(서버가 센 값). 서버는 얼마나 담을 수 있는지 알려 주지 않습니다.</translation>
    </message>
    <message>
        <source>Context: {used} of {size} tokens used, measured by the engine.</source>
        <translation>컨텍스트: {size}개 토큰 중 {used}개 사용 (엔진이 측정).</translation>
    </message>
    <message>
        <source>Ready on the graphics card: {pct}% of the work</source>
        <translation>그래픽 카드에서 준비됨: 작업의 {pct}%</translation>
    </message>
    <message>
        <source>Hide details</source>
        <translation>자세한 내용 숨기기</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>자세히</translation>
    </message>
    <message>
        <source>How much of the model's work for this answer was already on the graphics card: more is faster.</source>
        <translation>이 답변에서 모델 작업 중 이미 그래픽 카드에 있던 비율입니다. 높을수록 빠릅니다.</translation>
    </message>
    <message>
        <source>Expert hit rate, measured by the engine: the share of expert work whose experts were already in graphics memory.</source>
        <translation>전문가 적중률(엔진이 측정): 필요한 전문가가 이미 그래픽 메모리에 있던 작업의 비율.</translation>
    </message>
    <message>
        <source>This word: {hits} of {all} experts from the graphics card; {mb} MB copied there during this answer.</source>
        <translation>이번 단어: 전문가 {all}개 중 {hits}개를 그래픽 카드에서 처리; 이 답변 동안 {mb} MB를 그곳으로 복사.</translation>
    </message>
    <message>
        <source>Per layer, in order: {shares}.</source>
        <translation>층별, 순서대로: {shares}.</translation>
    </message>
    <message>
        <source>How the model is running</source>
        <translation>모델의 실행 상태</translation>
    </message>
    <message>
        <source>How it is running</source>
        <translation>실행 상태</translation>
    </message>
    <message>
        <source>Resident memory (RSS) of the Rotary process, measured by the operating system.</source>
        <translation>Rotary 프로세스의 상주 메모리(RSS), 운영체제가 측정.</translation>
    </message>
    <message>
        <source>Small demo model (always writes the same short message; for trying Rotary only)</source>
        <translation>작은 데모 모델 (항상 같은 짧은 메시지를 씀; Rotary 체험용)</translation>
    </message>
    <message>
        <source>The model file was moved or deleted: {path}. Please choose it again.</source>
        <translation>모델 파일이 옮겨졌거나 삭제되었습니다: {path}. 다시 선택해 주세요.</translation>
    </message>
    <message>
        <source>Choose a model…</source>
        <translation>모델 선택…</translation>
    </message>
    <message>
        <source>Your computer did not have enough memory for the first plan, so Rotary chose a safer one: {what}</source>
        <translation>처음 계획에 필요한 메모리가 부족해서 Rotary가 더 안전한 계획을 골랐습니다: {what}</translation>
    </message>
    <message>
        <source>The model is ready. It uses less graphics memory than planned, so answers may be a little slower.</source>
        <translation>모델이 준비되었습니다. 계획보다 그래픽 메모리를 적게 쓰므로 답변이 조금 느릴 수 있습니다.</translation>
    </message>
    <message>
        <source>Try the safer setting</source>
        <translation>더 안전한 설정으로 시도</translation>
    </message>
    <message>
        <source>Choose another model…</source>
        <translation>다른 모델 선택…</translation>
    </message>
    <message>
        <source>Rotary closed unexpectedly while loading the model last time. Loading it with the safer setting keeps the whole model in system memory and uses the processor: slower, but it should not crash.</source>
        <translation>지난번 모델을 불러오는 중에 Rotary가 예기치 않게 종료되었습니다. 더 안전한 설정은 모델 전체를 시스템 메모리에 두고 프로세서를 사용합니다. 느리지만 멈추지 않을 것입니다.</translation>
    </message>
    <message>
        <source>Use the safer setting</source>
        <translation>더 안전한 설정 사용</translation>
    </message>
    <message>
        <source>Try the same setting again</source>
        <translation>같은 설정으로 다시 시도</translation>
    </message>
    <message>
        <source>Loading progress</source>
        <translation>불러오기 진행 상황</translation>
    </message>
    <message>
        <source>Why a safer setting was chosen</source>
        <translation>더 안전한 설정을 고른 이유</translation>
    </message>
    <message>
        <source>Loading {name}…</source>
        <translation>{name} 불러오는 중…</translation>
    </message>
    <message>
        <source>Rotary</source>
        <translation>Rotary</translation>
    </message>
    <message>
        <source>Current model</source>
        <translation>현재 모델</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>파일(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New chat</source>
        <translation>새 대화(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Export conversation…</source>
        <translation>대화 내보내기(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>설정(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;First-time setup…</source>
        <translation>처음 설정(&amp;F)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>끝내기(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Chat</source>
        <translation>대화(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Stop the answer</source>
        <translation>답변 멈추기(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Write the last answer again</source>
        <translation>마지막 답변 다시 쓰기(&amp;W)</translation>
    </message>
    <message>
        <source>&amp;Edit my last message</source>
        <translation>내 마지막 메시지 수정(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Copy the last answer</source>
        <translation>마지막 답변 복사(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Think before answering</source>
        <translation>답하기 전에 생각하기(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Go</source>
        <translation>이동(&amp;G)</translation>
    </message>
    <message>
        <source>Go to the &amp;message box</source>
        <translation>메시지 입력란으로 이동(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Search conversations</source>
        <translation>대화 검색(&amp;S)</translation>
    </message>
    <message>
        <source>Go to the &amp;conversation list</source>
        <translation>대화 목록으로 이동(&amp;C)</translation>
    </message>
    <message>
        <source>Go to the &amp;live numbers</source>
        <translation>실시간 수치로 이동(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>도움말(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Getting started</source>
        <translation>시작하기(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Where models come from</source>
        <translation>모델을 구하는 곳(&amp;W)</translation>
    </message>
    <message>
        <source>Open the &amp;log folder</source>
        <translation>로그 폴더 열기(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;About Rotary</source>
        <translation>Rotary 정보(&amp;A)</translation>
    </message>
    <message>
        <source>Fits well.</source>
        <translation>잘 맞습니다.</translation>
    </message>
    <message>
        <source>Fits, but only just.</source>
        <translation>맞지만 여유가 거의 없습니다.</translation>
    </message>
    <message>
        <source>Too big for this computer.</source>
        <translation>이 컴퓨터에는 너무 큽니다.</translation>
    </message>
    <message>
        <source>Measured on this computer with this model and setting, over its last answers: {low}–{high} tokens per second. A token is a piece of a word; words shown are tokens × {ratio}.</source>
        <translation>이 컴퓨터에서 이 모델과 설정으로 최근 답변들을 쓸 때 잰 값: 초당 {low}–{high}개 토큰. 토큰은 단어의 조각이며, 표시되는 단어 수는 토큰 × {ratio}입니다.</translation>
    </message>
    <message>
        <source>Estimated for this computer: {low}–{high} tokens per second. A token is a piece of a word; words shown are tokens × {ratio}. Rotary measures the real speed during the first answers, and then names one figure.</source>
        <translation>이 컴퓨터에 대한 예상: 초당 {low}–{high}개 토큰. 토큰은 단어의 조각이며, 표시되는 단어 수는 토큰 × {ratio}입니다. Rotary는 처음 몇 번의 답변에서 실제 속도를 재고, 그다음부터 하나의 값으로 알려 줍니다.</translation>
    </message>
    <message>
        <source>Model file</source>
        <translation>모델 파일</translation>
    </message>
    <message>
        <source>Choose a model file, or drop it here</source>
        <translation>모델 파일을 선택하거나 여기에 끌어다 놓으세요</translation>
    </message>
    <message>
        <source>GGUF: the file format of models for llama.cpp. Such files end in .gguf.</source>
        <translation>GGUF: llama.cpp용 모델 파일 형식입니다. 이런 파일은 .gguf로 끝납니다.</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>찾아보기…</translation>
    </message>
    <message>
        <source>Browse for a model file</source>
        <translation>모델 파일 찾아보기</translation>
    </message>
    <message>
        <source>Does the model fit</source>
        <translation>모델이 맞는지 여부</translation>
    </message>
    <message>
        <source>Choose a model file</source>
        <translation>모델 파일 선택</translation>
    </message>
    <message>
        <source>Language models (*.gguf)</source>
        <translation>언어 모델 (*.gguf)</translation>
    </message>
    <message>
        <source>Notice</source>
        <translation>알림</translation>
    </message>
    <message>
        <source>Copy details</source>
        <translation>자세한 내용 복사</translation>
    </message>
    <message>
        <source>Copy the details of this notice</source>
        <translation>이 알림의 자세한 내용 복사</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>닫기</translation>
    </message>
    <message>
        <source>Dismiss this notice</source>
        <translation>이 알림 닫기</translation>
    </message>
    <message>
        <source>Something went wrong inside Rotary. Your conversations are safe. If it happens again, copy the details for your IT contact.</source>
        <translation>Rotary 내부에서 문제가 생겼습니다. 대화 내용은 안전합니다. 다시 발생하면 자세한 내용을 복사해 IT 담당자에게 전달하세요.</translation>
    </message>
    <message>
        <source>Something went wrong inside Rotary.</source>
        <translation>Rotary 내부에서 문제가 생겼습니다.</translation>
    </message>
    <message>
        <source>model file</source>
        <translation>모델 파일</translation>
    </message>
    <message>
        <source>setting for this computer</source>
        <translation>이 컴퓨터용 설정</translation>
    </message>
    <message>
        <source>conversation memory</source>
        <translation>대화 기억</translation>
    </message>
    <message>
        <source>parts of the model on the graphics card</source>
        <translation>그래픽 카드에 두는 모델 부분</translation>
    </message>
    <message>
        <source>processor cores used</source>
        <translation>사용하는 프로세서 코어</translation>
    </message>
    <message>
        <source>answer variety</source>
        <translation>답변의 다양성</translation>
    </message>
    <message>
        <source>the model's own answer variety</source>
        <translation>모델 자체의 답변 다양성</translation>
    </message>
    <message>
        <source>system prompt</source>
        <translation>시스템 프롬프트</translation>
    </message>
    <message>
        <source>language</source>
        <translation>언어</translation>
    </message>
    <message>
        <source>first-time setup</source>
        <translation>처음 설정</translation>
    </message>
    <message>
        <source>where the model runs</source>
        <translation>모델이 실행되는 곳</translation>
    </message>
    <message>
        <source>office server address</source>
        <translation>사무실 서버 주소</translation>
    </message>
    <message>
        <source>office server model</source>
        <translation>사무실 서버 모델</translation>
    </message>
    <message>
        <source>office server certificate check</source>
        <translation>사무실 서버 인증서 확인</translation>
    </message>
    <message>
        <source>office certificate file</source>
        <translation>사무실 인증서 파일</translation>
    </message>
    <message>
        <source>The saved {what} was not valid, so the default was restored.</source>
        <translation>저장된 {what} 값이 올바르지 않아 기본값으로 되돌렸습니다.</translation>
    </message>
    <message>
        <source>Your settings file could not be read, so the default settings were restored.</source>
        <translation>설정 파일을 읽을 수 없어 기본 설정으로 되돌렸습니다.</translation>
    </message>
    <message>
        <source>The old file was kept as {name}.</source>
        <translation>이전 파일은 {name}(으)로 보관했습니다.</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>자동</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>설정</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>언어</translation>
    </message>
    <message>
        <source>Same as the system</source>
        <translation>시스템과 같게</translation>
    </message>
    <message>
        <source>Model file:</source>
        <translation>모델 파일:</translation>
    </message>
    <message>
        <source>Setting for this computer</source>
        <translation>이 컴퓨터용 설정</translation>
    </message>
    <message>
        <source>Automatic ({n} of {total})</source>
        <translation>자동({total}개 중 {n}개)</translation>
    </message>
    <message>
        <source>Now: the small demo model. Choose a model file, or drop it here</source>
        <translation>지금은 작은 데모 모델입니다. 모델 파일을 선택하거나 여기에 끌어다 놓으세요</translation>
    </message>
    <message>
        <source>Memory recipe (preset): how the model is shared between the graphics card and system memory.</source>
        <translation>메모리 구성(프리셋): 모델을 그래픽 카드와 시스템 메모리에 어떻게 나눌지 정합니다.</translation>
    </message>
    <message>
        <source>Setting for this computer:</source>
        <translation>이 컴퓨터용 설정:</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>언어:</translation>
    </message>
    <message>
        <source>A new language is used after restarting Rotary.</source>
        <translation>새 언어는 Rotary를 다시 시작한 뒤에 적용됩니다.</translation>
    </message>
    <message>
        <source>Colours follow your system's light or dark setting.</source>
        <translation>색상은 시스템의 밝은/어두운 모드 설정을 따릅니다.</translation>
    </message>
    <message>
        <source>Run first-time setup again</source>
        <translation>처음 설정 다시 실행</translation>
    </message>
    <message>
        <source>Advanced</source>
        <translation>고급</translation>
    </message>
    <message>
        <source>Conversation memory</source>
        <translation>대화 기억</translation>
    </message>
    <message>
        <source>Context length, in tokens (pieces of words): how much of the conversation the model can see at once. More uses more memory.</source>
        <translation>컨텍스트 길이(토큰 단위, 토큰은 단어의 조각): 모델이 한 번에 볼 수 있는 대화의 양입니다. 늘리면 메모리를 더 씁니다.</translation>
    </message>
    <message>
        <source>Model parts on the graphics card</source>
        <translation>그래픽 카드에 두는 모델 부분</translation>
    </message>
    <message>
        <source>How many parts of the model stay on the graphics card. More is faster but needs more graphics memory; Automatic lets Rotary choose for this computer.</source>
        <translation>모델의 몇 부분을 그래픽 카드에 둘지 정합니다. 많을수록 빠르지만 그래픽 메모리가 더 필요합니다. 자동이면 Rotary가 이 컴퓨터에 맞게 고릅니다.</translation>
    </message>
    <message>
        <source>Processor cores to use</source>
        <translation>사용할 프로세서 코어</translation>
    </message>
    <message>
        <source>Processor threads.</source>
        <translation>프로세서 스레드.</translation>
    </message>
    <message>
        <source>Answer variety</source>
        <translation>답변의 다양성</translation>
    </message>
    <message>
        <source>Temperature: lower gives steadier answers, higher gives more varied ones.</source>
        <translation>온도(temperature): 낮으면 답변이 안정적이고, 높으면 더 다양해집니다.</translation>
    </message>
    <message>
        <source>Standing instructions</source>
        <translation>고정 지시문</translation>
    </message>
    <message>
        <source>System prompt: text the model reads before every conversation.</source>
        <translation>시스템 프롬프트: 모델이 모든 대화 전에 읽는 글입니다.</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> 토큰</translation>
    </message>
    <message>
        <source>Conversation memory:</source>
        <translation>대화 기억:</translation>
    </message>
    <message>
        <source>Model parts on the graphics card:</source>
        <translation>그래픽 카드에 두는 모델 부분:</translation>
    </message>
    <message>
        <source>Processor cores to use:</source>
        <translation>사용할 프로세서 코어:</translation>
    </message>
    <message>
        <source>Answer variety:</source>
        <translation>답변의 다양성:</translation>
    </message>
    <message>
        <source>Standing instructions:</source>
        <translation>고정 지시문:</translation>
    </message>
    <message>
        <source>Use the model's own answer variety</source>
        <translation>모델 자체의 답변 다양성 사용</translation>
    </message>
    <message>
        <source>The office server applies its own for its model.</source>
        <translation>사무실 서버가 그 모델에 맞는 자체 값을 씁니다.</translation>
    </message>
    <message>
        <source>Known once a model is loaded.</source>
        <translation>모델을 불러오면 알 수 있습니다.</translation>
    </message>
    <message>
        <source>Rotary chooses it for the model and this computer.</source>
        <translation>Rotary가 모델과 이 컴퓨터에 맞게 정합니다.</translation>
    </message>
    <message>
        <source>About {n} words of the conversation.</source>
        <translation>대화의 약 {n}단어 분량입니다.</translation>
    </message>
    <message>
        <source>No graphics card was found, so models will run on the processor.</source>
        <translation>그래픽 카드가 없어 모델은 프로세서에서 실행됩니다.</translation>
    </message>
    <message>
        <source>This model is used whole on every word, so this does not apply.</source>
        <translation>이 모델은 단어마다 전체가 쓰이므로 이 설정은 해당되지 않습니다.</translation>
    </message>
    <message>
        <source>The model file's own answer variety: {temperature}.</source>
        <translation>모델 파일 자체의 답변 다양성: {temperature}.</translation>
    </message>
    <message>
        <source>Recommended for this kind of model: answer variety {temperature}.</source>
        <translation>이런 종류의 모델에 권장: 답변 다양성 {temperature}.</translation>
    </message>
    <message>
        <source>Rotary's usual answer variety: {temperature}.</source>
        <translation>Rotary의 기본 답변 다양성: {temperature}.</translation>
    </message>
    <message>
        <source>{size} GB of system memory</source>
        <translation>시스템 메모리 {size} GB</translation>
    </message>
    <message>
        <source>Found the graphics card {name} with {vram} GB of graphics memory, and {ram}.</source>
        <translation>그래픽 카드 {name}(그래픽 메모리 {vram} GB)와 {ram}를 찾았습니다.</translation>
    </message>
    <message>
        <source>{why} This computer has {ram}.</source>
        <translation>{why} 이 컴퓨터에는 {ram}가 있습니다.</translation>
    </message>
    <message>
        <source>No graphics card was found, so models will run on the processor. This computer has {ram}.</source>
        <translation>그래픽 카드가 없어 모델은 프로세서에서 실행됩니다. 이 컴퓨터에는 {ram}가 있습니다.</translation>
    </message>
    <message>
        <source>Your computer</source>
        <translation>내 컴퓨터</translation>
    </message>
    <message>
        <source>Choose one of the models found on this computer, or another model file (.gguf) with Other file…, or drag it onto this window.</source>
        <translation>이 컴퓨터에서 찾은 모델 중 하나를 고르거나, ‘다른 파일…’로 다른 모델 파일(.gguf)을 선택하거나, 이 창으로 끌어다 놓으세요.</translation>
    </message>
    <message>
        <source>Looking at your computer…</source>
        <translation>컴퓨터를 살펴보는 중…</translation>
    </message>
    <message>
        <source>What Rotary found on this computer</source>
        <translation>Rotary가 이 컴퓨터에서 찾은 것</translation>
    </message>
    <message>
        <source>Press “Check my computer” to see what this computer has.</source>
        <translation>이 컴퓨터에 무엇이 있는지 보려면 “내 컴퓨터 점검”을 누르세요.</translation>
    </message>
    <message>
        <source>Check my computer</source>
        <translation>내 컴퓨터 점검</translation>
    </message>
    <message>
        <source>Writes a short test answer with the demo model, checks that conversations and settings can be saved, and that nothing went to the network.</source>
        <translation>데모 모델로 짧은 시험 답변을 쓰고, 대화와 설정을 저장할 수 있는지, 네트워크로 아무것도 나가지 않았는지 확인합니다.</translation>
    </message>
    <message>
        <source>Choose a model</source>
        <translation>모델 선택</translation>
    </message>
    <message>
        <source>Use the small demo model</source>
        <translation>작은 데모 모델 사용</translation>
    </message>
    <message>
        <source>Use the small demo model, which always writes the same short message and is only for trying Rotary</source>
        <translation>항상 같은 짧은 메시지를 쓰는 Rotary 체험용 작은 데모 모델 사용</translation>
    </message>
    <message>
        <source>The demo model is tiny and always writes the same short message. It only shows how Rotary works; it cannot answer questions.</source>
        <translation>데모 모델은 아주 작고 항상 같은 짧은 메시지를 씁니다. Rotary가 어떻게 작동하는지만 보여 주며, 질문에 답하지는 못합니다.</translation>
    </message>
    <message>
        <source>A model is one large file whose name ends in .gguf. At work, ask your IT contact for one; if you are allowed to download files, Hugging Face (huggingface.co) publishes many. Help → Where models come from says more.</source>
        <translation>모델은 이름이 .gguf로 끝나는 큰 파일 하나입니다. 회사에서는 IT 담당자에게 요청하세요. 파일을 내려받아도 된다면 Hugging Face(huggingface.co)에 많이 공개되어 있습니다. 자세한 내용은 도움말 → 모델을 구하는 곳에 있습니다.</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>준비 완료</translation>
    </message>
    <message>
        <source>Set up Rotary</source>
        <translation>Rotary 설정</translation>
    </message>
    <message>
        <source>Your organisation has chosen the model Rotary uses, so there is nothing more to choose.</source>
        <translation>소속 기관에서 Rotary가 사용할 모델을 이미 정했으므로 더 고를 것이 없습니다.</translation>
    </message>
    <message>
        <source>Rotary could not look at this computer's hardware. You can still continue.</source>
        <translation>Rotary가 이 컴퓨터의 하드웨어를 확인하지 못했습니다. 그래도 계속할 수 있습니다.</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>점검 중…</translation>
    </message>
    <message>
        <source>Rotary will use {recipe}.</source>
        <translation>Rotary는 {recipe}을(를) 사용합니다.</translation>
    </message>
    <message>
        <source>{setting}, fitted to the {vram} GB this card has</source>
        <translation>{setting}(이 그래픽 카드의 {vram} GB에 맞춤)</translation>
    </message>
    <message>
        <source>Small demo model</source>
        <translation>작은 데모 모델</translation>
    </message>
    <message>
        <source>the small demo model</source>
        <translation>작은 데모 모델</translation>
    </message>
    <message>
        <source>Rotary will use {name} with {recipe}. You can change this later in Settings.</source>
        <translation>Rotary는 {name}을(를) {recipe}(으)로 사용합니다. 나중에 설정에서 바꿀 수 있습니다.</translation>
    </message>
    <message>
        <source>Rotary reads PDF, Word (.docx), text and Markdown files.</source>
        <translation>Rotary는 PDF, Word(.docx), 텍스트, 마크다운 파일을 읽습니다.</translation>
    </message>
    <message>
        <source>Please wait until the document has been read.</source>
        <translation>문서를 다 읽을 때까지 기다려 주세요.</translation>
    </message>
    <message>
        <source>Please wait until the document has been summarised.</source>
        <translation>문서 요약이 끝날 때까지 기다려 주세요.</translation>
    </message>
    <message>
        <source>Looking at the document…</source>
        <translation>문서를 살펴보는 중…</translation>
    </message>
    <message>
        <source>Reading the document…</source>
        <translation>문서를 읽는 중…</translation>
    </message>
    <message>
        <source>The document is no longer at {path}. Attach it again to summarise it.</source>
        <translation>문서가 더 이상 {path}에 없습니다. 요약하려면 다시 첨부해 주세요.</translation>
    </message>
    <message>
        <source>Waiting for the model to finish loading before reading.</source>
        <translation>읽기 전에 모델 불러오기가 끝나기를 기다리는 중입니다.</translation>
    </message>
    <message>
        <source>The model could not be loaded. Reading starts as soon as a model has loaded.</source>
        <translation>모델을 불러올 수 없었습니다. 모델을 불러오는 대로 읽기 시작합니다.</translation>
    </message>
    <message>
        <source>Please wait until the current answer is finished.</source>
        <translation>지금 답변이 끝날 때까지 기다려 주세요.</translation>
    </message>
    <message>
        <source>I asked: {question}</source>
        <translation>요청한 내용: {question}</translation>
    </message>
    <message>
        <source>Document: {name} — {found}
{style}</source>
        <translation>문서: {name} — {found}
{style}</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>문서</translation>
    </message>
    <message>
        <source>What was found in the document</source>
        <translation>문서에서 찾은 내용</translation>
    </message>
    <message>
        <source>Summarise replaces this document's earlier summary, and what followed it in the conversation.</source>
        <translation>요약하기를 누르면 이 문서의 이전 요약과 대화에서 그 뒤에 이어진 내용이 바뀝니다.</translation>
    </message>
    <message>
        <source>Kind of summary</source>
        <translation>요약 종류</translation>
    </message>
    <message>
        <source>Anything to look for? (optional)</source>
        <translation>특별히 찾을 내용이 있나요? (선택)</translation>
    </message>
    <message>
        <source>What the summary should focus on</source>
        <translation>요약에서 중점을 둘 내용</translation>
    </message>
    <message>
        <source>Summarise</source>
        <translation>요약하기</translation>
    </message>
    <message>
        <source>Summarise the document</source>
        <translation>문서 요약하기</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>닫기</translation>
    </message>
    <message>
        <source>Close this card; the document stays in the conversation</source>
        <translation>이 카드를 닫습니다. 문서는 대화에 남아 있습니다</translation>
    </message>
    <message>
        <source>Don't read</source>
        <translation>읽지 않기</translation>
    </message>
    <message>
        <source>Don't read the documents waiting for the model</source>
        <translation>모델을 기다리는 문서를 읽지 않습니다</translation>
    </message>
    <message>
        <source>Ask a question about it below, or choose a summary:</source>
        <translation>아래에서 이 문서에 대해 질문하거나 요약 방식을 고르세요:</translation>
    </message>
    <message>
        <source>Add documents to ask about or summarise (PDF, Word, text)</source>
        <translation>질문하거나 요약할 문서 추가(PDF, Word, 텍스트)</translation>
    </message>
    <message>
        <source>Choose documents</source>
        <translation>문서 선택</translation>
    </message>
    <message>
        <source>Parts of the document read</source>
        <translation>읽은 문서 부분</translation>
    </message>
    <message>
        <source>Reading progress</source>
        <translation>읽기 진행 상황</translation>
    </message>
    <message>
        <source>Stop reading; keep what was read so far</source>
        <translation>읽기 멈추기; 지금까지 읽은 내용은 유지</translation>
    </message>
    <message>
        <source>Attach…</source>
        <translation>첨부…</translation>
    </message>
    <message>
        <source>Documents ({patterns})</source>
        <translation>문서 ({patterns})</translation>
    </message>
    <message>
        <source>Where the model runs</source>
        <translation>모델이 실행되는 곳</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>이 컴퓨터</translation>
    </message>
    <message>
        <source>An office server</source>
        <translation>사무실 서버</translation>
    </message>
    <message>
        <source>Where your conversations are sent</source>
        <translation>대화가 보내지는 곳</translation>
    </message>
    <message>
        <source>Office server address</source>
        <translation>사무실 서버 주소</translation>
    </message>
    <message>
        <source>Model on the office server</source>
        <translation>사무실 서버의 모델</translation>
    </message>
    <message>
        <source>Ask the server for its models</source>
        <translation>서버에 모델 목록 요청</translation>
    </message>
    <message>
        <source>What the server said</source>
        <translation>서버의 응답</translation>
    </message>
    <message>
        <source>Access key (leave empty if the server needs none)</source>
        <translation>접근 키 (서버에 필요 없으면 비워 두세요)</translation>
    </message>
    <message>
        <source>The key is kept in this computer's password store, not in Rotary's files.</source>
        <translation>키는 Rotary 파일이 아니라 이 컴퓨터의 암호 저장소에 보관됩니다.</translation>
    </message>
    <message>
        <source>This computer has no password store, so Rotary keeps the key only until it closes: type it again after a restart. It is never written to Rotary's files.</source>
        <translation>이 컴퓨터에는 암호 저장소가 없어 Rotary가 닫힐 때까지만 키를 보관합니다. 다시 시작한 뒤에는 키를 다시 입력해 주세요. 키는 Rotary의 파일에 절대 기록되지 않습니다.</translation>
    </message>
    <message>
        <source>Check the server's security certificate (recommended)</source>
        <translation>서버의 보안 인증서 확인 (권장)</translation>
    </message>
    <message>
        <source>Without this check, someone on the network could pretend to be the server and read your conversations.</source>
        <translation>이 확인이 없으면 네트워크의 누군가가 서버인 척하고 대화를 읽을 수 있습니다.</translation>
    </message>
    <message>
        <source>The office's certificate file (optional)</source>
        <translation>사무실 인증서 파일 (선택)</translation>
    </message>
    <message>
        <source>Address:</source>
        <translation>주소:</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>모델:</translation>
    </message>
    <message>
        <source>Access key:</source>
        <translation>접근 키:</translation>
    </message>
    <message>
        <source>Office certificate:</source>
        <translation>사무실 인증서:</translation>
    </message>
    <message>
        <source>The office's certificate file</source>
        <translation>사무실 인증서 파일</translation>
    </message>
    <message>
        <source>Certificates (*.pem *.crt *.cer);;All files (*)</source>
        <translation>인증서 (*.pem *.crt *.cer);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Type the server's address, for example https://ai.office.lan:8000.</source>
        <translation>서버 주소를 입력하세요. 예: https://ai.office.lan:8000</translation>
    </message>
    <message>
        <source>{model} on the office server</source>
        <translation>사무실 서버의 {model}</translation>
    </message>
    <message>
        <source>Try again</source>
        <translation>다시 시도</translation>
    </message>
    <message>
        <source>My office has a model server: use it instead…</source>
        <translation>사무실에 모델 서버가 있습니다: 대신 사용하기…</translation>
    </message>
    <message>
        <source>Use the office's model server instead of this computer</source>
        <translation>이 컴퓨터 대신 사무실 모델 서버 사용</translation>
    </message>
    <message>
        <source>This computer's password store did not take the access key, so Rotary keeps it only until it closes. Ask IT to set the store up, or use a server that needs no key.</source>
        <translation>이 컴퓨터의 암호 저장소가 접근 키를 받지 않아, Rotary가 닫힐 때까지만 키를 보관합니다. IT 담당자에게 저장소 설정을 요청하거나 키가 필요 없는 서버를 사용하세요.</translation>
    </message>
    <message>
        <source>Your conversations stay on this computer. Rotary opens no network connection.</source>
        <translation>대화는 이 컴퓨터에만 남습니다. Rotary는 네트워크 연결을 열지 않습니다.</translation>
    </message>
    <message>
        <source>Your conversations are sent to {address} and answered by the model there. Nothing is sent anywhere else.</source>
        <translation>대화는 {address}(으)로 보내져 그곳의 모델이 답합니다. 다른 곳으로는 아무것도 보내지 않습니다.</translation>
    </message>
    <message>
        <source>settings folder</source>
        <translation>설정 폴더</translation>
    </message>
    <message>
        <source>history folder</source>
        <translation>대화 기록 폴더</translation>
    </message>
    <message>
        <source>demo model</source>
        <translation>데모 모델</translation>
    </message>
    <message>
        <source>engine</source>
        <translation>엔진</translation>
    </message>
    <message>
        <source>reading scanned pages</source>
        <translation>스캔한 쪽 읽기</translation>
    </message>
    <message>
        <source>built-in accelerators</source>
        <translation>내장 가속 기능</translation>
    </message>
    <message>
        <source>working without the network</source>
        <translation>네트워크 없이 작동</translation>
    </message>
    <message>
        <source>showing the window</source>
        <translation>창 표시</translation>
    </message>
    <message>
        <source>Everything works: Rotary wrote a short answer with its demo model, can save your conversations and settings, and used no network.</source>
        <translation>모두 정상입니다: Rotary가 데모 모델로 짧은 답변을 썼고, 대화와 설정을 저장할 수 있으며, 네트워크를 사용하지 않았습니다.</translation>
    </message>
    <message>
        <source>Rotary found a problem on this computer ({names}). Please copy the details for your IT contact.</source>
        <translation>Rotary가 이 컴퓨터에서 문제를 발견했습니다 ({names}). 자세한 내용을 복사해 IT 담당자에게 전달해 주세요.</translation>
    </message>
    <message>
        <source>saving settings</source>
        <translation>설정 저장</translation>
    </message>
    <message>
        <source>saving conversations</source>
        <translation>대화 저장</translation>
    </message>
    <message>
        <source>writing the demo model</source>
        <translation>데모 모델 만들기</translation>
    </message>
    <message>
        <source>loading the demo model and writing a short answer</source>
        <translation>데모 모델을 불러와 짧은 답변 쓰기</translation>
    </message>
    <message>
        <source>checking the built-in accelerators</source>
        <translation>내장 가속 기능 확인</translation>
    </message>
    <message>
        <source>reading a scanned page</source>
        <translation>스캔한 페이지 읽기</translation>
    </message>
    <message>
        <source>checking that nothing used the network</source>
        <translation>네트워크를 쓰지 않았는지 확인</translation>
    </message>
    <message>
        <source>Checking {step} of {steps}: {what}… {seconds} s</source>
        <translation>확인 중 {step}/{steps}: {what}… {seconds}초</translation>
    </message>
    <message>
        <source>The model file cannot be opened. Check that it is still there and that you may read it.</source>
        <translation>모델 파일을 열 수 없습니다. 파일이 아직 그 자리에 있는지, 읽을 권한이 있는지 확인해 주세요.</translation>
    </message>
    <message>
        <source>Rotary cannot run this kind of model yet.</source>
        <translation>Rotary는 아직 이런 종류의 모델을 실행할 수 없습니다.</translation>
    </message>
    <message>
        <source>This computer does not have enough memory for this model, even with the smallest settings.</source>
        <translation>가장 작은 설정으로도 이 컴퓨터의 메모리가 이 모델에 부족합니다.</translation>
    </message>
    <message>
        <source>The model could not be loaded.</source>
        <translation>모델을 불러올 수 없었습니다.</translation>
    </message>
    <message>
        <source>Something went wrong while writing the answer.</source>
        <translation>답변을 쓰는 중에 문제가 생겼습니다.</translation>
    </message>
    <message>
        <source>Something went wrong between this computer and the office server.</source>
        <translation>이 컴퓨터와 사무실 서버 사이에 문제가 생겼습니다.</translation>
    </message>
    <message>
        <source>This document is too large for Rotary.</source>
        <translation>이 문서는 Rotary가 다루기에 너무 큽니다.</translation>
    </message>
    <message>
        <source>This document is protected by a password. Save a copy without the password and try again.</source>
        <translation>이 문서는 암호로 보호되어 있습니다. 암호 없는 사본을 저장한 뒤 다시 시도해 주세요.</translation>
    </message>
    <message>
        <source>This PDF holds only pictures of its pages (a scan), so there is no text to read.</source>
        <translation>이 PDF에는 쪽의 그림(스캔)만 있어 읽을 글자가 없습니다.</translation>
    </message>
    <message>
        <source>This document is damaged, or is not what its name says.</source>
        <translation>이 문서는 손상되었거나 이름과 다른 종류의 파일입니다.</translation>
    </message>
    <message>
        <source>This document has no text to read.</source>
        <translation>이 문서에는 읽을 글자가 없습니다.</translation>
    </message>
    <message>
        <source>This document cannot be summarised.</source>
        <translation>이 문서는 요약할 수 없습니다.</translation>
    </message>
    <message>
        <source>Documents in this conversation</source>
        <translation>이 대화의 문서</translation>
    </message>
    <message>
        <source>Documents in this conversation (questions search them all):</source>
        <translation>이 대화의 문서(질문하면 모두에서 찾습니다):</translation>
    </message>
    <message>
        <source>Document {name}</source>
        <translation>문서 {name}</translation>
    </message>
    <message>
        <source>Summarise…</source>
        <translation>요약…</translation>
    </message>
    <message>
        <source>Summarise {name}</source>
        <translation>{name} 요약</translation>
    </message>
    <message>
        <source>Remove {name} from this conversation</source>
        <translation>이 대화에서 {name} 제거</translation>
    </message>
    <message>
        <source>Questions will no longer search it. The file itself is not deleted.</source>
        <translation>질문할 때 더 이상 이 문서에서 찾지 않습니다. 파일 자체는 삭제되지 않습니다.</translation>
    </message>
    <message>
        <source>The text could not be saved as a document.</source>
        <translation>글을 문서로 저장할 수 없습니다.</translation>
    </message>
    <message>
        <source>{name}: read.</source>
        <translation>{name}: 읽었습니다.</translation>
    </message>
    <message>
        <source>{name}: not read. {why}</source>
        <translation>{name}: 읽지 못했습니다. {why}</translation>
    </message>
    <message>
        <source>{failed} of {count} files could not be read:</source>
        <translation>파일 {count}개 중 {failed}개를 읽지 못했습니다:</translation>
    </message>
    <message>
        <source>What the model thought</source>
        <translation>모델이 생각한 내용</translation>
    </message>
    <message>
        <source>Shows or hides what the model thought before answering</source>
        <translation>모델이 답하기 전에 생각한 내용을 보이거나 숨깁니다</translation>
    </message>
    <message>
        <source>Getting started</source>
        <translation>시작하기</translation>
    </message>
    <message>
        <source>Type a question in the box at the bottom and press Enter. The answer is written on this computer; nothing is sent to the internet.</source>
        <translation>아래쪽 상자에 질문을 입력하고 Enter 키를 누르세요. 답변은 이 컴퓨터에서 작성되며 인터넷으로는 아무것도 보내지 않습니다.</translation>
    </message>
    <message>
        <source>To ask about a document, press Attach… (or drop the file on the window), then ask your question or press Summarise.</source>
        <translation>문서에 대해 물으려면 첨부…를 누르거나 파일을 창에 끌어다 놓은 다음, 질문하거나 요약하기를 누르세요.</translation>
    </message>
    <message>
        <source>Stop ends an answer at once and keeps what was written. Your conversations are listed on the left and kept when Rotary closes.</source>
        <translation>‘멈추기’는 답변을 바로 끝내고 그때까지 쓴 내용을 남깁니다. 대화는 왼쪽에 나열되며 Rotary를 닫아도 보관됩니다.</translation>
    </message>
    <message>
        <source>The panel on the right shows how fast the answer is written and how much memory the model uses. Settings (Ctrl+,) changes the model and how much it remembers.</source>
        <translation>오른쪽 패널은 답변이 얼마나 빨리 쓰이는지와 모델이 메모리를 얼마나 쓰는지 보여 줍니다. 설정(Ctrl+,)에서 모델과 기억하는 양을 바꿀 수 있습니다.</translation>
    </message>
    <message>
        <source>Where something goes wrong, the notice at the top says what to do; its "Copy details" button copies what your IT contact needs.</source>
        <translation>문제가 생기면 위쪽 알림이 할 일을 알려 줍니다. 알림의 "자세한 내용 복사" 버튼은 IT 담당자에게 필요한 내용을 복사합니다.</translation>
    </message>
    <message>
        <source>Where models come from</source>
        <translation>모델을 구하는 곳</translation>
    </message>
    <message>
        <source>A model is one large file whose name ends in .gguf (often several gigabytes). Rotary does not include one, apart from a very small demo model for trying it out.</source>
        <translation>모델은 이름이 .gguf로 끝나는 큰 파일 하나입니다(보통 몇 기가바이트). Rotary에는 시험용 아주 작은 데모 모델 말고는 모델이 들어 있지 않습니다.</translation>
    </message>
    <message>
        <source>At work, ask your IT contact for a model file approved by your organisation.</source>
        <translation>회사에서는 IT 담당자에게 조직에서 승인한 모델 파일을 요청하세요.</translation>
    </message>
    <message>
        <source>If you are allowed to download files, models are published on Hugging Face (huggingface.co): look for a model in GGUF format whose name contains "Instruct" or "Chat", in a size that fits your computer.</source>
        <translation>파일을 내려받아도 된다면, 모델은 Hugging Face(huggingface.co)에 공개되어 있습니다. 이름에 "Instruct"나 "Chat"이 들어간 GGUF 형식 모델 중 컴퓨터에 맞는 크기를 찾으세요.</translation>
    </message>
    <message>
        <source>Then choose the file in Settings (Ctrl+,) or in First-time setup.</source>
        <translation>그런 다음 설정(Ctrl+,)이나 처음 설정에서 그 파일을 고르세요.</translation>
    </message>
    <message>
        <source>Back-end: {backend}.</source>
        <translation>백엔드: {backend}.</translation>
    </message>
    <message>
        <source>The log folder</source>
        <translation>로그 폴더</translation>
    </message>
    <message>
        <source>Rotary could not open a file manager on this computer. The log folder is:</source>
        <translation>Rotary가 이 컴퓨터에서 파일 관리자를 열 수 없었습니다. 로그 폴더 위치:</translation>
    </message>
    <message>
        <source>Copy the path</source>
        <translation>경로 복사</translation>
    </message>
    <message>
        <source>Copy the log folder's path</source>
        <translation>로그 폴더 경로 복사</translation>
    </message>
    <message>
        <source>The model runs on the office server.</source>
        <translation>모델은 사무실 서버에서 실행됩니다.</translation>
    </message>
    <message>
        <source>The model runs on this computer.</source>
        <translation>모델은 이 컴퓨터에서 실행됩니다.</translation>
    </message>
    <message>
        <source>No model is loaded.</source>
        <translation>불러온 모델이 없습니다.</translation>
    </message>
    <message>
        <source>Rotary runs language models on this computer, without the internet.</source>
        <translation>Rotary는 인터넷 없이 이 컴퓨터에서 언어 모델을 실행합니다.</translation>
    </message>
    <message>
        <source>Log file: {path}</source>
        <translation>로그 파일: {path}</translation>
    </message>
    <message>
        <source>none</source>
        <translation>없음</translation>
    </message>
    <message>
        <source>About Rotary</source>
        <translation>Rotary 정보</translation>
    </message>
    <message>
        <source>from LM Studio</source>
        <translation>LM Studio에서</translation>
    </message>
    <message>
        <source>from Ollama</source>
        <translation>Ollama에서</translation>
    </message>
    <message>
        <source>from Jan</source>
        <translation>Jan에서</translation>
    </message>
    <message>
        <source>from GPT4All</source>
        <translation>GPT4All에서</translation>
    </message>
    <message>
        <source>from Hugging Face</source>
        <translation>Hugging Face에서</translation>
    </message>
    <message>
        <source>in Downloads</source>
        <translation>다운로드 폴더</translation>
    </message>
    <message>
        <source>in Documents</source>
        <translation>문서 폴더</translation>
    </message>
    <message>
        <source>from your organisation</source>
        <translation>소속 기관 제공</translation>
    </message>
    <message>
        <source>{first} and {second}</source>
        <translation>{first}, {second}</translation>
    </message>
    <message>
        <source>Design: {name}</source>
        <translation>설계: {name}</translation>
    </message>
    <message>
        <source>made of {n} experts</source>
        <translation>전문가 {n}개로 구성</translation>
    </message>
    <message>
        <source>can think before answering</source>
        <translation>답하기 전에 생각할 수 있음</translation>
    </message>
    <message>
        <source>{size} GB</source>
        <translation>{size} GB</translation>
    </message>
    <message>
        <source>Runs on the graphics card.</source>
        <translation>그래픽 카드에서 실행됩니다.</translation>
    </message>
    <message>
        <source>Runs on the processor.</source>
        <translation>프로세서에서 실행됩니다.</translation>
    </message>
    <message>
        <source>Looking for models on this computer…</source>
        <translation>이 컴퓨터에서 모델을 찾는 중…</translation>
    </message>
    <message>
        <source>Models found on this computer, best fit first</source>
        <translation>이 컴퓨터에서 찾은 모델(가장 잘 맞는 것부터)</translation>
    </message>
    <message>
        <source>Other file…</source>
        <translation>다른 파일…</translation>
    </message>
    <message>
        <source>Choose another model file</source>
        <translation>다른 모델 파일 선택</translation>
    </message>
    <message>
        <source>Rotary could not look for other models on this computer.</source>
        <translation>Rotary가 이 컴퓨터에서 다른 모델을 찾을 수 없었습니다.</translation>
    </message>
    <message>
        <source>Models found on this computer, best fit first:</source>
        <translation>이 컴퓨터에서 찾은 모델(가장 잘 맞는 것부터):</translation>
    </message>
    <message>
        <source>No other models were found on this computer.</source>
        <translation>이 컴퓨터에서 다른 모델은 찾지 못했습니다.</translation>
    </message>
    <message>
        <source>No models were found on this computer. Choose a model file with Other file…</source>
        <translation>이 컴퓨터에서 모델을 찾지 못했습니다. ‘다른 파일…’로 모델 파일을 선택하세요.</translation>
    </message>
    <message>
        <source>Chosen: {name}</source>
        <translation>선택한 모델: {name}</translation>
    </message>
    <message>
        <source>Rotary could not look for models. Choose a model file with Other file…</source>
        <translation>Rotary가 모델을 찾을 수 없었습니다. ‘다른 파일…’로 모델 파일을 선택하세요.</translation>
    </message>
    <message>
        <source>Rotary could not open it.</source>
        <translation>Rotary가 이 파일을 열 수 없었습니다.</translation>
    </message>
    <message>
        <source>It is not written correctly.</source>
        <translation>파일 내용이 올바르게 작성되지 않았습니다.</translation>
    </message>
    <message>
        <source>Your organisation's settings file ({path}) was ignored: {why} Ask your IT department to check it.</source>
        <translation>소속 기관의 설정 파일({path})을 무시했습니다: {why} IT 부서에 확인을 요청하세요.</translation>
    </message>
    <message>
        <source>Your organisation's settings file ({path}) has a value Rotary cannot use ({what}), so that value was left out.</source>
        <translation>소속 기관의 설정 파일({path})에 Rotary가 사용할 수 없는 값({what})이 있어 그 값은 제외했습니다.</translation>
    </message>
    <message>
        <source>Set by your organisation</source>
        <translation>소속 기관에서 설정함</translation>
    </message>
    <message>
        <source>Reading your message… {percent}%</source>
        <translation>메시지를 읽는 중… {percent}%</translation>
    </message>
    <message>
        <source>Reading your message… {percent}% — almost done</source>
        <translation>메시지를 읽는 중… {percent}% — 거의 끝났습니다</translation>
    </message>
    <message>
        <source>Reading your message… {percent}% — about {seconds} s left</source>
        <translation>메시지를 읽는 중… {percent}% — 약 {seconds}초 남음</translation>
    </message>
    <message>
        <source>Reading your message… {percent}% — about {minutes} min left</source>
        <translation>메시지를 읽는 중… {percent}% — 약 {minutes}분 남음</translation>
    </message>
</context>
<context>
    <name>engine</name>
    <message>
        <source>{first} {second}</source>
        <translation>{first} {second}</translation>
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
        <translation>아직 불러온 모델이 없습니다. 설정에서 모델을 선택하세요.</translation>
    </message>
    <message>
        <source>Something went wrong inside the engine.</source>
        <translation>엔진 내부에서 문제가 발생했습니다.</translation>
    </message>
    <message>
        <source>1 page</source>
        <translation>1쪽</translation>
    </message>
    <message>
        <source>{n:,} pages</source>
        <translation>{n:,}쪽</translation>
    </message>
    <message>
        <source>1 section</source>
        <translation>1개 절</translation>
    </message>
    <message>
        <source>{n:,} sections</source>
        <translation>{n:,}개 절</translation>
    </message>
    <message>
        <source>1 line</source>
        <translation>1줄</translation>
    </message>
    <message>
        <source>{n:,} lines</source>
        <translation>{n:,}줄</translation>
    </message>
    <message>
        <source>{n} words</source>
        <translation>{n}단어</translation>
    </message>
    <message>
        <source>about {n:,} words</source>
        <translation>약 {n:,}단어</translation>
    </message>
    <message>
        <source>{found}, {words}</source>
        <translation>{found}, {words}</translation>
    </message>
    <message>
        <source>{text}.</source>
        <translation>{text}.</translation>
    </message>
    <message>
        <source>Short summary</source>
        <translation>짧은 요약</translation>
    </message>
    <message>
        <source>Detailed summary</source>
        <translation>자세한 요약</translation>
    </message>
    <message>
        <source>Bullet points</source>
        <translation>요점 목록</translation>
    </message>
    <message>
        <source>Action items</source>
        <translation>할 일 목록</translation>
    </message>
    <message>
        <source>read in one pass</source>
        <translation>한 번에 읽기</translation>
    </message>
    <message>
        <source>read in {n} parts</source>
        <translation>{n}개 부분으로 나눠 읽기</translation>
    </message>
    <message>
        <source>in one pass</source>
        <translation>한 번에</translation>
    </message>
    <message>
        <source>in {n} parts</source>
        <translation>{n}개 부분으로 나눠</translation>
    </message>
    <message>
        <source>less than a minute on this computer</source>
        <translation>이 컴퓨터에서 1분 미만</translation>
    </message>
    <message>
        <source>about 1 minute on this computer</source>
        <translation>이 컴퓨터에서 약 1분</translation>
    </message>
    <message>
        <source>about {n} minutes on this computer</source>
        <translation>이 컴퓨터에서 약 {n}분</translation>
    </message>
    <message>
        <source>about {n:.1f} hours on this computer</source>
        <translation>이 컴퓨터에서 약 {n:.1f}시간</translation>
    </message>
    <message>
        <source>less than a minute on the office server</source>
        <translation>사무실 서버에서 1분 미만</translation>
    </message>
    <message>
        <source>about 1 minute on the office server</source>
        <translation>사무실 서버에서 약 1분</translation>
    </message>
    <message>
        <source>about {n} minutes on the office server</source>
        <translation>사무실 서버에서 약 {n}분</translation>
    </message>
    <message>
        <source>about {n:.1f} hours on the office server</source>
        <translation>사무실 서버에서 약 {n:.1f}시간</translation>
    </message>
    <message>
        <source>Less than a minute left.</source>
        <translation>1분도 남지 않았습니다.</translation>
    </message>
    <message>
        <source>About 1 minute left.</source>
        <translation>약 1분 남았습니다.</translation>
    </message>
    <message>
        <source>About {n} minutes left.</source>
        <translation>약 {n}분 남았습니다.</translation>
    </message>
    <message>
        <source>{found}, {how}.</source>
        <translation>{found}, {how}.</translation>
    </message>
    <message>
        <source>{found}, {how}, {duration}.</source>
        <translation>{found}, {how}, {duration}.</translation>
    </message>
    <message>
        <source>{pages} and {n} more</source>
        <translation>{pages} 외 {n}쪽</translation>
    </message>
    <message>
        <source>Page {pages} has no text (probably a picture) and will be skipped.</source>
        <translation>{pages}쪽에는 글자가 없어(아마 그림) 건너뜁니다.</translation>
    </message>
    <message>
        <source>Pages {pages} have no text (probably pictures) and will be skipped.</source>
        <translation>{pages}쪽에는 글자가 없어(아마 그림) 건너뜁니다.</translation>
    </message>
    <message>
        <source>Page {pages} has no text and could not be read.</source>
        <translation>{pages}쪽에는 글자가 없어 읽지 못했습니다.</translation>
    </message>
    <message>
        <source>Pages {pages} have no text and could not be read.</source>
        <translation>{pages}쪽에는 글자가 없어 읽지 못했습니다.</translation>
    </message>
    <message>
        <source>Page {pages} is a picture (probably scanned): text recognition read it in {seconds:.0f} s.</source>
        <translation>{pages}쪽은 그림(아마 스캔)이어서 문자 인식으로 {seconds:.0f}초 만에 읽었습니다.</translation>
    </message>
    <message>
        <source>Pages {pages} are pictures (probably scanned): text recognition read them in {seconds:.0f} s.</source>
        <translation>{pages}쪽은 그림(아마 스캔)이어서 문자 인식으로 {seconds:.0f}초 만에 읽었습니다.</translation>
    </message>
    <message>
        <source>Read all of it ({found}) {how}.</source>
        <translation>전체({found})를 {how} 읽었습니다.</translation>
    </message>
    <message>
        <source>Read all of it ({found}) {how}, but stopped before the summary was finished.</source>
        <translation>전체({found})를 {how} 읽었지만, 요약이 끝나기 전에 멈췄습니다.</translation>
    </message>
    <message>
        <source>Stopped before any of it ({found}) was read.</source>
        <translation>문서({found})를 읽기 전에 멈췄습니다.</translation>
    </message>
    <message>
        <source>Partial: read {done} of {parts} parts of it ({found}); the rest was not read.</source>
        <translation>일부만: 문서({found})의 {parts}개 부분 중 {done}개를 읽었고, 나머지는 읽지 않았습니다.</translation>
    </message>
    <message>
        <source>Partial: read {where} of {found} ({done} of {parts} parts); the rest was not read.</source>
        <translation>일부만: 문서({found}) 중 {where}를 읽었습니다({parts}개 부분 중 {done}개). 나머지는 읽지 않았습니다.</translation>
    </message>
    <message>
        <source>Partial summary: stopped before the end.</source>
        <translation>일부 요약: 끝나기 전에 멈췄습니다.</translation>
    </message>
    <message>
        <source>Reading the whole document and writing the summary…</source>
        <translation>문서 전체를 읽고 요약을 쓰는 중…</translation>
    </message>
    <message>
        <source>Reading part {part} of {parts}…</source>
        <translation>{parts}개 중 {part}번째 부분을 읽는 중…</translation>
    </message>
    <message>
        <source>Writing the summary from the notes on all {parts} parts…</source>
        <translation>{parts}개 부분 전체의 메모로 요약을 쓰는 중…</translation>
    </message>
    <message>
        <source>Reading page {page} of {pages} with text recognition…</source>
        <translation>문자 인식으로 {pages}쪽 중 {page}쪽을 읽는 중…</translation>
    </message>
    <message>
        <source>Looking for the passages that answer your question…</source>
        <translation>질문에 답하는 부분을 찾는 중…</translation>
    </message>
    <message>
        <source>Reading {n} passages from {where}…</source>
        <translation>{where}에서 {n}개 부분을 읽는 중…</translation>
    </message>
    <message>
        <source>p. {page}</source>
        <translation>{page}쪽</translation>
    </message>
    <message>
        <source>pp. {pages}</source>
        <translation>{pages}쪽</translation>
    </message>
    <message>
        <source>section “{heading}”</source>
        <translation>“{heading}” 부분</translation>
    </message>
    <message>
        <source>lines {lines}</source>
        <translation>{lines}줄</translation>
    </message>
    <message>
        <source>the beginning</source>
        <translation>처음 부분</translation>
    </message>
    <message>
        <source>{name}, {where}</source>
        <translation>{name}, {where}</translation>
    </message>
    <message>
        <source>{first}; {second}</source>
        <translation>{first}; {second}</translation>
    </message>
    <message>
        <source>{name} (all of it)</source>
        <translation>{name} (전체)</translation>
    </message>
    <message>
        <source>Read for this answer: {where}.</source>
        <translation>이 답변을 위해 읽은 곳: {where}.</translation>
    </message>
    <message>
        <source>Read all of it for this answer ({where}), {how}.</source>
        <translation>이 답변을 위해 전체({where})를 {how} 읽었습니다.</translation>
    </message>
    <message>
        <source>not found on {where}</source>
        <translation>{where}에서 찾을 수 없음</translation>
    </message>
    <message>
        <source>the document has no {where}</source>
        <translation>문서에 없는 {where}</translation>
    </message>
    <message>
        <source>{passed} of {checked} page references checked against the pages.</source>
        <translation>쪽 인용 {checked}개 중 {passed}개가 해당 쪽에서 확인되었습니다.</translation>
    </message>
    <message>
        <source>'{name}' is in the old Word format (.doc). Open it in Word and save it as .docx, then drop it here again.</source>
        <translation>'{name}'은(는) 예전 Word 형식(.doc)입니다. Word에서 열어 .docx로 저장한 뒤 다시 여기에 놓으세요.</translation>
    </message>
    <message>
        <source>Rotary cannot read '{name}'. It reads PDF, Word (.docx), text and Markdown files.</source>
        <translation>Rotary는 '{name}'을(를) 읽을 수 없습니다. PDF, Word(.docx), 텍스트, Markdown 파일을 읽습니다.</translation>
    </message>
    <message>
        <source>'{name}' could not be opened.</source>
        <translation>'{name}'을(를) 열 수 없습니다.</translation>
    </message>
    <message>
        <source>'{name}' is a folder, not a document.</source>
        <translation>'{name}'은(는) 문서가 아니라 폴더입니다.</translation>
    </message>
    <message>
        <source>'{name}' is empty.</source>
        <translation>'{name}'은(는) 비어 있습니다.</translation>
    </message>
    <message>
        <source>'{name}' contains no text to read.</source>
        <translation>'{name}'에는 읽을 글자가 없습니다.</translation>
    </message>
    <message>
        <source>'{name}' is {mb:,.0f} MB; Rotary reads documents up to {limit:,.0f} MB.</source>
        <translation>'{name}'은(는) {mb:,.0f}MB입니다. Rotary는 {limit:,.0f}MB까지의 문서를 읽습니다.</translation>
    </message>
    <message>
        <source>This file is not a PDF, although its name ends in .pdf.</source>
        <translation>이 파일은 이름이 .pdf로 끝나지만 PDF가 아닙니다.</translation>
    </message>
    <message>
        <source>This PDF has {n:,} pages; Rotary reads documents up to {limit:,} pages.</source>
        <translation>이 PDF는 {n:,}쪽입니다. Rotary는 {limit:,}쪽까지의 문서를 읽습니다.</translation>
    </message>
    <message>
        <source>This PDF's pages are pictures (probably scanned), and text recognition is not installed with this copy of Rotary, so it cannot read them.</source>
        <translation>이 PDF의 쪽은 그림(아마 스캔)인데, 이 Rotary에는 문자 인식이 설치되어 있지 않아 읽을 수 없습니다.</translation>
    </message>
    <message>
        <source>This PDF's pages are pictures (probably scanned), and text recognition found no words on them.</source>
        <translation>이 PDF의 쪽은 그림(아마 스캔)이며, 문자 인식으로도 글자를 찾지 못했습니다.</translation>
    </message>
    <message>
        <source>This PDF is protected by a password. Open it, save a copy without the password, and drop that copy here.</source>
        <translation>이 PDF는 암호로 보호되어 있습니다. 파일을 열어 암호 없는 사본을 저장한 뒤 그 사본을 여기에 놓으세요.</translation>
    </message>
    <message>
        <source>This PDF is damaged and could not be opened.</source>
        <translation>이 PDF는 손상되어 열 수 없습니다.</translation>
    </message>
    <message>
        <source>This PDF holds more text than Rotary can read at once (it stopped at page {page} of {pages}).</source>
        <translation>이 PDF에는 Rotary가 한 번에 읽을 수 있는 것보다 많은 글자가 있습니다({pages}쪽 중 {page}쪽에서 멈춤).</translation>
    </message>
    <message>
        <source>This Word file is protected by a password (or is an old .doc renamed to .docx). Open it in Word, save a copy without the password as .docx, and drop that copy here.</source>
        <translation>이 Word 파일은 암호로 보호되어 있습니다(또는 이름만 .docx로 바꾼 예전 .doc 파일입니다). Word에서 열어 암호 없는 사본을 .docx로 저장한 뒤 그 사본을 여기에 놓으세요.</translation>
    </message>
    <message>
        <source>This Word file is damaged and could not be opened.</source>
        <translation>이 Word 파일은 손상되어 열 수 없습니다.</translation>
    </message>
    <message>
        <source>This file is not a Word document, although its name ends in .docx.</source>
        <translation>이 파일은 이름이 .docx로 끝나지만 Word 문서가 아닙니다.</translation>
    </message>
    <message>
        <source>'{name}' is really {what}, although its name ends in {suffix}. {advice}</source>
        <translation>'{name}'은(는) 이름이 {suffix}(으)로 끝나지만 실제로는 {what}입니다. {advice}</translation>
    </message>
    <message>
        <source>an Excel workbook</source>
        <translation>Excel 통합 문서</translation>
    </message>
    <message>
        <source>an old Excel workbook (.xls)</source>
        <translation>예전 Excel 통합 문서(.xls)</translation>
    </message>
    <message>
        <source>a PowerPoint presentation</source>
        <translation>PowerPoint 프레젠테이션</translation>
    </message>
    <message>
        <source>an old PowerPoint presentation (.ppt)</source>
        <translation>예전 PowerPoint 프레젠테이션(.ppt)</translation>
    </message>
    <message>
        <source>an old Word document (.doc)</source>
        <translation>예전 Word 문서(.doc)</translation>
    </message>
    <message>
        <source>an OpenDocument file (LibreOffice)</source>
        <translation>OpenDocument 파일(LibreOffice)</translation>
    </message>
    <message>
        <source>a ZIP archive</source>
        <translation>ZIP 압축 파일</translation>
    </message>
    <message>
        <source>an old Microsoft Office file</source>
        <translation>예전 Microsoft Office 파일</translation>
    </message>
    <message>
        <source>an Office file protected by a password</source>
        <translation>암호로 보호된 Office 파일</translation>
    </message>
    <message>
        <source>a Rich Text document (.rtf)</source>
        <translation>서식 있는 텍스트 문서(.rtf)</translation>
    </message>
    <message>
        <source>a picture</source>
        <translation>그림</translation>
    </message>
    <message>
        <source>Open it in the program that made it, save it as PDF (or as .docx), and attach that file.</source>
        <translation>만든 프로그램에서 열어 PDF(또는 .docx)로 저장한 뒤 그 파일을 첨부하세요.</translation>
    </message>
    <message>
        <source>Open it in Word, save it as .docx, and attach that file.</source>
        <translation>Word에서 열어 .docx로 저장한 뒤 그 파일을 첨부하세요.</translation>
    </message>
    <message>
        <source>Unpack it and attach the documents inside.</source>
        <translation>압축을 풀고 안에 있는 문서를 첨부하세요.</translation>
    </message>
    <message>
        <source>Rotary reads text, not pictures: attach the document itself, or a PDF of it.</source>
        <translation>Rotary는 그림이 아닌 텍스트를 읽습니다. 문서 자체나 그 PDF를 첨부하세요.</translation>
    </message>
    <message>
        <source>Open it, save a copy without the password as PDF or .docx, and attach that copy.</source>
        <translation>파일을 열어 암호 없는 사본을 PDF나 .docx로 저장한 뒤 그 사본을 첨부하세요.</translation>
    </message>
    <message>
        <source>This Word file unpacks to more data than Rotary reads ({mb:,.0f} MB).</source>
        <translation>이 Word 파일은 풀면 Rotary가 읽는 것보다 큰 데이터가 됩니다({mb:,.0f}MB).</translation>
    </message>
    <message>
        <source>This text file holds more text than Rotary can read at once.</source>
        <translation>이 텍스트 파일에는 Rotary가 한 번에 읽을 수 있는 것보다 많은 글자가 있습니다.</translation>
    </message>
    <message>
        <source>This file does not contain readable text, although its name says it is a text file.</source>
        <translation>이 파일은 이름으로는 텍스트 파일이지만 읽을 수 있는 글자가 없습니다.</translation>
    </message>
    <message>
        <source>This file does not contain text (it looks like a program or a picture), although its name says it is a text file.</source>
        <translation>이 파일은 이름으로는 텍스트 파일이지만 글자가 아닌 내용(프로그램이나 그림으로 보임)이 들어 있습니다.</translation>
    </message>
    <message>
        <source>There is no summary style called '{name}'.</source>
        <translation>'{name}'(이)라는 요약 방식은 없습니다.</translation>
    </message>
    <message>
        <source>The model's memory (context) is too small to read documents. Choose a larger context in Settings.</source>
        <translation>모델의 기억 공간(컨텍스트)이 너무 작아 문서를 읽을 수 없습니다. 설정에서 더 큰 컨텍스트를 선택하세요.</translation>
    </message>
    <message>
        <source>The document could not be split to fit the model's memory.</source>
        <translation>문서를 모델의 기억 공간에 맞게 나눌 수 없었습니다.</translation>
    </message>
    <message>
        <source>Text recognition was stopped, so the document was not read.</source>
        <translation>문자 인식이 멈춰서 문서를 읽지 않았습니다.</translation>
    </message>
    <message>
        <source>This conversation has no documents to search. Attach one first.</source>
        <translation>이 대화에는 찾아볼 문서가 없습니다. 먼저 문서를 첨부하세요.</translation>
    </message>
    <message>
        <source>'{name}' is no longer in Rotary's list of read documents. Attach it again.</source>
        <translation>'{name}'이(가) 더 이상 Rotary가 읽은 문서 목록에 없습니다. 다시 첨부하세요.</translation>
    </message>
    <message>
        <source>No model is loaded yet, so the document cannot be read. Choose a model in Settings.</source>
        <translation>아직 불러온 모델이 없어 문서를 읽을 수 없습니다. 설정에서 모델을 선택하세요.</translation>
    </message>
    <message>
        <source>The document was not read: it was stopped before it started.</source>
        <translation>문서를 읽지 않았습니다. 시작하기 전에 중지되었습니다.</translation>
    </message>
    <message>
        <source>Name a model file, or an office server with --server URL.</source>
        <translation>모델 파일을 지정하거나, --server URL로 사무실 서버를 지정하세요.</translation>
    </message>
    <message>
        <source>Name a model file with --model, or an office server with --server URL.</source>
        <translation>--model로 모델 파일을 지정하거나, --server URL로 사무실 서버를 지정하세요.</translation>
    </message>
    <message>
        <source>This model has no experts, so there is no routing to record.</source>
        <translation>이 모델에는 전문가가 없어 기록할 라우팅이 없습니다.</translation>
    </message>
    <message>
        <source>Checking the model file…</source>
        <translation>모델 파일을 확인하는 중…</translation>
    </message>
    <message>
        <source>Loading the model into memory…</source>
        <translation>모델을 메모리에 불러오는 중…</translation>
    </message>
    <message>
        <source>Finding the faster way to use your graphics card (once)…</source>
        <translation>그래픽 카드를 더 빠르게 쓰는 방법을 찾는 중(처음 한 번만)…</translation>
    </message>
    <message>
        <source>The model is ready.</source>
        <translation>모델이 준비되었습니다.</translation>
    </message>
    <message>
        <source>{summary} {note}</source>
        <translation>{summary} {note}</translation>
    </message>
    <message>
        <source>This build of Rotary cannot copy the parts of the model a conversation uses most to the graphics card, so whole parts of the model are placed there instead.</source>
        <translation>이 Rotary 빌드는 대화에 가장 많이 쓰이는 모델 부분을 그래픽 카드로 복사할 수 없어, 대신 모델의 일부를 통째로 그래픽 카드에 둡니다.</translation>
    </message>
    <message>
        <source>Rotary could not copy the parts of the model a conversation uses most to the graphics card here, so whole parts of the model are placed there instead.</source>
        <translation>이 컴퓨터에서는 대화에 가장 많이 쓰이는 모델 부분을 그래픽 카드로 복사할 수 없어, 대신 모델의 일부를 통째로 그래픽 카드에 둡니다.</translation>
    </message>
    <message>
        <source>There was not enough graphics memory to copy the parts of the model a conversation uses most to the graphics card.</source>
        <translation>대화에 가장 많이 쓰이는 모델 부분을 그래픽 카드로 복사할 그래픽 메모리가 부족했습니다.</translation>
    </message>
    <message>
        <source>There was not enough memory to load this model with the current settings.</source>
        <translation>현재 설정으로 이 모델을 불러오기에는 메모리가 부족했습니다.</translation>
    </message>
    <message>
        <source>The model file {name} could not be loaded.</source>
        <translation>모델 파일 {name}을(를) 불러올 수 없습니다.</translation>
    </message>
    <message>
        <source>This model has no experts to keep on the graphics card.</source>
        <translation>이 모델에는 그래픽 카드에 둘 전문가가 없습니다.</translation>
    </message>
    <message>
        <source>This computer does not have enough memory for this model, even with the smallest settings. Try a smaller model.</source>
        <translation>가장 작은 설정으로도 이 컴퓨터의 메모리가 이 모델에 부족합니다. 더 작은 모델을 사용해 보세요.</translation>
    </message>
    <message>
        <source>Not enough graphics memory, so less of the model is kept on the graphics card.</source>
        <translation>그래픽 메모리가 부족하여 모델을 그래픽 카드에 더 적게 올려 둡니다.</translation>
    </message>
    <message>
        <source>The model runs on the graphics card {device}: {gpu} of it there and {ram} in main memory.</source>
        <translation>모델이 그래픽 카드 {device}에서 실행됩니다: {gpu}는 그래픽 카드에, {ram}는 주 메모리에 있습니다.</translation>
    </message>
    <message>
        <source>The model runs on {device}, software that imitates a graphics card on the processor: {gpu} of it there and {ram} in main memory. It writes much more slowly than the processor alone.</source>
        <translation>모델이 프로세서에서 그래픽 카드를 흉내 내는 소프트웨어 {device}에서 실행됩니다: {gpu}는 그곳에, {ram}는 주 메모리에 있습니다. 프로세서만 쓸 때보다 훨씬 느리게 씁니다.</translation>
    </message>
    <message>
        <source>The model runs on the graphics card {device}: {gpu} of it there ({slots} of it for the parts the conversation uses most) and {ram} in main memory.</source>
        <translation>모델이 그래픽 카드 {device}에서 실행됩니다: {gpu}는 그래픽 카드에(그중 {slots}는 대화에 가장 많이 쓰이는 부분용), {ram}는 주 메모리에 있습니다.</translation>
    </message>
    <message>
        <source>The model runs on the processor ({ram} in main memory); no graphics card is used.</source>
        <translation>모델이 프로세서에서 실행됩니다(주 메모리 {ram}). 그래픽 카드는 사용하지 않습니다.</translation>
    </message>
    <message>
        <source>The model runs on the processor; no graphics card is used.</source>
        <translation>모델이 프로세서에서 실행됩니다. 그래픽 카드는 사용하지 않습니다.</translation>
    </message>
    <message>
        <source>{placed} {unused}</source>
        <translation>{placed} {unused}</translation>
    </message>
    <message>
        <source>The model stopped unexpectedly while writing.</source>
        <translation>모델이 답변을 쓰는 도중에 예기치 않게 멈췄습니다.</translation>
    </message>
    <message>
        <source>Rotary does not know how to hold a conversation with this model.</source>
        <translation>Rotary는 이 모델과 대화하는 방법을 모릅니다.</translation>
    </message>
    <message>
        <source>This installation of Rotary is incomplete: the part that writes conversations for the model is missing. Install Rotary again.</source>
        <translation>이 Rotary 설치는 완전하지 않습니다. 모델에 대화를 전달하는 부분이 없습니다. Rotary를 다시 설치하세요.</translation>
    </message>
    <message>
        <source>(The model asked to use a tool, "{name}", which Rotary does not offer, so nothing was run.)</source>
        <translation>(모델이 "{name}" 도구를 쓰려고 했지만 Rotary는 도구를 제공하지 않으므로 아무것도 실행되지 않았습니다.)</translation>
    </message>
    <message>
        <source>(The model asked to use a tool, which Rotary does not offer, so nothing was run.)</source>
        <translation>(모델이 도구를 쓰려고 했지만 Rotary는 도구를 제공하지 않으므로 아무것도 실행되지 않았습니다.)</translation>
    </message>
    <message>
        <source>This conversation is too long for the model's memory. Start a new chat or shorten the text.</source>
        <translation>이 대화는 모델이 기억하기에 너무 깁니다. 새 대화를 시작하거나 글을 줄여 주세요.</translation>
    </message>
    <message>
        <source>The model started repeating the same words over and over, so Rotary stopped it and kept them once. Try Write again, or another model in Settings.</source>
        <translation>모델이 같은 말을 계속 되풀이하기 시작해서 Rotary가 멈추고 그 말은 한 번만 남겼습니다. 다시 쓰기를 누르거나 설정에서 다른 모델을 골라 보세요.</translation>
    </message>
    <message>
        <source>The model started repeating the same words over and over while reading this document, so Rotary stopped and kept no summary. Try again, or another model in Settings.</source>
        <translation>문서를 읽는 동안 모델이 같은 말을 계속 되풀이하기 시작해서 Rotary가 멈췄고 요약은 저장하지 않았습니다. 다시 시도하거나 설정에서 다른 모델을 골라 보세요.</translation>
    </message>
    <message>
        <source>Thought for {words:,} words</source>
        <translation>{words:,}단어 동안 생각함</translation>
    </message>
    <message>
        <source>Thought for {words:,} words, stopped to answer</source>
        <translation>{words:,}단어 동안 생각한 뒤 답하려고 멈춤</translation>
    </message>
    <message>
        <source>This message is too long for the model's memory: {words:,} words, where it can take about {room:,}. Attach it as a document instead, or shorten it; your earlier messages are kept.</source>
        <translation>이 메시지는 모델이 기억하기에 너무 깁니다: {words:,}단어인데 약 {room:,}단어까지만 받을 수 있습니다. 대신 문서로 첨부하거나 줄여 주세요. 앞의 메시지는 그대로 남습니다.</translation>
    </message>
    <message>
        <source>The model file's own: answer variety (temperature) {temperature}, top-p {top_p}, top-k {top_k}.</source>
        <translation>모델 파일에 적힌 값: 답변 다양성(temperature) {temperature}, top-p {top_p}, top-k {top_k}.</translation>
    </message>
    <message>
        <source>Recommended for this kind of model: answer variety (temperature) {temperature}, top-p {top_p}, top-k {top_k}.</source>
        <translation>이 종류의 모델에 권장되는 값: 답변 다양성(temperature) {temperature}, top-p {top_p}, top-k {top_k}.</translation>
    </message>
    <message>
        <source>Rotary's usual: answer variety (temperature) {temperature}, top-p {top_p}, top-k {top_k}.</source>
        <translation>Rotary 기본값: 답변 다양성(temperature) {temperature}, top-p {top_p}, top-k {top_k}.</translation>
    </message>
    <message>
        <source>{said} Min-p {min_p}.</source>
        <translation>{said} min-p {min_p}.</translation>
    </message>
    <message>
        <source>The model file “{name}” could not be found. It may have been moved or deleted.</source>
        <translation>모델 파일 “{name}”을(를) 찾을 수 없습니다. 옮겨졌거나 삭제되었을 수 있습니다.</translation>
    </message>
    <message>
        <source>Rotary is not allowed to open the model file “{name}”. Ask your IT contact to let your account read it.</source>
        <translation>Rotary에 모델 파일 “{name}”을(를) 열 권한이 없습니다. IT 담당자에게 이 계정이 파일을 읽을 수 있게 해 달라고 요청해 주세요.</translation>
    </message>
    <message>
        <source>The model file “{name}” could not be opened.</source>
        <translation>모델 파일 “{name}”을(를) 열 수 없습니다.</translation>
    </message>
    <message>
        <source>“{name}” is a folder, not a model file. Choose the .gguf file inside it.</source>
        <translation>“{name}”은(는) 모델 파일이 아니라 폴더입니다. 그 안의 .gguf 파일을 선택하세요.</translation>
    </message>
    <message>
        <source>This file is not a model Rotary can use. Choose a .gguf model file.</source>
        <translation>이 파일은 Rotary가 사용할 수 있는 모델이 아닙니다. .gguf 모델 파일을 선택하세요.</translation>
    </message>
    <message>
        <source>This file is not a model Rotary can use: it is too short. Choose a .gguf model file.</source>
        <translation>이 파일은 Rotary가 사용할 수 있는 모델이 아닙니다. 파일이 너무 짧습니다. .gguf 모델 파일을 선택하세요.</translation>
    </message>
    <message>
        <source>This file is not a model Rotary can use: it looks like {kind}. Choose a .gguf model file.</source>
        <translation>이 파일은 Rotary가 사용할 수 있는 모델이 아닙니다. {kind}(으)로 보입니다. .gguf 모델 파일을 선택하세요.</translation>
    </message>
    <message>
        <source>a PDF document</source>
        <translation>PDF 문서</translation>
    </message>
    <message>
        <source>a PNG picture</source>
        <translation>PNG 그림</translation>
    </message>
    <message>
        <source>a model in an old format Rotary cannot read</source>
        <translation>Rotary가 읽을 수 없는 예전 형식의 모델</translation>
    </message>
    <message>
        <source>This model file was made for a different kind of computer. Rotary needs the ordinary version of the file.</source>
        <translation>이 모델 파일은 다른 종류의 컴퓨터용으로 만들어졌습니다. Rotary에는 일반 버전의 파일이 필요합니다.</translation>
    </message>
    <message>
        <source>This model file is in a format Rotary cannot read (version {version}).</source>
        <translation>이 모델 파일은 Rotary가 읽을 수 없는 형식입니다 (버전 {version}).</translation>
    </message>
    <message>
        <source>The model file is damaged. Copy or download it again.</source>
        <translation>모델 파일이 손상되었습니다. 다시 복사하거나 내려받아 주세요.</translation>
    </message>
    <message>
        <source>The model file is incomplete or damaged. Copy or download it again.</source>
        <translation>모델 파일이 완전하지 않거나 손상되었습니다. 다시 복사하거나 내려받아 주세요.</translation>
    </message>
    <message>
        <source>The model file describes itself in a way Rotary cannot read.</source>
        <translation>모델 파일이 Rotary가 읽을 수 없는 방식으로 자신을 설명하고 있습니다.</translation>
    </message>
    <message>
        <source>This model is stored in a way Rotary does not know yet.</source>
        <translation>이 모델은 Rotary가 아직 모르는 방식으로 저장되어 있습니다.</translation>
    </message>
    <message>
        <source>The model file does not say what kind of model it is. It may be damaged.</source>
        <translation>모델 파일에 어떤 종류의 모델인지 적혀 있지 않습니다. 손상되었을 수 있습니다.</translation>
    </message>
    <message>
        <source>Rotary cannot run this kind of model yet (its design is called “{design}”).</source>
        <translation>Rotary는 아직 이런 종류의 모델을 실행할 수 없습니다 (설계 이름: “{design}”).</translation>
    </message>
    <message>
        <source>Rotary cannot use the graphics card {name}: this installation has no graphics support for it, so the model runs on the processor, more slowly. Install Rotary's package with graphics support (or ask your IT contact to).</source>
        <translation>Rotary가 그래픽 카드 {name}을(를) 사용할 수 없습니다. 이 설치본에는 해당 그래픽 카드 지원이 없어 모델이 프로세서에서 더 느리게 실행됩니다. 그래픽 지원이 포함된 Rotary 패키지를 설치하세요(또는 IT 담당자에게 요청하세요).</translation>
    </message>
    <message>
        <source>Rotary could not start the graphics card {name}, so the model runs on the processor, more slowly. Updating the graphics card's driver from its maker's website usually fixes this; then restart Rotary.</source>
        <translation>Rotary가 그래픽 카드 {name}을(를) 시작하지 못해 모델이 프로세서에서 더 느리게 실행됩니다. 제조사 웹사이트에서 그래픽 카드 드라이버를 업데이트하면 대개 해결됩니다. 그런 다음 Rotary를 다시 시작하세요.</translation>
    </message>
    <message>
        <source>The graphics {name} is built into the processor and shares main memory, so Rotary keeps the model in main memory instead.</source>
        <translation>그래픽 {name}은(는) 프로세서에 내장되어 주 메모리를 함께 쓰므로, Rotary는 모델을 주 메모리에 둡니다.</translation>
    </message>
    <message>
        <source>{name} is not a graphics card but software that imitates one on the processor, many times more slowly, so Rotary uses the processor directly.</source>
        <translation>{name}은(는) 그래픽 카드가 아니라 프로세서에서 그래픽 카드를 흉내 내는 소프트웨어로, 몇십 배 느립니다. 그래서 Rotary는 프로세서를 직접 씁니다.</translation>
    </message>
    <message>
        <source>There is no device named {name}. `python -m engine devices` lists the ones this installation can use.</source>
        <translation>{name}(이)라는 장치가 없습니다. `python -m engine devices`가 이 설치본에서 쓸 수 있는 장치를 보여 줍니다.</translation>
    </message>
    <message>
        <source>Processor code, by the model's main weight type:</source>
        <translation>프로세서 코드(모델의 주된 가중치 형식별):</translation>
    </message>
    <message>
        <source>{weights} weights: {label} ({variant}), measured: it reads a prompt {score:.2f}× as fast as the portable build.</source>
        <translation>{weights} 가중치: {label} ({variant}), 측정 결과 프롬프트를 범용 빌드보다 {score:.2f}배 빠르게 읽습니다.</translation>
    </message>
    <message>
        <source>{weights} weights: {label} ({variant}), by the processor's flags, not measured yet.</source>
        <translation>{weights} 가중치: {label} ({variant}), 프로세서 플래그에 따라 선택했으며 아직 측정하지 않았습니다.</translation>
    </message>
    <message>
        <source>Processor code: {label} ({variant}), as ROTARY_CPU_ISA asks.</source>
        <translation>프로세서 코드: ROTARY_CPU_ISA에 지정된 대로 {label} ({variant}).</translation>
    </message>
    <message>
        <source>Processor code: {label} ({variant}); this processor has no other build to choose from.</source>
        <translation>프로세서 코드: {label} ({variant}). 이 프로세서에는 고를 수 있는 다른 빌드가 없습니다.</translation>
    </message>
    <message>
        <source>Automatic (fit this computer)</source>
        <translation>자동 (이 컴퓨터에 맞춤)</translation>
    </message>
    <message>
        <source>an automatic setting for this computer</source>
        <translation>이 컴퓨터에 맞춘 자동 설정</translation>
    </message>
    <message>
        <source>Laptop with an 8 GB graphics card</source>
        <translation>8 GB 그래픽 카드 노트북</translation>
    </message>
    <message>
        <source>the setting for laptops with an 8 GB graphics card</source>
        <translation>8 GB 그래픽 카드가 있는 노트북용 설정</translation>
    </message>
    <message>
        <source>Desktop with a 12 GB graphics card</source>
        <translation>12 GB 그래픽 카드 데스크톱</translation>
    </message>
    <message>
        <source>the setting for desktops with a 12 GB graphics card</source>
        <translation>12 GB 그래픽 카드가 있는 데스크톱용 설정</translation>
    </message>
    <message>
        <source>Desktop with a 16 GB graphics card</source>
        <translation>16 GB 그래픽 카드 데스크톱</translation>
    </message>
    <message>
        <source>the setting for desktops with a 16 GB graphics card</source>
        <translation>16 GB 그래픽 카드가 있는 데스크톱용 설정</translation>
    </message>
    <message>
        <source>Workstation with a 24 GB graphics card</source>
        <translation>24 GB 그래픽 카드 워크스테이션</translation>
    </message>
    <message>
        <source>the setting for workstations with a 24 GB graphics card</source>
        <translation>24 GB 그래픽 카드가 있는 워크스테이션용 설정</translation>
    </message>
    <message>
        <source>Processor only (no graphics card)</source>
        <translation>프로세서만 사용 (그래픽 카드 없음)</translation>
    </message>
    <message>
        <source>the processor-only setting (no graphics card needed)</source>
        <translation>프로세서 전용 설정 (그래픽 카드 필요 없음)</translation>
    </message>
    <message>
        <source>There is no setting called “{name}”.</source>
        <translation>“{name}”(이)라는 설정은 없습니다.</translation>
    </message>
    <message>
        <source>One of the advanced settings is not recognised.</source>
        <translation>고급 설정 중 하나를 알아볼 수 없습니다.</translation>
    </message>
    <message>
        <source>The conversation memory format is not recognised.</source>
        <translation>대화 메모리 형식을 알아볼 수 없습니다.</translation>
    </message>
    <message>
        <source>A compact conversation memory needs the fast attention option.</source>
        <translation>대화 메모리를 압축하려면 빠른 어텐션 옵션이 필요합니다.</translation>
    </message>
    <message>
        <source>This model is too big for this computer: it needs about {need} GB, but the graphics card and memory together have room for about {room} GB. Try a smaller model.</source>
        <translation>이 모델은 이 컴퓨터에 너무 큽니다. 약 {need}GB가 필요하지만 그래픽 카드와 메모리를 합쳐도 약 {room}GB의 여유밖에 없습니다. 더 작은 모델을 사용해 보세요.</translation>
    </message>
    <message>
        <source>the graphics card</source>
        <translation>그래픽 카드</translation>
    </message>
    <message>
        <source>The whole model runs on the processor and stays in main memory.</source>
        <translation>모델 전체가 프로세서에서 실행되고 주 메모리에 머뭅니다.</translation>
    </message>
    <message>
        <source>The whole model fits on the graphics card ({card}).</source>
        <translation>모델 전체가 그래픽 카드({card})에 들어갑니다.</translation>
    </message>
    <message>
        <source>{on_gpu} of {total} parts of the model are on the graphics card ({card}); the rest stays in main memory.</source>
        <translation>모델의 {total}개 부분 중 {on_gpu}개가 그래픽 카드({card})에 있고, 나머지는 주 메모리에 있습니다.</translation>
    </message>
    <message>
        <source>The graphics card ({card}) holds the parts of the model every word uses, and {slots} of the parts the conversation uses most, copied there as the text goes; the rest stays in main memory.</source>
        <translation>그래픽 카드({card})에는 모든 단어에 쓰이는 모델 부분과, 대화에 가장 많이 쓰이는 부분 {slots}가 글이 진행되면서 복사되어 있습니다. 나머지는 주 메모리에 있습니다.</translation>
    </message>
    <message>
        <source>{on_gpu} of {total} parts of the model are on the graphics card ({card}), with {slots} more there for the parts the conversation uses most, copied as the text goes; the rest stays in main memory.</source>
        <translation>모델의 {total}개 부분 중 {on_gpu}개가 그래픽 카드({card})에 있고, 대화에 가장 많이 쓰이는 부분을 위해 {slots}가 더 있어 글이 진행되면서 복사됩니다. 나머지는 주 메모리에 있습니다.</translation>
    </message>
    <message>
        <source>The parts kept in main memory that the conversation uses most are also copied to the graphics card as the text goes.</source>
        <translation>주 메모리에 있는 부분 중 대화에서 가장 많이 쓰는 것은 글이 진행되는 동안 그래픽 카드에도 복사됩니다.</translation>
    </message>
    <message>
        <source>Not enough graphics memory, so more of the model stays in main memory ({on_gpu} of {total} parts on the graphics card).</source>
        <translation>그래픽 메모리가 부족하여 모델의 더 많은 부분을 주 메모리에 둡니다 (그래픽 카드에는 {total}개 중 {on_gpu}개).</translation>
    </message>
    <message>
        <source>Not enough memory, so the assistant keeps a shorter conversation in mind (about {words:,.0f} words).</source>
        <translation>메모리가 부족하여 도우미가 더 짧은 대화만 기억합니다 (약 {words:,.0f}단어).</translation>
    </message>
    <message>
        <source>Not enough memory, so the conversation is kept in a more compact form; answers may be slightly less precise.</source>
        <translation>메모리가 부족하여 대화를 더 압축된 형태로 보관합니다. 답변이 조금 덜 정확할 수 있습니다.</translation>
    </message>
    <message>
        <source>Not enough memory, so the conversation is kept in an even more compact form; answers may be slightly less precise.</source>
        <translation>메모리가 부족하여 대화를 훨씬 더 압축된 형태로 보관합니다. 답변이 조금 덜 정확할 수 있습니다.</translation>
    </message>
    <message>
        <source>Not enough graphics memory, so the model runs on the processor only; answers will come much more slowly.</source>
        <translation>그래픽 메모리가 부족하여 모델을 프로세서에서만 실행합니다. 답변이 훨씬 느리게 나옵니다.</translation>
    </message>
    <message>
        <source>This will not fit: the model needs about {need} GB on the graphics card, but only {free} GB is free.</source>
        <translation>들어가지 않습니다. 모델에 그래픽 카드 메모리가 약 {need}GB 필요하지만 비어 있는 것은 {free}GB뿐입니다.</translation>
    </message>
    <message>
        <source>This will not fit: the model needs about {need} GB of memory, but this computer has {have} GB.</source>
        <translation>들어가지 않습니다. 모델에 메모리가 약 {need}GB 필요하지만 이 컴퓨터에는 {have}GB가 있습니다.</translation>
    </message>
    <message>
        <source>About {ram} in memory (the graphics card is not used); expect {speed}.</source>
        <translation>메모리 약 {ram}를 사용합니다 (그래픽 카드는 쓰지 않음). {speed}을(를) 예상하세요.</translation>
    </message>
    <message>
        <source>About {vram} on the graphics card (and {driver} its driver keeps) and {ram} in memory; expect {speed}.</source>
        <translation>그래픽 카드에 약 {vram}(이 밖에 드라이버가 {driver}), 메모리에 {ram}를 사용합니다. {speed}을(를) 예상하세요.</translation>
    </message>
    <message>
        <source>About {vram} on the graphics card and {ram} in memory; expect {speed}.</source>
        <translation>그래픽 카드에 약 {vram}, 메모리에 {ram}를 사용합니다. {speed}을(를) 예상하세요.</translation>
    </message>
    <message>
        <source>About {vram} on {device}, software that imitates a graphics card on the processor, and {ram} in memory; expect {speed}.</source>
        <translation>프로세서에서 그래픽 카드를 흉내 내는 소프트웨어 {device}에 약 {vram}, 메모리에 {ram}를 사용합니다. {speed}을(를) 예상하세요.</translation>
    </message>
    <message>
        <source>roughly {words} words per second</source>
        <translation>초당 약 {words}단어</translation>
    </message>
    <message>
        <source>roughly 1 word per second</source>
        <translation>초당 약 1단어</translation>
    </message>
    <message>
        <source>less than 1 word per second</source>
        <translation>초당 1단어 미만</translation>
    </message>
    <message>
        <source>It keeps about {pages:,} pages of a conversation in mind; when a longer one fills them, its older half is set aside at once.</source>
        <translation>대화를 약 {pages:,}쪽까지 기억합니다. 더 긴 대화로 가득 차면 앞쪽 절반이 한꺼번에 제외됩니다.</translation>
    </message>
    <message>
        <source>It keeps less than a page of a conversation in mind; older parts of a longer one are set aside.</source>
        <translation>대화를 한 쪽이 안 되는 분량만 기억합니다. 더 긴 대화는 앞부분부터 제외됩니다.</translation>
    </message>
    <message>
        <source>This model was trained for a conversation memory of up to {trained:,} tokens, so Rotary uses {trained:,} instead of the {asked:,} set in Settings.</source>
        <translation>이 모델은 대화 기억을 최대 {trained:,}토큰까지 학습했으므로, Rotary는 설정에서 정한 {asked:,}토큰 대신 {trained:,}토큰을 사용합니다.</translation>
    </message>
    <message>
        <source>Other programs are using memory this model needs; close some first.</source>
        <translation>다른 프로그램이 이 모델에 필요한 메모리를 쓰고 있습니다. 먼저 몇 개를 닫아 주세요.</translation>
    </message>
    <message>
        <source>Answers will come slowly on this computer.</source>
        <translation>이 컴퓨터에서는 답변이 느리게 나옵니다.</translation>
    </message>
    <message>
        <source>Long texts are read {n_ubatch} words at a time instead of {stock}: each batch copies the experts it uses to the graphics card once, so documents are read several times faster, for {gb} GB of graphics memory.</source>
        <translation>긴 글은 {stock}단어가 아니라 {n_ubatch}단어씩 읽습니다. 묶음마다 필요한 전문가를 그래픽 카드로 한 번만 복사하므로 문서를 몇 배 빨리 읽으며, 그 대가로 그래픽 메모리 {gb}GB를 씁니다.</translation>
    </message>
    <message>
        <source>The processor works through the experts' weights at {cpu} GB/s and the link to the graphics card copies them at {link} GB/s, so each part copies up to {cap} of the {k} experts a word uses and the processor computes the others.</source>
        <translation>프로세서는 전문가 가중치를 초당 {cpu}GB로 처리하고, 그래픽 카드로의 연결은 초당 {link}GB로 복사합니다. 그래서 각 부분은 한 단어가 쓰는 전문가 {k}개 중 최대 {cap}개를 복사하고 나머지는 프로세서가 계산합니다.</translation>
    </message>
    <message>
        <source>The link to the graphics card copies the experts' weights at {link} GB/s, faster than the processor works through them ({cpu} GB/s), so each part copies up to {cap} of the {k} experts a word uses.</source>
        <translation>그래픽 카드로의 연결은 전문가 가중치를 초당 {link}GB로 복사해 프로세서가 처리하는 속도(초당 {cpu}GB)보다 빠릅니다. 그래서 각 부분은 한 단어가 쓰는 전문가 {k}개 중 최대 {cap}개를 복사합니다.</translation>
    </message>
    <message>
        <source>The speeds of the processor and of the link to the graphics card could not be measured, so every expert a word uses may be copied to the graphics card.</source>
        <translation>프로세서와 그래픽 카드 연결의 속도를 측정할 수 없어, 한 단어가 쓰는 모든 전문가를 그래픽 카드로 복사할 수 있습니다.</translation>
    </message>
    <message>
        <source>Connecting to the office server at {address}…</source>
        <translation>{address}의 사무실 서버에 연결하는 중…</translation>
    </message>
    <message>
        <source>Using {model} on the office server at {address}.</source>
        <translation>{address}의 사무실 서버에서 {model}을(를) 사용합니다.</translation>
    </message>
    <message>
        <source>Rotary is not connected to the office server yet.</source>
        <translation>Rotary가 아직 사무실 서버에 연결되지 않았습니다.</translation>
    </message>
    <message>
        <source>The environment variable {name} is not set.</source>
        <translation>환경 변수 {name}이(가) 설정되어 있지 않습니다.</translation>
    </message>
    <message>
        <source>The server address must start with http:// or https:// followed by the server's name, for example {example}.</source>
        <translation>서버 주소는 http:// 또는 https:// 뒤에 서버 이름이 오는 형태여야 합니다. 예: {example}</translation>
    </message>
    <message>
        <source>The certificate file chosen in Settings cannot be read.</source>
        <translation>설정에서 고른 인증서 파일을 읽을 수 없습니다.</translation>
    </message>
    <message>
        <source>The office server at {address} has a security certificate this computer does not trust. Ask your IT contact for the office's certificate file and choose it in Settings.</source>
        <translation>{address}의 사무실 서버가 이 컴퓨터가 신뢰하지 않는 보안 인증서를 쓰고 있습니다. IT 담당자에게 사무실 인증서 파일을 받아 설정에서 선택해 주세요.</translation>
    </message>
    <message>
        <source>The office server at {address} does not answer. Check the address, and that this computer is on the office network.</source>
        <translation>{address}의 사무실 서버가 응답하지 않습니다. 주소와, 이 컴퓨터가 사무실 네트워크에 연결되어 있는지 확인해 주세요.</translation>
    </message>
    <message>
        <source>The office server at {address} took too long to answer. It may be off or overloaded; try again in a minute.</source>
        <translation>{address}의 사무실 서버가 너무 오래 응답하지 않았습니다. 꺼져 있거나 과부하 상태일 수 있습니다. 1분 뒤에 다시 시도해 주세요.</translation>
    </message>
    <message>
        <source>The connection to the office server at {address} failed.</source>
        <translation>{address}의 사무실 서버와 연결하지 못했습니다.</translation>
    </message>
    <message>
        <source>The office server at {address} answered, but not like a model server. Check the address.</source>
        <translation>{address}의 사무실 서버가 응답했지만 모델 서버의 응답이 아닙니다. 주소를 확인해 주세요.</translation>
    </message>
    <message>
        <source>There is no model server Rotary can use at {address}. Check the address.</source>
        <translation>{address}에는 Rotary가 사용할 수 있는 모델 서버가 없습니다. 주소를 확인해 주세요.</translation>
    </message>
    <message>
        <source>The office server at {address} did not list its models. Check the address, or ask your IT contact.</source>
        <translation>{address}의 사무실 서버가 모델 목록을 알려 주지 않았습니다. 주소를 확인하거나 IT 담당자에게 문의해 주세요.</translation>
    </message>
    <message>
        <source>The office server at {address} does not offer the model “{model}”. Choose one of its models in Settings.</source>
        <translation>{address}의 사무실 서버에는 “{model}” 모델이 없습니다. 설정에서 서버의 모델 중 하나를 골라 주세요.</translation>
    </message>
    <message>
        <source>The office server refused the access key. Check the key in Settings, or ask your IT contact for a new one.</source>
        <translation>사무실 서버가 접근 키를 거부했습니다. 설정에서 키를 확인하거나 IT 담당자에게 새 키를 요청해 주세요.</translation>
    </message>
    <message>
        <source>The office server is busy right now. Try again in a moment.</source>
        <translation>사무실 서버가 지금 바쁩니다. 잠시 후 다시 시도해 주세요.</translation>
    </message>
    <message>
        <source>The office server is busy right now. It suggests trying again in {seconds:.0f} seconds.</source>
        <translation>사무실 서버가 지금 바쁩니다. {seconds:.0f}초 뒤에 다시 시도하라고 알려 왔습니다.</translation>
    </message>
    <message>
        <source>The office server could not answer (error {status}).</source>
        <translation>사무실 서버가 답하지 못했습니다 (오류 {status}).</translation>
    </message>
    <message>
        <source>This conversation is too long for the server's model. Start a new chat or shorten the text.</source>
        <translation>이 대화는 서버의 모델이 다루기에 너무 깁니다. 새 대화를 시작하거나 글을 줄여 주세요.</translation>
    </message>
    <message>
        <source>The office server at {address} sent an answer Rotary cannot read.</source>
        <translation>{address}의 사무실 서버가 Rotary가 읽을 수 없는 답을 보냈습니다.</translation>
    </message>
    <message>
        <source>The connection to the office server at {address} was lost while it was writing.</source>
        <translation>{address}의 사무실 서버가 답변을 쓰는 도중에 연결이 끊어졌습니다.</translation>
    </message>
    <message>
        <source>The connection to the office server at {address} was lost while it was writing. The answer so far is kept.</source>
        <translation>{address}의 사무실 서버가 답변을 쓰는 도중에 연결이 끊어졌습니다. 지금까지 받은 답변은 남겨 두었습니다.</translation>
    </message>
    <message>
        <source>The office server could not count the words of the text.</source>
        <translation>사무실 서버가 글의 단어 수를 세지 못했습니다.</translation>
    </message>
    <message>
        <source>The office server at {address} cannot count words, so Rotary cannot split documents to fit its model. Chat still works.</source>
        <translation>{address}의 사무실 서버는 단어 수를 셀 수 없어, Rotary가 문서를 서버 모델에 맞게 나눌 수 없습니다. 대화는 그대로 할 수 있습니다.</translation>
    </message>
    <message>
        <source>The office server cannot count the words of a whole conversation.</source>
        <translation>사무실 서버가 대화 전체의 단어 수를 셀 수 없습니다.</translation>
    </message>
    <message>
        <source>The office server does not say how long a conversation is, so Rotary cannot split documents to fit its model.</source>
        <translation>사무실 서버가 대화의 길이를 알려 주지 않아, Rotary가 문서를 서버 모델에 맞게 나눌 수 없습니다.</translation>
    </message>
    <message>
        <source>The office server does not say how much text its model can read at once, so Rotary cannot split documents to fit it.</source>
        <translation>사무실 서버가 모델이 한 번에 읽을 수 있는 글의 양을 알려 주지 않아, Rotary가 문서를 그에 맞게 나눌 수 없습니다.</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>Look in:</source>
        <translation>찾는 위치:</translation>
    </message>
    <message>
        <source>&amp;Look in:</source>
        <translation>찾는 위치(&amp;L):</translation>
    </message>
    <message>
        <source>File &amp;name:</source>
        <translation>파일 이름(&amp;N):</translation>
    </message>
    <message>
        <source>Files of type:</source>
        <translation>파일 형식:</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>파일 형식(&amp;T):</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>뒤로</translation>
    </message>
    <message>
        <source>Go back</source>
        <translation>뒤로 가기</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>앞으로</translation>
    </message>
    <message>
        <source>Go forward</source>
        <translation>앞으로 가기</translation>
    </message>
    <message>
        <source>Parent Directory</source>
        <translation>상위 폴더</translation>
    </message>
    <message>
        <source>Go to the parent directory</source>
        <translation>상위 폴더로 이동</translation>
    </message>
    <message>
        <source>Create New Folder</source>
        <translation>새 폴더 만들기</translation>
    </message>
    <message>
        <source>Create a New Folder</source>
        <translation>새 폴더 만들기</translation>
    </message>
    <message>
        <source>List View</source>
        <translation>목록 보기</translation>
    </message>
    <message>
        <source>Change to list view mode</source>
        <translation>목록 보기로 전환</translation>
    </message>
    <message>
        <source>Detail View</source>
        <translation>자세히 보기</translation>
    </message>
    <message>
        <source>Change to detail view mode</source>
        <translation>자세히 보기로 전환</translation>
    </message>
    <message>
        <source>Sidebar</source>
        <translation>사이드바</translation>
    </message>
    <message>
        <source>List of places and bookmarks</source>
        <translation>위치와 책갈피 목록</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>파일</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>열기(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Choose</source>
        <translation>선택(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>저장(&amp;S)</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>열기</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>All Files (*)</source>
        <translation>모든 파일 (*)</translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation>이름 바꾸기(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>삭제(&amp;D)</translation>
    </message>
    <message>
        <source>Show &amp;hidden files</source>
        <translation>숨긴 파일 표시(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;New Folder</source>
        <translation>새 폴더(&amp;N)</translation>
    </message>
    <message>
        <source>New Folder</source>
        <translation>새 폴더</translation>
    </message>
    <message>
        <source>Recent Places</source>
        <translation>최근 위치</translation>
    </message>
    <message>
        <source>My Computer</source>
        <translation>내 컴퓨터</translation>
    </message>
    <message>
        <source>Computer</source>
        <translation>컴퓨터</translation>
    </message>
    <message>
        <source>Directory:</source>
        <translation>폴더:</translation>
    </message>
    <message>
        <source>File</source>
        <translation>파일</translation>
    </message>
    <message>
        <source>File Folder</source>
        <translation>파일 폴더</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>폴더</translation>
    </message>
    <message>
        <source>Alias</source>
        <translation>별칭</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>바로 가기</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>알 수 없음</translation>
    </message>
</context>
<context>
    <name>QFileSystemModel</name>
    <message>
        <source>Name</source>
        <translation>이름</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>크기</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>형식</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>종류</translation>
    </message>
    <message>
        <source>Date Modified</source>
        <translation>수정한 날짜</translation>
    </message>
    <message>
        <source>My Computer</source>
        <translation>내 컴퓨터</translation>
    </message>
    <message>
        <source>Computer</source>
        <translation>컴퓨터</translation>
    </message>
</context>
</TS>