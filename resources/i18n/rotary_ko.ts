<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="ko_KR">
<context>
    <name />
    <message>
        <location filename="../../app/application.py" line="54" />
        <location filename="../../app/application.py" line="69" />
        <location filename="../../app/main_window.py" line="32" />
        <source>No model loaded</source>
        <translation>불러온 모델 없음</translation>
    </message>
    <message>
        <location filename="../../app/application.py" line="125" />
        <source>Your saved conversations could not be read, so Rotary started a new, empty history. The damaged file was kept next to the new one.</source>
        <translation>저장된 대화를 읽을 수 없어 Rotary가 새 빈 기록을 시작했습니다. 손상된 파일은 새 파일 옆에 보관했습니다.</translation>
    </message>
    <message>
        <location filename="../../app/application.py" line="130" />
        <source>Loading: {name}</source>
        <translation>불러오는 중: {name}</translation>
    </message>
    <message>
        <location filename="../../app/application.py" line="134" />
        <source>Model: {name}</source>
        <translation>모델: {name}</translation>
    </message>
    <message>
        <location filename="../../app/application.py" line="191" />
        <source>There is no conversation to export yet.</source>
        <translation>아직 내보낼 대화가 없습니다.</translation>
    </message>
    <message>
        <location filename="../../app/application.py" line="194" />
        <source>Export conversation</source>
        <translation>대화 내보내기</translation>
    </message>
    <message>
        <location filename="../../app/application.py" line="196" />
        <source>Markdown files (*.md)</source>
        <translation>마크다운 파일 (*.md)</translation>
    </message>
    <message>
        <location filename="../../app/application.py" line="205" />
        <source>The conversation could not be saved there.</source>
        <translation>그 위치에 대화를 저장할 수 없습니다.</translation>
    </message>
    <message>
        <location filename="../../app/application.py" line="207" />
        <source>Conversation saved to {path}.</source>
        <translation>대화를 {path}에 저장했습니다.</translation>
    </message>
    <message>
        <location filename="../../app/bridge.py" line="94" />
        <source>A part of Rotary is missing or damaged. Please reinstall Rotary.</source>
        <translation>Rotary의 일부가 없거나 손상되었습니다. Rotary를 다시 설치해 주세요.</translation>
    </message>
    <message>
        <location filename="../../app/bridge.py" line="248" />
        <source>No model is loaded yet.</source>
        <translation>아직 불러온 모델이 없습니다.</translation>
    </message>
    <message>
        <location filename="../../app/chat_controller.py" line="92" />
        <source>The model is not ready yet. Please wait until loading has finished.</source>
        <translation>모델이 아직 준비되지 않았습니다. 불러오기가 끝날 때까지 기다려 주세요.</translation>
    </message>
    <message>
        <location filename="../../app/chat_controller.py" line="111" />
        <source>Reading your message…</source>
        <translation>메시지를 읽는 중…</translation>
    </message>
    <message>
        <location filename="../../app/chat_controller.py" line="121" />
        <source>Stopping…</source>
        <translation>멈추는 중…</translation>
    </message>
    <message>
        <location filename="../../app/chat_controller.py" line="153" />
        <source>Writing the answer…</source>
        <translation>답변을 쓰는 중…</translation>
    </message>
    <message>
        <location filename="../../app/chat_controller.py" line="193" />
        <location filename="../../app/chat_view.py" line="111" />
        <source>You</source>
        <translation>나</translation>
    </message>
    <message>
        <location filename="../../app/chat_controller.py" line="193" />
        <location filename="../../app/chat_view.py" line="111" />
        <source>Assistant</source>
        <translation>도우미</translation>
    </message>
    <message>
        <location filename="../../app/chat_view.py" line="115" />
        <source>Answer status</source>
        <translation>답변 상태</translation>
    </message>
    <message>
        <location filename="../../app/chat_view.py" line="132" />
        <source>Copy</source>
        <translation>복사</translation>
    </message>
    <message>
        <location filename="../../app/chat_view.py" line="132" />
        <source>Copy this message</source>
        <translation>이 메시지 복사</translation>
    </message>
    <message>
        <location filename="../../app/chat_view.py" line="136" />
        <source>Edit</source>
        <translation>수정</translation>
    </message>
    <message>
        <location filename="../../app/chat_view.py" line="136" />
        <source>Edit this message and send it again</source>
        <translation>이 메시지를 수정해서 다시 보내기</translation>
    </message>
    <message>
        <location filename="../../app/chat_view.py" line="140" />
        <source>Write again</source>
        <translation>다시 쓰기</translation>
    </message>
    <message>
        <location filename="../../app/chat_view.py" line="140" />
        <source>Write this answer again</source>
        <translation>이 답변을 다시 쓰기</translation>
    </message>
    <message>
        <location filename="../../app/chat_view.py" line="206" />
        <source>Conversation</source>
        <translation>대화</translation>
    </message>
    <message>
        <location filename="../../app/chat_view.py" line="211" />
        <source>Type a message below and press Enter to send it.</source>
        <translation>아래에 메시지를 입력하고 Enter 키를 눌러 보내세요.</translation>
    </message>
    <message>
        <location filename="../../app/chat_view.py" line="215" />
        <source>What the assistant is doing</source>
        <translation>도우미가 하고 있는 일</translation>
    </message>
    <message>
        <location filename="../../app/chat_view.py" line="223" />
        <source>Message</source>
        <translation>메시지</translation>
    </message>
    <message>
        <location filename="../../app/chat_view.py" line="224" />
        <source>Enter sends the message; Shift+Enter starts a new line.</source>
        <translation>Enter는 메시지를 보내고, Shift+Enter는 줄을 바꿉니다.</translation>
    </message>
    <message>
        <location filename="../../app/chat_view.py" line="226" />
        <source>Write your message…</source>
        <translation>메시지를 입력하세요…</translation>
    </message>
    <message>
        <location filename="../../app/chat_view.py" line="230" />
        <location filename="../../app/chat_view.py" line="277" />
        <source>Send</source>
        <translation>보내기</translation>
    </message>
    <message>
        <location filename="../../app/chat_view.py" line="230" />
        <source>Send the message</source>
        <translation>메시지 보내기</translation>
    </message>
    <message>
        <location filename="../../app/chat_view.py" line="231" />
        <source>Stop</source>
        <translation>멈추기</translation>
    </message>
    <message>
        <location filename="../../app/chat_view.py" line="231" />
        <source>Stop writing the answer</source>
        <translation>답변 쓰기 멈추기</translation>
    </message>
    <message>
        <location filename="../../app/chat_view.py" line="270" />
        <source>Send edited message</source>
        <translation>수정한 메시지 보내기</translation>
    </message>
    <message>
        <location filename="../../app/chat_view.py" line="271" />
        <source>Editing an earlier message. Press Escape to cancel.</source>
        <translation>이전 메시지를 수정하는 중입니다. 취소하려면 Esc 키를 누르세요.</translation>
    </message>
    <message>
        <location filename="../../app/chat_view.py" line="383" />
        <source>You stopped this answer.</source>
        <translation>이 답변을 멈췄습니다.</translation>
    </message>
    <message>
        <location filename="../../app/chat_view.py" line="384" />
        <source>The answer reached its length limit.</source>
        <translation>답변이 길이 제한에 도달했습니다.</translation>
    </message>
    <message>
        <location filename="../../app/chat_view.py" line="385" />
        <source>This answer was not finished. See the notice at the top.</source>
        <translation>이 답변은 끝나지 않았습니다. 위쪽 알림을 확인하세요.</translation>
    </message>
    <message>
        <location filename="../../app/chat_view.py" line="390" />
        <source>Answer stopped.</source>
        <translation>답변이 멈췄습니다.</translation>
    </message>
    <message>
        <location filename="../../app/chat_view.py" line="390" />
        <source>Answer finished.</source>
        <translation>답변이 끝났습니다.</translation>
    </message>
    <message>
        <location filename="../../app/conversation_list.py" line="25" />
        <location filename="../../app/conversation_list.py" line="26" />
        <source>Search conversations</source>
        <translation>대화 검색</translation>
    </message>
    <message>
        <location filename="../../app/conversation_list.py" line="30" />
        <source>Conversations</source>
        <translation>대화 목록</translation>
    </message>
    <message>
        <location filename="../../app/conversation_list.py" line="35" />
        <source>New chat</source>
        <translation>새 대화</translation>
    </message>
    <message>
        <location filename="../../app/conversation_list.py" line="36" />
        <source>Start a new chat</source>
        <translation>새 대화 시작</translation>
    </message>
    <message>
        <location filename="../../app/conversation_list.py" line="38" />
        <source>Rename</source>
        <translation>이름 바꾸기</translation>
    </message>
    <message>
        <location filename="../../app/conversation_list.py" line="39" />
        <source>Rename the selected conversation</source>
        <translation>선택한 대화의 이름 바꾸기</translation>
    </message>
    <message>
        <location filename="../../app/conversation_list.py" line="41" />
        <source>Delete</source>
        <translation>삭제</translation>
    </message>
    <message>
        <location filename="../../app/conversation_list.py" line="42" />
        <source>Delete the selected conversation</source>
        <translation>선택한 대화 삭제</translation>
    </message>
    <message>
        <location filename="../../app/conversation_list.py" line="85" />
        <source>Rename conversation</source>
        <translation>대화 이름 바꾸기</translation>
    </message>
    <message>
        <location filename="../../app/conversation_list.py" line="85" />
        <source>New name:</source>
        <translation>새 이름:</translation>
    </message>
    <message>
        <location filename="../../app/conversation_list.py" line="95" />
        <source>Delete conversation</source>
        <translation>대화 삭제</translation>
    </message>
    <message>
        <location filename="../../app/conversation_list.py" line="96" />
        <source>Delete “{title}”? This cannot be undone.</source>
        <translation>“{title}” 대화를 삭제할까요? 되돌릴 수 없습니다.</translation>
    </message>
    <message>
        <location filename="../../app/gauge.py" line="83" />
        <source>No NVIDIA graphics card found. The model runs on the processor.</source>
        <translation>NVIDIA 그래픽 카드를 찾지 못했습니다. 모델은 프로세서에서 실행됩니다.</translation>
    </message>
    <message>
        <location filename="../../app/gauge.py" line="85" />
        <source>Graphics memory: unknown (the graphics driver stopped answering)</source>
        <translation>그래픽 메모리: 알 수 없음 (그래픽 드라이버가 응답하지 않음)</translation>
    </message>
    <message>
        <location filename="../../app/gauge.py" line="87" />
        <source>Graphics memory: unknown</source>
        <translation>그래픽 메모리: 알 수 없음</translation>
    </message>
    <message>
        <location filename="../../app/gauge.py" line="88" />
        <source>Graphics memory: {used} GB of {total} GB in use</source>
        <translation>그래픽 메모리: {total} GB 중 {used} GB 사용 중</translation>
    </message>
    <message>
        <location filename="../../app/gauge.py" line="98" />
        <source>System memory held by the model: none yet</source>
        <translation>모델이 차지한 시스템 메모리: 아직 없음</translation>
    </message>
    <message>
        <location filename="../../app/gauge.py" line="99" />
        <source>System memory held by the model: about {size} GB</source>
        <translation>모델이 차지한 시스템 메모리: 약 {size} GB</translation>
    </message>
    <message>
        <location filename="../../app/gauge.py" line="104" />
        <source>Reading speed: waiting for the first message</source>
        <translation>읽는 속도: 첫 메시지를 기다리는 중</translation>
    </message>
    <message>
        <location filename="../../app/gauge.py" line="105" />
        <source>Writing speed: waiting for the first message</source>
        <translation>쓰는 속도: 첫 메시지를 기다리는 중</translation>
    </message>
    <message>
        <location filename="../../app/gauge.py" line="106" />
        <source>Reading speed: {n} tokens per second</source>
        <translation>읽는 속도: 초당 {n} 토큰</translation>
    </message>
    <message>
        <location filename="../../app/gauge.py" line="107" />
        <source>Writing speed: {n} tokens per second</source>
        <translation>쓰는 속도: 초당 {n} 토큰</translation>
    </message>
    <message>
        <location filename="../../app/gauge.py" line="111" />
        <source>Time to the first word: not measured yet</source>
        <translation>첫 단어까지 걸린 시간: 아직 측정 안 됨</translation>
    </message>
    <message>
        <location filename="../../app/gauge.py" line="112" />
        <source>Time to the first word: {s} seconds</source>
        <translation>첫 단어까지 걸린 시간: {s}초</translation>
    </message>
    <message>
        <location filename="../../app/gauge.py" line="116" />
        <source>Conversation memory: not known yet</source>
        <translation>대화 기억 용량: 아직 알 수 없음</translation>
    </message>
    <message>
        <location filename="../../app/gauge.py" line="117" />
        <source>Conversation memory: {used} of {size} tokens used</source>
        <translation>대화 기억 용량: {size} 토큰 중 {used} 토큰 사용</translation>
    </message>
    <message>
        <location filename="../../app/gauge.py" line="123" />
        <source>Experts already on the graphics card: {pct}%</source>
        <translation>이미 그래픽 카드에 있던 전문가: {pct}%</translation>
    </message>
    <message>
        <location filename="../../app/gauge.py" line="135" />
        <source>Expert reuse per layer</source>
        <translation>층별 전문가 재사용</translation>
    </message>
    <message>
        <location filename="../../app/gauge.py" line="142" />
        <source>{n} layers; on average {pct}% of experts were used in the last few words</source>
        <translation>{n}개 층; 평균적으로 전문가의 {pct}%가 최근 몇 단어에서 쓰였습니다</translation>
    </message>
    <message>
        <location filename="../../app/gauge.py" line="162" />
        <source>Live numbers</source>
        <translation>실시간 수치</translation>
    </message>
    <message>
        <location filename="../../app/gauge.py" line="167" />
        <source>Graphics memory in use</source>
        <translation>사용 중인 그래픽 메모리</translation>
    </message>
    <message>
        <location filename="../../app/gauge.py" line="170" />
        <source>Expert reuse per layer (darker = reused more)</source>
        <translation>층별 전문가 재사용 (진할수록 많이 재사용)</translation>
    </message>
    <message>
        <location filename="../../app/loading.py" line="102" />
        <source>Small demo model (always writes the same short message; for trying Rotary only)</source>
        <translation>작은 데모 모델 (항상 같은 짧은 메시지를 씀; Rotary 체험용)</translation>
    </message>
    <message>
        <location filename="../../app/loading.py" line="107" />
        <source>The model file was moved or deleted: {path}. Please choose it again.</source>
        <translation>모델 파일이 옮겨졌거나 삭제되었습니다: {path}. 다시 선택해 주세요.</translation>
    </message>
    <message>
        <location filename="../../app/loading.py" line="109" />
        <source>Choose a model…</source>
        <translation>모델 선택…</translation>
    </message>
    <message>
        <location filename="../../app/loading.py" line="120" />
        <source>Your computer did not have enough memory for the first plan, so Rotary chose a safer one: {what}</source>
        <translation>처음 계획에 필요한 메모리가 부족해서 Rotary가 더 안전한 계획을 골랐습니다: {what}</translation>
    </message>
    <message>
        <location filename="../../app/loading.py" line="129" />
        <source>The model is ready. It uses less graphics memory than planned, so answers may be a little slower.</source>
        <translation>모델이 준비되었습니다. 계획보다 그래픽 메모리를 적게 쓰므로 답변이 조금 느릴 수 있습니다.</translation>
    </message>
    <message>
        <location filename="../../app/loading.py" line="137" />
        <source>Try the safer setting</source>
        <translation>더 안전한 설정으로 시도</translation>
    </message>
    <message>
        <location filename="../../app/loading.py" line="138" />
        <source>Choose another model…</source>
        <translation>다른 모델 선택…</translation>
    </message>
    <message>
        <location filename="../../app/loading.py" line="149" />
        <source>Rotary closed unexpectedly while loading the model last time. Loading it with the safer setting keeps the whole model in system memory and uses the processor: slower, but it should not crash.</source>
        <translation>지난번 모델을 불러오는 중에 Rotary가 예기치 않게 종료되었습니다. 더 안전한 설정은 모델 전체를 시스템 메모리에 두고 프로세서를 사용합니다. 느리지만 멈추지 않을 것입니다.</translation>
    </message>
    <message>
        <location filename="../../app/loading.py" line="153" />
        <source>Use the safer setting</source>
        <translation>더 안전한 설정 사용</translation>
    </message>
    <message>
        <location filename="../../app/loading.py" line="154" />
        <source>Try the same setting again</source>
        <translation>같은 설정으로 다시 시도</translation>
    </message>
    <message>
        <location filename="../../app/loading.py" line="173" />
        <source>Loading progress</source>
        <translation>불러오기 진행 상황</translation>
    </message>
    <message>
        <location filename="../../app/loading.py" line="178" />
        <source>Why a safer setting was chosen</source>
        <translation>더 안전한 설정을 고른 이유</translation>
    </message>
    <message>
        <location filename="../../app/loading.py" line="185" />
        <source>Loading {name}…</source>
        <translation>{name} 불러오는 중…</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="24" />
        <location filename="../../app/main_window.py" line="25" />
        <source>Rotary</source>
        <translation>Rotary</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="33" />
        <source>Current model</source>
        <translation>현재 모델</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="57" />
        <source>&amp;File</source>
        <translation>파일(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="58" />
        <source>&amp;New chat</source>
        <translation>새 대화(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="59" />
        <source>&amp;Export conversation…</source>
        <translation>대화 내보내기(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="60" />
        <source>&amp;Settings…</source>
        <translation>설정(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="61" />
        <source>First-time &amp;setup…</source>
        <translation>처음 설정(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="62" />
        <source>&amp;Quit</source>
        <translation>끝내기(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="63" />
        <source>&amp;Chat</source>
        <translation>대화(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="64" />
        <source>&amp;Stop the answer</source>
        <translation>답변 멈추기(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="65" />
        <source>&amp;Write the last answer again</source>
        <translation>마지막 답변 다시 쓰기(&amp;W)</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="67" />
        <source>&amp;Edit my last message</source>
        <translation>내 마지막 메시지 수정(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="68" />
        <source>&amp;Copy the last answer</source>
        <translation>마지막 답변 복사(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="70" />
        <source>&amp;Go</source>
        <translation>이동(&amp;G)</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="71" />
        <source>Go to the &amp;message box</source>
        <translation>메시지 입력란으로 이동(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="72" />
        <source>&amp;Search conversations</source>
        <translation>대화 검색(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="74" />
        <source>Go to the &amp;conversation list</source>
        <translation>대화 목록으로 이동(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../app/main_window.py" line="76" />
        <source>Go to the &amp;live numbers</source>
        <translation>실시간 수치로 이동(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../app/model_check.py" line="24" />
        <source>Fits well.</source>
        <translation>잘 맞습니다.</translation>
    </message>
    <message>
        <location filename="../../app/model_check.py" line="24" />
        <source>Fits, but only just.</source>
        <translation>맞지만 여유가 거의 없습니다.</translation>
    </message>
    <message>
        <location filename="../../app/model_check.py" line="25" />
        <source>Too big for this computer.</source>
        <translation>이 컴퓨터에는 너무 큽니다.</translation>
    </message>
    <message>
        <location filename="../../app/model_check.py" line="46" />
        <source>Model file</source>
        <translation>모델 파일</translation>
    </message>
    <message>
        <location filename="../../app/model_check.py" line="47" />
        <source>Choose a .gguf model file, or drop it here</source>
        <translation>.gguf 모델 파일을 선택하거나 여기에 끌어다 놓으세요</translation>
    </message>
    <message>
        <location filename="../../app/model_check.py" line="49" />
        <source>Browse…</source>
        <translation>찾아보기…</translation>
    </message>
    <message>
        <location filename="../../app/model_check.py" line="50" />
        <source>Browse for a model file</source>
        <translation>모델 파일 찾아보기</translation>
    </message>
    <message>
        <location filename="../../app/model_check.py" line="54" />
        <source>Does the model fit</source>
        <translation>모델이 맞는지 여부</translation>
    </message>
    <message>
        <location filename="../../app/model_check.py" line="68" />
        <source>Choose a model file</source>
        <translation>모델 파일 선택</translation>
    </message>
    <message>
        <location filename="../../app/model_check.py" line="69" />
        <source>Language models (*.gguf)</source>
        <translation>언어 모델 (*.gguf)</translation>
    </message>
    <message>
        <location filename="../../app/model_check.py" line="89" />
        <source>Checking the model file…</source>
        <translation>모델 파일을 확인하는 중…</translation>
    </message>
    <message>
        <location filename="../../app/model_check.py" line="97" />
        <source>This file cannot be used: {why}</source>
        <translation>이 파일은 사용할 수 없습니다: {why}</translation>
    </message>
    <message>
        <location filename="../../app/notification_bar.py" line="29" />
        <source>Notice</source>
        <translation>알림</translation>
    </message>
    <message>
        <location filename="../../app/notification_bar.py" line="30" />
        <source>Copy details</source>
        <translation>자세한 내용 복사</translation>
    </message>
    <message>
        <location filename="../../app/notification_bar.py" line="31" />
        <source>Copy the details of this notice</source>
        <translation>이 알림의 자세한 내용 복사</translation>
    </message>
    <message>
        <location filename="../../app/notification_bar.py" line="33" />
        <source>Dismiss</source>
        <translation>닫기</translation>
    </message>
    <message>
        <location filename="../../app/notification_bar.py" line="34" />
        <source>Dismiss this notice</source>
        <translation>이 알림 닫기</translation>
    </message>
    <message>
        <location filename="../../app/notifications.py" line="74" />
        <source>Something went wrong inside Rotary. Your conversations are safe. If it happens again, copy the details for your IT contact.</source>
        <translation>Rotary 내부에서 문제가 생겼습니다. 대화 내용은 안전합니다. 다시 발생하면 자세한 내용을 복사해 IT 담당자에게 전달하세요.</translation>
    </message>
    <message>
        <location filename="../../app/notifications.py" line="106" />
        <source>Something went wrong inside Rotary.</source>
        <translation>Rotary 내부에서 문제가 생겼습니다.</translation>
    </message>
    <message>
        <location filename="../../app/settings.py" line="99" />
        <source>model file</source>
        <translation>모델 파일</translation>
    </message>
    <message>
        <location filename="../../app/settings.py" line="99" />
        <source>memory recipe</source>
        <translation>메모리 구성</translation>
    </message>
    <message>
        <location filename="../../app/settings.py" line="100" />
        <source>context length</source>
        <translation>문맥 길이</translation>
    </message>
    <message>
        <location filename="../../app/settings.py" line="101" />
        <source>expert layers on the graphics card</source>
        <translation>그래픽 카드에 둘 전문가 층</translation>
    </message>
    <message>
        <location filename="../../app/settings.py" line="102" />
        <source>processor threads</source>
        <translation>프로세서 스레드</translation>
    </message>
    <message>
        <location filename="../../app/settings.py" line="102" />
        <source>temperature</source>
        <translation>온도</translation>
    </message>
    <message>
        <location filename="../../app/settings.py" line="103" />
        <source>system prompt</source>
        <translation>시스템 프롬프트</translation>
    </message>
    <message>
        <location filename="../../app/settings.py" line="103" />
        <source>language</source>
        <translation>언어</translation>
    </message>
    <message>
        <location filename="../../app/settings.py" line="104" />
        <source>first-time setup</source>
        <translation>처음 설정</translation>
    </message>
    <message>
        <location filename="../../app/settings.py" line="117" />
        <source>The saved {what} was not valid, so the default was restored.</source>
        <translation>저장된 {what} 값이 올바르지 않아 기본값으로 되돌렸습니다.</translation>
    </message>
    <message>
        <location filename="../../app/settings.py" line="150" />
        <source>Your settings file could not be read, so the default settings were restored.</source>
        <translation>설정 파일을 읽을 수 없어 기본 설정으로 되돌렸습니다.</translation>
    </message>
    <message>
        <location filename="../../app/settings.py" line="153" />
        <source>The old file was kept as {name}.</source>
        <translation>이전 파일은 {name}(으)로 보관했습니다.</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="23" />
        <source>Automatic (fit this computer)</source>
        <translation>자동 (이 컴퓨터에 맞춤)</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="24" />
        <source>Laptop with an 8 GB graphics card</source>
        <translation>8 GB 그래픽 카드 노트북</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="25" />
        <source>Desktop with a 12 GB graphics card</source>
        <translation>12 GB 그래픽 카드 데스크톱</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="26" />
        <source>Desktop with a 16 GB graphics card</source>
        <translation>16 GB 그래픽 카드 데스크톱</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="27" />
        <source>Workstation with a 24 GB graphics card</source>
        <translation>24 GB 그래픽 카드 워크스테이션</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="28" />
        <source>Processor only (slow, safest)</source>
        <translation>프로세서만 사용 (느리지만 가장 안전)</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="35" />
        <source>Automatic</source>
        <translation>자동</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="50" />
        <source>Settings</source>
        <translation>설정</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="57" />
        <source>Memory recipe</source>
        <translation>메모리 구성</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="66" />
        <source>Language</source>
        <translation>언어</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="67" />
        <source>Same as the system</source>
        <translation>시스템과 같게</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="75" />
        <source>Model file:</source>
        <translation>모델 파일:</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="76" />
        <source>Memory recipe:</source>
        <translation>메모리 구성:</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="77" />
        <source>Language:</source>
        <translation>언어:</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="78" />
        <source>A new language is used after restarting Rotary.</source>
        <translation>새 언어는 Rotary를 다시 시작한 뒤에 적용됩니다.</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="79" />
        <source>Colours follow your system's light or dark setting.</source>
        <translation>색상은 시스템의 밝은/어두운 모드 설정을 따릅니다.</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="80" />
        <location filename="../../app/settings_dialog.py" line="81" />
        <source>Run first-time setup again</source>
        <translation>처음 설정 다시 실행</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="94" />
        <source>Advanced</source>
        <translation>고급</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="96" />
        <source>Context length in tokens</source>
        <translation>토큰 단위 문맥 길이</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="98" />
        <source>Expert layers on the graphics card</source>
        <translation>그래픽 카드에 둘 전문가 층</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="99" />
        <source>Processor threads</source>
        <translation>프로세서 스레드</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="104" />
        <source>Temperature (higher gives more varied answers)</source>
        <translation>온도 (높을수록 다양한 답변)</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="106" />
        <source>System prompt</source>
        <translation>시스템 프롬프트</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="110" />
        <source>Context length:</source>
        <translation>문맥 길이:</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="111" />
        <source>Expert layers on the graphics card:</source>
        <translation>그래픽 카드에 둘 전문가 층:</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="112" />
        <source>Processor threads:</source>
        <translation>프로세서 스레드:</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="113" />
        <source>Temperature:</source>
        <translation>온도:</translation>
    </message>
    <message>
        <location filename="../../app/settings_dialog.py" line="114" />
        <source>System prompt:</source>
        <translation>시스템 프롬프트:</translation>
    </message>
    <message>
        <location filename="../../app/wizard.py" line="26" />
        <source>{size} GB of system memory</source>
        <translation>시스템 메모리 {size} GB</translation>
    </message>
    <message>
        <location filename="../../app/wizard.py" line="28" />
        <source>No NVIDIA graphics card was found, so models will run on the processor (slower). This computer has {ram}.</source>
        <translation>NVIDIA 그래픽 카드를 찾지 못해 모델은 프로세서에서 실행됩니다 (더 느림). 이 컴퓨터에는 {ram}가 있습니다.</translation>
    </message>
    <message>
        <location filename="../../app/wizard.py" line="31" />
        <source>Found the graphics card {name} with {vram} GB of graphics memory, and {ram}.</source>
        <translation>그래픽 카드 {name}(그래픽 메모리 {vram} GB)와 {ram}를 찾았습니다.</translation>
    </message>
    <message>
        <location filename="../../app/wizard.py" line="36" />
        <source>the recipe for laptops with an 8 GB graphics card</source>
        <translation>8 GB 그래픽 카드 노트북용 구성</translation>
    </message>
    <message>
        <location filename="../../app/wizard.py" line="37" />
        <source>the processor-only recipe (slow, but always works)</source>
        <translation>프로세서 전용 구성 (느리지만 항상 작동)</translation>
    </message>
    <message>
        <location filename="../../app/wizard.py" line="38" />
        <source>an automatic recipe for this computer</source>
        <translation>이 컴퓨터에 맞춘 자동 구성</translation>
    </message>
    <message>
        <location filename="../../app/wizard.py" line="44" />
        <source>Your computer</source>
        <translation>내 컴퓨터</translation>
    </message>
    <message>
        <location filename="../../app/wizard.py" line="45" />
        <source>Looking at your computer…</source>
        <translation>컴퓨터를 살펴보는 중…</translation>
    </message>
    <message>
        <location filename="../../app/wizard.py" line="47" />
        <source>What Rotary found on this computer</source>
        <translation>Rotary가 이 컴퓨터에서 찾은 것</translation>
    </message>
    <message>
        <location filename="../../app/wizard.py" line="49" />
        <source>Rotary runs language models on this computer, without the internet. First it checks what the computer has.</source>
        <translation>Rotary는 인터넷 없이 이 컴퓨터에서 언어 모델을 실행합니다. 먼저 컴퓨터 사양을 확인합니다.</translation>
    </message>
    <message>
        <location filename="../../app/wizard.py" line="57" />
        <source>Choose a model</source>
        <translation>모델 선택</translation>
    </message>
    <message>
        <location filename="../../app/wizard.py" line="61" />
        <source>Use the small demo model</source>
        <translation>작은 데모 모델 사용</translation>
    </message>
    <message>
        <location filename="../../app/wizard.py" line="62" />
        <source>Use the small demo model, which always writes the same short message and is only for trying Rotary</source>
        <translation>항상 같은 짧은 메시지를 쓰는 Rotary 체험용 작은 데모 모델 사용</translation>
    </message>
    <message>
        <location filename="../../app/wizard.py" line="65" />
        <source>The demo model is tiny and always writes the same short message. It only shows how Rotary works; it cannot answer questions.</source>
        <translation>데모 모델은 아주 작고 항상 같은 짧은 메시지를 씁니다. Rotary가 어떻게 작동하는지만 보여 주며, 질문에 답하지는 못합니다.</translation>
    </message>
    <message>
        <location filename="../../app/wizard.py" line="70" />
        <source>Choose a model file (.gguf) with Browse, or drag it onto this window.</source>
        <translation>찾아보기로 모델 파일(.gguf)을 선택하거나 이 창으로 끌어다 놓으세요.</translation>
    </message>
    <message>
        <location filename="../../app/wizard.py" line="96" />
        <source>Ready</source>
        <translation>준비 완료</translation>
    </message>
    <message>
        <location filename="../../app/wizard.py" line="109" />
        <source>Set up Rotary</source>
        <translation>Rotary 설정</translation>
    </message>
    <message>
        <location filename="../../app/wizard.py" line="129" />
        <source>Rotary could not look at this computer's hardware. You can still continue.</source>
        <translation>Rotary가 이 컴퓨터의 하드웨어를 확인하지 못했습니다. 그래도 계속할 수 있습니다.</translation>
    </message>
    <message>
        <location filename="../../app/wizard.py" line="142" />
        <source>Rotary will use {recipe}.</source>
        <translation>Rotary는 {recipe}을(를) 사용합니다.</translation>
    </message>
    <message>
        <location filename="../../app/wizard.py" line="165" />
        <source>the small demo model</source>
        <translation>작은 데모 모델</translation>
    </message>
    <message>
        <location filename="../../app/wizard.py" line="167" />
        <source>Rotary will use {name} with {recipe}. You can change this later in Settings.</source>
        <translation>Rotary는 {name}을(를) {recipe}(으)로 사용합니다. 나중에 설정에서 바꿀 수 있습니다.</translation>
    </message>
</context>
</TS>