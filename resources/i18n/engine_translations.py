"""Korean and Simplified Chinese for the engine's message catalogue (engine/messages.py).

Keys are the English templates exactly; placeholders in braces must be kept as they are
(a test checks both). build_translations.py writes them into the .ts files under the
Qt context ``engine``, where app/messages.py looks them up.
"""

ENGINE_TRANSLATIONS: dict[str, tuple[str, str]] = {  # English: (Korean, Simplified Chinese)
    # ---- engine/documents -----------------------------------------------------------
    'Action items': (
        '할 일 목록',
        '待办事项'),
    'Bullet points': (
        '요점 목록',
        '要点列表'),
    'Detailed summary': (
        '자세한 요약',
        '详细摘要'),
    'Short summary': (
        '짧은 요약',
        '简短摘要'),
    '1 page': (
        '1쪽',
        '1 页'),
    '{n:,} pages': (
        '{n:,}쪽',
        '{n:,} 页'),
    '1 section': (
        '1개 절',
        '1 节'),
    '{n:,} sections': (
        '{n:,}개 절',
        '{n:,} 节'),
    '1 line': (
        '1줄',
        '1 行'),
    '{n:,} lines': (
        '{n:,}줄',
        '{n:,} 行'),
    '{n} words': (
        '{n}단어',
        '{n} 个词'),
    'about {n:,} words': (
        '약 {n:,}단어',
        '约 {n:,} 个词'),
    '{text}.': (
        '{text}.',
        '{text}。'),
    '{found}, {words}': (
        '{found}, {words}',
        '{found}，{words}'),
    'read in one pass': (
        '한 번에 읽기',
        '一次读完'),
    'read in {n} parts': (
        '{n}개 부분으로 나눠 읽기',
        '分 {n} 部分阅读'),
    'in one pass': (
        '한 번에',
        '一次'),
    'in {n} parts': (
        '{n}개 부분으로 나눠',
        '分 {n} 部分'),
    'less than a minute on this computer': (
        '이 컴퓨터에서 1분 미만',
        '在这台电脑上不到 1 分钟'),
    'about 1 minute on this computer': (
        '이 컴퓨터에서 약 1분',
        '在这台电脑上大约 1 分钟'),
    'about {n} minutes on this computer': (
        '이 컴퓨터에서 약 {n}분',
        '在这台电脑上大约 {n} 分钟'),
    'about {n:.1f} hours on this computer': (
        '이 컴퓨터에서 약 {n:.1f}시간',
        '在本机上约 {n:.1f} 小时'),
    'less than a minute on the office server': (
        '사무실 서버에서 1분 미만',
        '在办公室服务器上不到 1 分钟'),
    'about 1 minute on the office server': (
        '사무실 서버에서 약 1분',
        '在办公室服务器上约 1 分钟'),
    'about {n} minutes on the office server': (
        '사무실 서버에서 약 {n}분',
        '在办公室服务器上约 {n} 分钟'),
    'about {n:.1f} hours on the office server': (
        '사무실 서버에서 약 {n:.1f}시간',
        '在办公室服务器上约 {n:.1f} 小时'),
    'Less than a minute left.': (
        '1분도 남지 않았습니다.',
        '剩余不到 1 分钟。'),
    'About 1 minute left.': (
        '약 1분 남았습니다.',
        '大约还剩 1 分钟。'),
    'About {n} minutes left.': (
        '약 {n}분 남았습니다.',
        '大约还剩 {n} 分钟。'),
    '{found}, {how}.': (
        '{found}, {how}.',
        '{found}，{how}。'),
    '{found}, {how}, {duration}.': (
        '{found}, {how}, {duration}.',
        '{found}，{how}，{duration}。'),
    '{pages} and {n} more': (
        '{pages} 외 {n}쪽',
        '{pages} 等另外 {n} 页'),
    'Page {pages} has no text (probably a picture) and will be skipped.': (
        '{pages}쪽에는 글자가 없어(아마 그림) 건너뜁니다.',
        '第 {pages} 页没有文字（可能是图片），将被跳过。'),
    'Pages {pages} have no text (probably pictures) and will be skipped.': (
        '{pages}쪽에는 글자가 없어(아마 그림) 건너뜁니다.',
        '第 {pages} 页没有文字（可能是图片），将被跳过。'),
    'Page {pages} has no text and could not be read.': (
        '{pages}쪽에는 글자가 없어 읽지 못했습니다.',
        '第 {pages} 页没有文字，无法读取。'),
    'Pages {pages} have no text and could not be read.': (
        '{pages}쪽에는 글자가 없어 읽지 못했습니다.',
        '第 {pages} 页没有文字，无法读取。'),
    'Page {pages} is a picture (probably scanned): text recognition read it in {seconds:.0f} s.': (
        '{pages}쪽은 그림(아마 스캔)이어서 문자 인식으로 {seconds:.0f}초 만에 읽었습니다.',
        '第 {pages} 页是图片（可能是扫描件）：文字识别用 {seconds:.0f} 秒读取了它。'),
    'Pages {pages} are pictures (probably scanned): text recognition read them in {seconds:.0f} s.': (
        '{pages}쪽은 그림(아마 스캔)이어서 문자 인식으로 {seconds:.0f}초 만에 읽었습니다.',
        '第 {pages} 页是图片（可能是扫描件）：文字识别用 {seconds:.0f} 秒读取了它们。'),
    'Read all of it ({found}) {how}.': (
        '전체({found})를 {how} 읽었습니다.',
        '已{how}读完全部内容（{found}）。'),
    'Read all of it ({found}) {how}, but stopped before the summary was finished.': (
        '전체({found})를 {how} 읽었지만, 요약이 끝나기 전에 멈췄습니다.',
        '已{how}读完全部内容（{found}），但在摘要完成之前停止了。'),
    'Stopped before any of it ({found}) was read.': (
        '문서({found})를 읽기 전에 멈췄습니다.',
        '在阅读文档（{found}）之前就停止了。'),
    'Partial: read {done} of {parts} parts of it ({found}); the rest was not read.': (
        '일부만: 문서({found})의 {parts}개 부분 중 {done}개를 읽었고, 나머지는 읽지 않았습니다.',
        '部分：已读文档（{found}）{parts} 个部分中的 {done} 个，其余未读。'),
    'Partial summary: stopped before the end.': (
        '일부 요약: 끝나기 전에 멈췄습니다.',
        '部分摘要：在结束前停止了。'),
    'Reading the whole document and writing the summary…': (
        '문서 전체를 읽고 요약을 쓰는 중…',
        '正在阅读整个文档并撰写总结…'),
    'Reading part {part} of {parts}…': (
        '{parts}개 중 {part}번째 부분을 읽는 중…',
        '正在阅读第 {part} 部分，共 {parts} 部分…'),
    'Writing the summary from the notes on all {parts} parts…': (
        '{parts}개 부분 전체의 메모로 요약을 쓰는 중…',
        '正在根据全部 {parts} 个部分的笔记撰写总结…'),
    'Reading page {page} of {pages} with text recognition…': (
        '문자 인식으로 {pages}쪽 중 {page}쪽을 읽는 중…',
        '正在用文字识别读取第 {page} 页，共 {pages} 页…'),
    'Looking for the passages that answer your question…': (
        '질문에 답하는 부분을 찾는 중…',
        '正在查找能回答您问题的段落…'),
    'Reading {n} passages from {where}…': (
        '{where}에서 {n}개 부분을 읽는 중…',
        '正在读取 {where} 中的 {n} 个段落…'),
    'p. {page}': (
        '{page}쪽',
        '第 {page} 页'),
    'pp. {pages}': (
        '{pages}쪽',
        '第 {pages} 页'),
    'section “{heading}”': (
        '“{heading}” 부분',
        '“{heading}”部分'),
    'lines {lines}': (
        '{lines}줄',
        '第 {lines} 行'),
    'the beginning': (
        '처음 부분',
        '开头部分'),
    '{first}; {second}': (
        '{first}; {second}',
        '{first}；{second}'),
    '{name}, {where}': (
        '{name}, {where}',
        '{name}，{where}'),
    '{name} (all of it)': (
        '{name} (전체)',
        '{name}（全部）'),
    'Read for this answer: {where}.': (
        '이 답변을 위해 읽은 곳: {where}.',
        '本回答阅读了：{where}。'),
    'Read all of it for this answer ({where}), {how}.': (
        '이 답변을 위해 전체({where})를 {how} 읽었습니다.',
        '为本回答{how}读完了全部内容（{where}）。'),
    'not found on {where}': (
        '{where}에서 찾을 수 없음',
        '在{where}未找到'),
    '{passed} of {checked} page references checked against the pages.': (
        '쪽 인용 {checked}개 중 {passed}개가 해당 쪽에서 확인되었습니다.',
        '{checked} 处页码引用中有 {passed} 处已在对应页面核实。'),
    "'{name}' is in the old Word format (.doc). Open it in Word and save it as .docx, then drop it here again.": (
        "'{name}'은(는) 예전 Word 형식(.doc)입니다. Word에서 열어 .docx로 저장한 뒤 다시 여기에 놓으세요.",
        '“{name}”是旧版 Word 格式（.doc）。请在 Word 中打开并另存为 .docx，然后再拖到这里。'),
    "Rotary cannot read '{name}'. It reads PDF, Word (.docx), text and Markdown files.": (
        "Rotary는 '{name}'을(를) 읽을 수 없습니다. PDF, Word(.docx), 텍스트, Markdown 파일을 읽습니다.",
        'Rotary 无法读取“{name}”。它可读取 PDF、Word（.docx）、文本和 Markdown 文件。'),
    "'{name}' could not be opened.": (
        "'{name}'을(를) 열 수 없습니다.",
        '无法打开“{name}”。'),
    "'{name}' is a folder, not a document.": (
        "'{name}'은(는) 문서가 아니라 폴더입니다.",
        '“{name}”是文件夹，不是文档。'),
    "'{name}' is empty.": (
        "'{name}'은(는) 비어 있습니다.",
        '“{name}”是空的。'),
    "'{name}' contains no text to read.": (
        "'{name}'에는 읽을 글자가 없습니다.",
        '“{name}”中没有可读的文字。'),
    "'{name}' is {mb:,.0f} MB; Rotary reads documents up to {limit:,.0f} MB.": (
        "'{name}'은(는) {mb:,.0f}MB입니다. Rotary는 {limit:,.0f}MB까지의 문서를 읽습니다.",
        '“{name}”有 {mb:,.0f} MB；Rotary 最多读取 {limit:,.0f} MB 的文档。'),
    'This file is not a PDF, although its name ends in .pdf.': (
        '이 파일은 이름이 .pdf로 끝나지만 PDF가 아닙니다.',
        '此文件名以 .pdf 结尾，但它不是 PDF。'),
    'This PDF has {n:,} pages; Rotary reads documents up to {limit:,} pages.': (
        '이 PDF는 {n:,}쪽입니다. Rotary는 {limit:,}쪽까지의 문서를 읽습니다.',
        '此 PDF 有 {n:,} 页；Rotary 最多读取 {limit:,} 页的文档。'),
    "This PDF's pages are pictures (probably scanned), and text recognition is not installed with this copy of Rotary, so it cannot read them.": (
        '이 PDF의 쪽은 그림(아마 스캔)인데, 이 Rotary에는 문자 인식이 설치되어 있지 않아 읽을 수 없습니다.',
        '此 PDF 的页面是图片（可能是扫描件），而此版 Rotary 未安装文字识别，因此无法读取。'),
    "This PDF's pages are pictures (probably scanned), and text recognition found no words on them.": (
        '이 PDF의 쪽은 그림(아마 스캔)이며, 문자 인식으로도 글자를 찾지 못했습니다.',
        '此 PDF 的页面是图片（可能是扫描件），文字识别也未在其中找到文字。'),
    'This PDF is protected by a password. Open it, save a copy without the password, and drop that copy here.': (
        '이 PDF는 암호로 보호되어 있습니다. 파일을 열어 암호 없는 사본을 저장한 뒤 그 사본을 여기에 놓으세요.',
        '此 PDF 受密码保护。请打开它，另存一份不带密码的副本，然后把副本拖到这里。'),
    'This PDF is damaged and could not be opened.': (
        '이 PDF는 손상되어 열 수 없습니다.',
        '此 PDF 已损坏，无法打开。'),
    'This PDF holds more text than Rotary can read at once (it stopped at page {page} of {pages}).': (
        '이 PDF에는 Rotary가 한 번에 읽을 수 있는 것보다 많은 글자가 있습니다({pages}쪽 중 {page}쪽에서 멈춤).',
        '此 PDF 的文字超过 Rotary 一次能读取的量（在第 {page} 页停止，共 {pages} 页）。'),
    'This Word file is protected by a password (or is an old .doc renamed to .docx). Open it in Word, save a copy without the password as .docx, and drop that copy here.': (
        '이 Word 파일은 암호로 보호되어 있습니다(또는 이름만 .docx로 바꾼 예전 .doc 파일입니다). Word에서 열어 암호 없는 사본을 .docx로 저장한 뒤 그 사본을 여기에 놓으세요.',
        '此 Word 文件受密码保护（或是改名为 .docx 的旧版 .doc）。请在 Word 中打开，另存一份不带密码的 .docx 副本，然后把副本拖到这里。'),
    'This Word file is damaged and could not be opened.': (
        '이 Word 파일은 손상되어 열 수 없습니다.',
        '此 Word 文件已损坏，无法打开。'),
    'This file is not a Word document, although its name ends in .docx.': (
        '이 파일은 이름이 .docx로 끝나지만 Word 문서가 아닙니다.',
        '此文件名以 .docx 结尾，但它不是 Word 文档。'),
    'This Word file unpacks to more data than Rotary reads ({mb:,.0f} MB).': (
        '이 Word 파일은 풀면 Rotary가 읽는 것보다 큰 데이터가 됩니다({mb:,.0f}MB).',
        '此 Word 文件解压后的数据超过 Rotary 可读取的量（{mb:,.0f} MB）。'),
    'This text file holds more text than Rotary can read at once.': (
        '이 텍스트 파일에는 Rotary가 한 번에 읽을 수 있는 것보다 많은 글자가 있습니다.',
        '此文本文件的文字超过 Rotary 一次能读取的量。'),
    'This file does not contain readable text, although its name says it is a text file.': (
        '이 파일은 이름으로는 텍스트 파일이지만 읽을 수 있는 글자가 없습니다.',
        '此文件名表明它是文本文件，但其中没有可读的文字。'),
    'This file does not contain text (it looks like a program or a picture), although its name says it is a text file.': (
        '이 파일은 이름으로는 텍스트 파일이지만 글자가 아닌 내용(프로그램이나 그림으로 보임)이 들어 있습니다.',
        '此文件名表明它是文本文件，但其中不是文字（看起来像程序或图片）。'),
    "There is no summary style called '{name}'.": (
        "'{name}'(이)라는 요약 방식은 없습니다.",
        '没有名为“{name}”的摘要方式。'),
    "The model's memory (context) is too small to read documents. Choose a larger context in Settings.": (
        '모델의 기억 공간(컨텍스트)이 너무 작아 문서를 읽을 수 없습니다. 설정에서 더 큰 컨텍스트를 선택하세요.',
        '模型的记忆空间（上下文）太小，无法读取文档。请在“设置”中选择更大的上下文。'),
    "The document could not be split to fit the model's memory.": (
        '문서를 모델의 기억 공간에 맞게 나눌 수 없었습니다.',
        '无法将文档拆分到适合模型记忆空间的大小。'),
    'Text recognition was stopped, so the document was not read.': (
        '문자 인식이 멈춰서 문서를 읽지 않았습니다.',
        '文字识别已停止，因此未读取该文档。'),
    'This conversation has no documents to search. Attach one first.': (
        '이 대화에는 찾아볼 문서가 없습니다. 먼저 문서를 첨부하세요.',
        '此对话中没有可搜索的文档。请先附加一个文档。'),
    "'{name}' is no longer in Rotary's list of read documents. Attach it again.": (
        "'{name}'이(가) 더 이상 Rotary가 읽은 문서 목록에 없습니다. 다시 첨부하세요.",
        '“{name}”已不在 Rotary 已读文档列表中。请重新附加。'),
    "No model is loaded yet. Choose a model in Settings.": (
        "아직 불러온 모델이 없습니다. 설정에서 모델을 선택하세요.",
        "尚未加载模型。请在“设置”中选择模型。"),
    "Something went wrong inside the engine.": (
        "엔진 내부에서 문제가 발생했습니다.", "引擎内部出现问题。"),
}
