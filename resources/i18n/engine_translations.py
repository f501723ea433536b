"""Korean and Simplified Chinese for the engine's message catalogue (engine/messages.py).

Keys are the English templates exactly; placeholders in braces must be kept as they are
(a test checks both). build_translations.py writes them into the .ts files under the
Qt context ``engine``, where app/text/messages.py looks them up.
"""

ENGINE_TRANSLATIONS: dict[str, tuple[str, str]] = {  # English: (Korean, Simplified Chinese)
    # ---- engine/messages.py: size() ----------------------------------------------------
    '{gb} GB': (
        '{gb} GB',
        '{gb} GB'),
    '{mb} MB': (
        '{mb} MB',
        '{mb} MB'),
    '(The model asked to use a tool, "{name}", which Rotary does not offer, so nothing was run.)': (
        '(모델이 "{name}" 도구를 쓰려고 했지만 Rotary는 도구를 제공하지 않으므로 아무것도 실행되지 않았습니다.)',
        '(模型想使用工具"{name}"，但 Rotary 不提供工具，因此没有执行任何操作。)'),
    '(The model asked to use a tool, which Rotary does not offer, so nothing was run.)': (
        '(모델이 도구를 쓰려고 했지만 Rotary는 도구를 제공하지 않으므로 아무것도 실행되지 않았습니다.)',
        '(模型想使用工具，但 Rotary 不提供工具，因此没有执行任何操作。)'),
    'This installation of Rotary is incomplete: the part that writes conversations for the model is missing. Install Rotary again.': (
        '이 Rotary 설치는 완전하지 않습니다. 모델에 대화를 전달하는 부분이 없습니다. Rotary를 다시 설치하세요.',
        '此 Rotary 安装不完整：为模型编写对话的部分缺失。请重新安装 Rotary。'),
    # ---- engine/documents -----------------------------------------------------------
    'Action items': (
        '할 일 목록',
        '待办事项'),
    'Bullet points': (
        '요점 목록',
        '要点列表'),
    'Detailed summary': (
        '자세한 요약',
        '详细总结'),
    'Short summary': (
        '짧은 요약',
        '简短总结'),
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
        '已{how}读完全部内容（{found}），但在总结完成之前停止了。'),
    'Stopped before any of it ({found}) was read.': (
        '문서({found})를 읽기 전에 멈췄습니다.',
        '在阅读文档（{found}）之前就停止了。'),
    'Partial: read {done} of {parts} parts of it ({found}); the rest was not read.': (
        '일부만: 문서({found})의 {parts}개 부분 중 {done}개를 읽었고, 나머지는 읽지 않았습니다.',
        '部分：已读文档（{found}）{parts} 个部分中的 {done} 个，其余未读。'),
    'Partial: read {where} of {found} ({done} of {parts} parts); the rest was not read.': (
        '일부만: 문서({found}) 중 {where}를 읽었습니다({parts}개 부분 중 {done}개). 나머지는 읽지 않았습니다.',
        '部分：已读文档（{found}）中的{where}（{parts} 个部分中的 {done} 个），其余未读。'),
    'Partial summary: stopped before the end.': (
        '일부 요약: 끝나기 전에 멈췄습니다.',
        '部分总结：在结束前停止了。'),
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
    "'{name}' is really {what}, although its name ends in {suffix}. {advice}": (
        "'{name}'은(는) 이름이 {suffix}(으)로 끝나지만 실제로는 {what}입니다. {advice}",
        '“{name}”的文件名以 {suffix} 结尾，但它实际上是{what}。{advice}'),
    'an Excel workbook': (
        'Excel 통합 문서',
        'Excel 工作簿'),
    'an old Excel workbook (.xls)': (
        '예전 Excel 통합 문서(.xls)',
        '旧版 Excel 工作簿（.xls）'),
    'a PowerPoint presentation': (
        'PowerPoint 프레젠테이션',
        'PowerPoint 演示文稿'),
    'an old PowerPoint presentation (.ppt)': (
        '예전 PowerPoint 프레젠테이션(.ppt)',
        '旧版 PowerPoint 演示文稿（.ppt）'),
    'an old Word document (.doc)': (
        '예전 Word 문서(.doc)',
        '旧版 Word 文档（.doc）'),
    'an OpenDocument file (LibreOffice)': (
        'OpenDocument 파일(LibreOffice)',
        'OpenDocument 文件（LibreOffice）'),
    'an old Microsoft Office file': (
        '예전 Microsoft Office 파일',
        '旧版 Microsoft Office 文件'),
    'an Office file protected by a password': (
        '암호로 보호된 Office 파일',
        '受密码保护的 Office 文件'),
    'a Rich Text document (.rtf)': (
        '서식 있는 텍스트 문서(.rtf)',
        'RTF 格式文档（.rtf）'),
    'a picture': (
        '그림',
        '图片'),
    'Open it in the program that made it, save it as PDF (or as .docx), and attach that file.': (
        '만든 프로그램에서 열어 PDF(또는 .docx)로 저장한 뒤 그 파일을 첨부하세요.',
        '请在创建它的程序中打开，另存为 PDF（或 .docx），然后附加该文件。'),
    'Open it in Word, save it as .docx, and attach that file.': (
        'Word에서 열어 .docx로 저장한 뒤 그 파일을 첨부하세요.',
        '请在 Word 中打开，另存为 .docx，然后附加该文件。'),
    'Unpack it and attach the documents inside.': (
        '압축을 풀고 안에 있는 문서를 첨부하세요.',
        '请解压缩，然后附加其中的文档。'),
    'Rotary reads text, not pictures: attach the document itself, or a PDF of it.': (
        'Rotary는 그림이 아닌 텍스트를 읽습니다. 문서 자체나 그 PDF를 첨부하세요.',
        'Rotary 读取的是文字而不是图片：请附加文档本身或它的 PDF。'),
    'Open it, save a copy without the password as PDF or .docx, and attach that copy.': (
        '파일을 열어 암호 없는 사본을 PDF나 .docx로 저장한 뒤 그 사본을 첨부하세요.',
        '请打开它，将不带密码的副本另存为 PDF 或 .docx，然后附加该副本。'),
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
        '没有名为“{name}”的总结方式。'),
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
    "No model is loaded yet, so the document cannot be read. Choose a model in Settings.": (
        "아직 불러온 모델이 없어 문서를 읽을 수 없습니다. 설정에서 모델을 선택하세요.",
        "尚未加载模型，因此无法阅读文档。请在“设置”中选择模型。"),
    "The document was not read: it was stopped before it started.": (
        "문서를 읽지 않았습니다. 시작하기 전에 중지되었습니다.",
        "文档没有被阅读：它在开始之前就被停止了。"),
    "{first} {second}": ("{first} {second}", "{first}{second}"),
    # engine/__main__.py: the command line, for IT
    "Name a model file, or an office server with --server URL.": (
        "모델 파일을 지정하거나, --server URL로 사무실 서버를 지정하세요.",
        "请指定一个模型文件，或用 --server URL 指定办公室服务器。"),
    "Name a model file with --model, or an office server with --server URL.": (
        "--model로 모델 파일을 지정하거나, --server URL로 사무실 서버를 지정하세요.",
        "请用 --model 指定一个模型文件，或用 --server URL 指定办公室服务器。"),
    "This model has no experts, so there is no routing to record.": (
        "이 모델에는 전문가가 없어 기록할 라우팅이 없습니다.",
        "此模型没有专家，因此没有可记录的路由。"),

    # ---- engine/runtime: loading and running a model here ---------------------------------
    "Checking the model file…": ("모델 파일을 확인하는 중…", "正在检查模型文件…"),
    "Loading the model into memory…": ("모델을 메모리에 불러오는 중…", "正在将模型载入内存…"),
    "Finding the faster way to use your graphics card (once)…": (
        "그래픽 카드를 더 빠르게 쓰는 방법을 찾는 중(처음 한 번만)…",
        "正在寻找更快使用显卡的方式（仅此一次）…"),
    "The model is ready.": ("모델이 준비되었습니다.", "模型已就绪。"),
    "{summary} {note}": ("{summary} {note}", "{summary}{note}"),
    "This computer does not have enough memory for this model, even with the smallest "
    "settings. Try a smaller model.": (
        "가장 작은 설정으로도 이 컴퓨터의 메모리가 이 모델에 부족합니다. 더 작은 모델을 "
        "사용해 보세요.",
        "即使使用最小的设置，这台电脑的内存也不足以运行此模型。请换一个更小的模型。"),
    "Not enough graphics memory, so less of the model is kept on the graphics card.": (
        "그래픽 메모리가 부족하여 모델을 그래픽 카드에 더 적게 올려 둡니다.",
        "显存不足，因此放在显卡上的模型部分更少。"),
    "The model stopped unexpectedly while writing.": (
        "모델이 답변을 쓰는 도중에 예기치 않게 멈췄습니다.",
        "模型在撰写回答时意外停止了。"),
    "Rotary does not know how to hold a conversation with this model.": (
        "Rotary는 이 모델과 대화하는 방법을 모릅니다.",
        "Rotary 不知道如何与这个模型对话。"),
    "This conversation is too long for the model's memory. Start a new chat or shorten the "
    "text.": (
        "이 대화는 모델이 기억하기에 너무 깁니다. 새 대화를 시작하거나 글을 줄여 주세요.",
        "这段对话对模型的记忆来说太长了。请新建对话或缩短文字。"),
    "The model started repeating the same words over and over, so Rotary stopped it and kept "
    "them once. Try Write again, or another model in Settings.": (
        "모델이 같은 말을 계속 되풀이하기 시작해서 Rotary가 멈추고 그 말은 한 번만 남겼습니다. "
        "다시 쓰기를 누르거나 설정에서 다른 모델을 골라 보세요.",
        "模型开始一遍又一遍地重复同样的话，Rotary 已将其停止，重复的内容只保留一次。请点“重新撰写”，"
        "或在设置中换一个模型。"),
    "The model started repeating the same words over and over while reading this document, "
    "so Rotary stopped and kept no summary. Try again, or another model in Settings.": (
        "문서를 읽는 동안 모델이 같은 말을 계속 되풀이하기 시작해서 Rotary가 멈췄고 요약은 "
        "저장하지 않았습니다. 다시 시도하거나 설정에서 다른 모델을 골라 보세요.",
        "模型在阅读这份文档时开始一遍又一遍地重复同样的话，Rotary 已停止，没有保存总结。"
        "请重试，或在设置中换一个模型。"),
    "The model file's own: answer variety (temperature) {temperature}, top-p {top_p}, top-k "
    "{top_k}.": (
        "모델 파일에 적힌 값: 답변 다양성(temperature) {temperature}, top-p {top_p}, "
        "top-k {top_k}.",
        "模型文件自带的设置：回答多样性（temperature）{temperature}，top-p {top_p}，top-k {top_k}。"),
    "Recommended for this kind of model: answer variety (temperature) {temperature}, top-p "
    "{top_p}, top-k {top_k}.": (
        "이 종류의 모델에 권장되는 값: 답변 다양성(temperature) {temperature}, top-p {top_p}, "
        "top-k {top_k}.",
        "此类模型的推荐设置：回答多样性（temperature）{temperature}，top-p {top_p}，top-k {top_k}。"),
    "Rotary's usual: answer variety (temperature) {temperature}, top-p {top_p}, top-k "
    "{top_k}.": (
        "Rotary 기본값: 답변 다양성(temperature) {temperature}, top-p {top_p}, top-k {top_k}.",
        "Rotary 的常用设置：回答多样性（temperature）{temperature}，top-p {top_p}，top-k {top_k}。"),
    "{said} Min-p {min_p}.": (
        "{said} min-p {min_p}.",
        "{said}min-p {min_p}。"),
    "It keeps about {pages:,} pages of a conversation in mind; older parts of a longer one "
    "are set aside.": (
        "대화를 약 {pages:,}쪽까지 기억합니다. 더 긴 대화는 앞부분부터 제외됩니다.",
        "它能记住约 {pages:,} 页的对话；更长的对话会先放下较早的部分。"),
    "It keeps less than a page of a conversation in mind; older parts of a longer one are "
    "set aside.": (
        "대화를 한 쪽이 안 되는 분량만 기억합니다. 더 긴 대화는 앞부분부터 제외됩니다.",
        "它只能记住不到一页的对话；更长的对话会先放下较早的部分。"),
    "Thought for {words:,} words": (
        "{words:,}단어 동안 생각함",
        "思考了 {words:,} 个词"),
    "Thought for {words:,} words, stopped to answer": (
        "{words:,}단어 동안 생각한 뒤 답하려고 멈춤",
        "思考了 {words:,} 个词，停下来作答"),
    "This message is too long for the model's memory: {words:,} words, where it can take "
    "about {room:,}. Attach it as a document instead, or shorten it; your earlier messages "
    "are kept.": (
        "이 메시지는 모델이 기억하기에 너무 깁니다: {words:,}단어인데 약 {room:,}단어까지만 "
        "받을 수 있습니다. 대신 문서로 첨부하거나 줄여 주세요. 앞의 메시지는 그대로 남습니다.",
        "这条消息对模型的记忆来说太长了：共 {words:,} 个词，而它最多能接收约 {room:,} 个词。"
        "请改为作为文档附加，或将其缩短；之前的消息会保留。"),

    # ---- engine/model: reading a model file ------------------------------------------------
    "The model file “{name}” could not be found. It may have been moved or deleted.": (
        "모델 파일 “{name}”을(를) 찾을 수 없습니다. 옮겨졌거나 삭제되었을 수 있습니다.",
        "找不到模型文件“{name}”。它可能已被移动或删除。"),
    "Rotary is not allowed to open the model file “{name}”. Ask your IT contact to let your "
    "account read it.": (
        "Rotary에 모델 파일 “{name}”을(를) 열 권한이 없습니다. IT 담당자에게 이 계정이 파일을 "
        "읽을 수 있게 해 달라고 요청해 주세요.",
        "Rotary 无权打开模型文件“{name}”。请让您的 IT 人员允许您的账户读取它。"),
    "The model file “{name}” could not be opened.": (
        "모델 파일 “{name}”을(를) 열 수 없습니다.",
        "无法打开模型文件“{name}”。"),
    "“{name}” is a folder, not a model file. Choose the .gguf file inside it.": (
        "“{name}”은(는) 모델 파일이 아니라 폴더입니다. 그 안의 .gguf 파일을 선택하세요.",
        "“{name}”是文件夹，不是模型文件。请选择其中的 .gguf 文件。"),
    "This file is not a model Rotary can use. Choose a .gguf model file.": (
        "이 파일은 Rotary가 사용할 수 있는 모델이 아닙니다. .gguf 모델 파일을 선택하세요.",
        "此文件不是 Rotary 可以使用的模型。请选择 .gguf 模型文件。"),
    "This file is not a model Rotary can use: it is too short. Choose a .gguf model file.": (
        "이 파일은 Rotary가 사용할 수 있는 모델이 아닙니다. 파일이 너무 짧습니다. .gguf 모델 "
        "파일을 선택하세요.",
        "此文件不是 Rotary 可以使用的模型：它太短了。请选择 .gguf 模型文件。"),
    "This file is not a model Rotary can use: it looks like {kind}. Choose a .gguf model file.": (
        "이 파일은 Rotary가 사용할 수 있는 모델이 아닙니다. {kind}(으)로 보입니다. .gguf 모델 "
        "파일을 선택하세요.",
        "此文件不是 Rotary 可以使用的模型：它看起来是{kind}。请选择 .gguf 模型文件。"),
    "a PDF document": ("PDF 문서", "一个 PDF 文档"),
    "a ZIP archive": ("ZIP 압축 파일", "一个 ZIP 压缩文件"),
    "a PNG picture": ("PNG 그림", "一张 PNG 图片"),
    "a model in an old format Rotary cannot read": (
        "Rotary가 읽을 수 없는 예전 형식의 모델", "一个 Rotary 无法读取的旧格式模型"),
    "This model file was made for a different kind of computer. Rotary needs the ordinary "
    "version of the file.": (
        "이 모델 파일은 다른 종류의 컴퓨터용으로 만들어졌습니다. Rotary에는 일반 버전의 파일이 "
        "필요합니다.",
        "此模型文件是为另一类电脑制作的。Rotary 需要该文件的普通版本。"),
    "This model file is in a format Rotary cannot read (version {version}).": (
        "이 모델 파일은 Rotary가 읽을 수 없는 형식입니다 (버전 {version}).",
        "此模型文件的格式 Rotary 无法读取（版本 {version}）。"),
    "The model file is damaged. Copy or download it again.": (
        "모델 파일이 손상되었습니다. 다시 복사하거나 내려받아 주세요.",
        "模型文件已损坏。请重新复制或下载。"),
    "The model file is incomplete or damaged. Copy or download it again.": (
        "모델 파일이 완전하지 않거나 손상되었습니다. 다시 복사하거나 내려받아 주세요.",
        "模型文件不完整或已损坏。请重新复制或下载。"),
    "The model file describes itself in a way Rotary cannot read.": (
        "모델 파일이 Rotary가 읽을 수 없는 방식으로 자신을 설명하고 있습니다.",
        "模型文件对自身的描述方式 Rotary 无法读取。"),
    "This model is stored in a way Rotary does not know yet.": (
        "이 모델은 Rotary가 아직 모르는 방식으로 저장되어 있습니다.",
        "此模型的存储方式 Rotary 还不认识。"),
    "The model file does not say what kind of model it is. It may be damaged.": (
        "모델 파일에 어떤 종류의 모델인지 적혀 있지 않습니다. 손상되었을 수 있습니다.",
        "模型文件没有说明它是哪种模型。它可能已损坏。"),
    "Rotary cannot run this kind of model yet (its design is called “{design}”).": (
        "Rotary는 아직 이런 종류의 모델을 실행할 수 없습니다 (설계 이름: “{design}”).",
        "Rotary 目前还无法运行这类模型（其结构名为“{design}”）。"),

    # ---- engine/plan: what fits on this computer -------------------------------------------
    "Automatic (fit this computer)": (
        "자동 (이 컴퓨터에 맞춤)",
        "自动（适配这台电脑）"),
    "an automatic setting for this computer": (
        "이 컴퓨터에 맞춘 자동 설정",
        "为这台电脑自动选择的设置"),
    "Laptop with an 8 GB graphics card": (
        "8 GB 그래픽 카드 노트북",
        "配备 8 GB 显卡的笔记本电脑"),
    "the setting for laptops with an 8 GB graphics card": (
        "8 GB 그래픽 카드가 있는 노트북용 설정",
        "适用于配备 8 GB 显卡的笔记本电脑的设置"),
    "Desktop with a 12 GB graphics card": (
        "12 GB 그래픽 카드 데스크톱",
        "配备 12 GB 显卡的台式机"),
    "the setting for desktops with a 12 GB graphics card": (
        "12 GB 그래픽 카드가 있는 데스크톱용 설정",
        "适用于配备 12 GB 显卡的台式机的设置"),
    "Desktop with a 16 GB graphics card": (
        "16 GB 그래픽 카드 데스크톱",
        "配备 16 GB 显卡的台式机"),
    "the setting for desktops with a 16 GB graphics card": (
        "16 GB 그래픽 카드가 있는 데스크톱용 설정",
        "适用于配备 16 GB 显卡的台式机的设置"),
    "Workstation with a 24 GB graphics card": (
        "24 GB 그래픽 카드 워크스테이션",
        "配备 24 GB 显卡的工作站"),
    "the setting for workstations with a 24 GB graphics card": (
        "24 GB 그래픽 카드가 있는 워크스테이션용 설정",
        "适用于配备 24 GB 显卡的工作站的设置"),
    "Processor only (no graphics card)": (
        "프로세서만 사용 (그래픽 카드 없음)",
        "仅处理器（不用显卡）"),
    "the processor-only setting (no graphics card needed)": (
        "프로세서 전용 설정 (그래픽 카드 필요 없음)",
        "仅用处理器的设置（不需要显卡）"),
    "There is no setting called “{name}”.": (
        "“{name}”(이)라는 설정은 없습니다.", "没有名为“{name}”的设置。"),
    "One of the advanced settings is not recognised.": (
        "고급 설정 중 하나를 알아볼 수 없습니다.", "有一项高级设置无法识别。"),
    "The conversation memory format is not recognised.": (
        "대화 메모리 형식을 알아볼 수 없습니다.", "无法识别对话记忆的格式。"),
    "A compact conversation memory needs the fast attention option.": (
        "대화 메모리를 압축하려면 빠른 어텐션 옵션이 필요합니다.",
        "压缩的对话记忆需要开启快速注意力选项。"),
    "This model is too big for this computer: it needs about {need} GB, but the graphics card "
    "and memory together have room for about {room} GB. Try a smaller model.": (
        "이 모델은 이 컴퓨터에 너무 큽니다. 약 {need}GB가 필요하지만 그래픽 카드와 메모리를 "
        "합쳐도 약 {room}GB의 여유밖에 없습니다. 더 작은 모델을 사용해 보세요.",
        "此模型对这台电脑来说太大了：它大约需要 {need} GB，但显卡和内存加起来只有大约 "
        "{room} GB 的空间。请换一个更小的模型。"),
    "the graphics card": ("그래픽 카드", "显卡"),
    "The whole model runs on the processor and stays in main memory.": (
        "모델 전체가 프로세서에서 실행되고 주 메모리에 머뭅니다.",
        "整个模型在处理器上运行，并保存在主内存中。"),
    "The whole model fits on the graphics card ({card}).": (
        "모델 전체가 그래픽 카드({card})에 들어갑니다.",
        "整个模型都能放进显卡（{card}）。"),
    "{on_gpu} of {total} parts of the model are on the graphics card ({card}); the rest stays "
    "in main memory.": (
        "모델의 {total}개 부분 중 {on_gpu}개가 그래픽 카드({card})에 있고, 나머지는 주 메모리에 "
        "있습니다.",
        "模型的 {total} 个部分中有 {on_gpu} 个在显卡（{card}）上，其余保存在主内存中。"),
    "The parts kept in main memory that the conversation uses most are also copied to the "
    "graphics card as the text goes.": (
        "주 메모리에 있는 부분 중 대화에서 가장 많이 쓰는 것은 글이 진행되는 동안 그래픽 카드에도 "
        "복사됩니다.",
        "保存在主内存中的部分里，对话用得最多的那些会随着文字的进行复制到显卡上。"),
    "Not enough graphics memory, so more of the model stays in main memory ({on_gpu} of "
    "{total} parts on the graphics card).": (
        "그래픽 메모리가 부족하여 모델의 더 많은 부분을 주 메모리에 둡니다 (그래픽 카드에는 "
        "{total}개 중 {on_gpu}개).",
        "显存不足，因此模型更多的部分留在主内存中（显卡上有 {total} 个部分中的 {on_gpu} 个）。"),
    "Not enough memory, so the assistant keeps a shorter conversation in mind (about "
    "{words:,.0f} words).": (
        "메모리가 부족하여 도우미가 더 짧은 대화만 기억합니다 (약 {words:,.0f}단어).",
        "内存不足，因此助手只能记住较短的对话（大约 {words:,.0f} 个词）。"),
    "Not enough memory, so the conversation is kept in a more compact form; answers may be "
    "slightly less precise.": (
        "메모리가 부족하여 대화를 더 압축된 형태로 보관합니다. 답변이 조금 덜 정확할 수 있습니다.",
        "内存不足，因此对话以更紧凑的形式保存；回答可能会稍微不那么精确。"),
    "Not enough memory, so the conversation is kept in an even more compact form; answers may "
    "be slightly less precise.": (
        "메모리가 부족하여 대화를 훨씬 더 압축된 형태로 보관합니다. 답변이 조금 덜 정확할 수 "
        "있습니다.",
        "内存不足，因此对话以更加紧凑的形式保存；回答可能会稍微不那么精确。"),
    "Not enough graphics memory, so the model runs on the processor only; answers will come "
    "much more slowly.": (
        "그래픽 메모리가 부족하여 모델을 프로세서에서만 실행합니다. 답변이 훨씬 느리게 나옵니다.",
        "显存不足，因此模型只在处理器上运行；回答会慢很多。"),
    "This will not fit: the model needs about {need} GB on the graphics card, but only {free} "
    "GB is free.": (
        "들어가지 않습니다. 모델에 그래픽 카드 메모리가 약 {need}GB 필요하지만 비어 있는 것은 "
        "{free}GB뿐입니다.",
        "放不下：模型大约需要 {need} GB 显存，但只有 {free} GB 可用。"),
    "This will not fit: the model needs about {need} GB of memory, but this computer has "
    "{have} GB.": (
        "들어가지 않습니다. 모델에 메모리가 약 {need}GB 필요하지만 이 컴퓨터에는 {have}GB가 "
        "있습니다.",
        "放不下：模型大约需要 {need} GB 内存，但这台电脑只有 {have} GB。"),
    "About {ram} in memory (the graphics card is not used); expect {speed}.": (
        "메모리 약 {ram}를 사용합니다 (그래픽 카드는 쓰지 않음). {speed}을(를) 예상하세요.",
        "约占用 {ram} 内存（不使用显卡）；预计{speed}。"),
    "About {vram} on the graphics card and {ram} in memory; expect {speed}.": (
        "그래픽 카드에 약 {vram}, 메모리에 {ram}를 사용합니다. {speed}을(를) 예상하세요.",
        "显卡上约 {vram}，内存中约 {ram}；预计{speed}。"),
    "roughly {words} words per second": ("초당 약 {words}단어", "每秒大约 {words} 个词"),
    "roughly 1 word per second": ("초당 약 1단어", "每秒大约 1 个词"),
    "less than 1 word per second": ("초당 1단어 미만", "每秒不到 1 个词"),
    "Other programs are using memory this model needs; close some first.": (
        "다른 프로그램이 이 모델에 필요한 메모리를 쓰고 있습니다. 먼저 몇 개를 닫아 주세요.",
        "其他程序正在使用此模型需要的内存；请先关闭一些程序。"),
    "Answers will come slowly on this computer.": (
        "이 컴퓨터에서는 답변이 느리게 나옵니다.", "在这台电脑上回答会来得比较慢。"),

    # ---- engine/remote: the office server -----------------------------------------------
    "Connecting to the office server at {address}…": (
        "{address}의 사무실 서버에 연결하는 중…",
        "正在连接位于 {address} 的办公室服务器…"),
    "Using {model} on the office server at {address}.": (
        "{address}의 사무실 서버에서 {model}을(를) 사용합니다.",
        "正在使用位于 {address} 的办公室服务器上的 {model}。"),
    "Rotary is not connected to the office server yet.": (
        "Rotary가 아직 사무실 서버에 연결되지 않았습니다.",
        "Rotary 尚未连接到办公室服务器。"),
    "The environment variable {name} is not set.": (
        "환경 변수 {name}이(가) 설정되어 있지 않습니다.",
        "环境变量 {name} 未设置。"),
    "The server address must start with http:// or https:// followed by the server's name, "
    "for example {example}.": (
        "서버 주소는 http:// 또는 https:// 뒤에 서버 이름이 오는 형태여야 합니다. 예: {example}",
        "服务器地址必须以 http:// 或 https:// 开头，后面跟服务器名称，例如 {example}。"),
    "The certificate file chosen in Settings cannot be read.": (
        "설정에서 고른 인증서 파일을 읽을 수 없습니다.",
        "无法读取在“设置”中选择的证书文件。"),
    "The office server at {address} has a security certificate this computer does not trust. "
    "Ask your IT contact for the office's certificate file and choose it in Settings.": (
        "{address}의 사무실 서버가 이 컴퓨터가 신뢰하지 않는 보안 인증서를 쓰고 있습니다. "
        "IT 담당자에게 사무실 인증서 파일을 받아 설정에서 선택해 주세요.",
        "位于 {address} 的办公室服务器使用的安全证书不受这台电脑信任。"
        "请向您的 IT 人员索取办公室的证书文件，并在“设置”中选择它。"),
    "The office server at {address} does not answer. Check the address, and that this "
    "computer is on the office network.": (
        "{address}의 사무실 서버가 응답하지 않습니다. 주소와, 이 컴퓨터가 사무실 네트워크에 "
        "연결되어 있는지 확인해 주세요.",
        "位于 {address} 的办公室服务器没有响应。请检查地址，并确认这台电脑已连接到办公室网络。"),
    "The office server at {address} took too long to answer. It may be off or overloaded; try "
    "again in a minute.": (
        "{address}의 사무실 서버가 너무 오래 응답하지 않았습니다. 꺼져 있거나 과부하 상태일 수 "
        "있습니다. 1분 뒤에 다시 시도해 주세요.",
        "位于 {address} 的办公室服务器响应时间过长。它可能已关闭或负载过重，请一分钟后再试。"),
    "The connection to the office server at {address} failed.": (
        "{address}의 사무실 서버와 연결하지 못했습니다.",
        "与位于 {address} 的办公室服务器的连接失败了。"),
    "The office server at {address} answered, but not like a model server. Check the address.": (
        "{address}의 사무실 서버가 응답했지만 모델 서버의 응답이 아닙니다. 주소를 확인해 주세요.",
        "位于 {address} 的办公室服务器有回应，但不像是模型服务器。请检查地址。"),
    "There is no model server Rotary can use at {address}. Check the address.": (
        "{address}에는 Rotary가 사용할 수 있는 모델 서버가 없습니다. 주소를 확인해 주세요.",
        "{address} 上没有 Rotary 可以使用的模型服务器。请检查地址。"),
    "The office server at {address} did not list its models. Check the address, or ask your "
    "IT contact.": (
        "{address}의 사무실 서버가 모델 목록을 알려 주지 않았습니다. 주소를 확인하거나 IT "
        "담당자에게 문의해 주세요.",
        "位于 {address} 的办公室服务器没有列出它的模型。请检查地址，或联系您的 IT 人员。"),
    "The office server at {address} does not offer the model “{model}”. Choose one of its "
    "models in Settings.": (
        "{address}의 사무실 서버에는 “{model}” 모델이 없습니다. 설정에서 서버의 모델 중 하나를 "
        "골라 주세요.",
        "位于 {address} 的办公室服务器不提供模型“{model}”。请在“设置”中选择它的一个模型。"),
    "The office server refused the access key. Check the key in Settings, or ask your IT "
    "contact for a new one.": (
        "사무실 서버가 접근 키를 거부했습니다. 설정에서 키를 확인하거나 IT 담당자에게 새 키를 "
        "요청해 주세요.",
        "办公室服务器拒绝了访问密钥。请在“设置”中检查密钥，或向您的 IT 人员索取新的密钥。"),
    "The office server is busy right now. Try again in a moment.": (
        "사무실 서버가 지금 바쁩니다. 잠시 후 다시 시도해 주세요.",
        "办公室服务器现在正忙。请稍后再试。"),
    "The office server is busy right now. It suggests trying again in {seconds:.0f} seconds.": (
        "사무실 서버가 지금 바쁩니다. {seconds:.0f}초 뒤에 다시 시도하라고 알려 왔습니다.",
        "办公室服务器现在正忙。它建议 {seconds:.0f} 秒后再试。"),
    "The office server could not answer (error {status}).": (
        "사무실 서버가 답하지 못했습니다 (오류 {status}).",
        "办公室服务器无法回答（错误 {status}）。"),
    "This conversation is too long for the server's model. Start a new chat or shorten the "
    "text.": (
        "이 대화는 서버의 모델이 다루기에 너무 깁니다. 새 대화를 시작하거나 글을 줄여 주세요.",
        "这段对话对服务器上的模型来说太长了。请新建对话或缩短文字。"),
    "The office server at {address} sent an answer Rotary cannot read.": (
        "{address}의 사무실 서버가 Rotary가 읽을 수 없는 답을 보냈습니다.",
        "位于 {address} 的办公室服务器发来了 Rotary 无法读取的回答。"),
    "The connection to the office server at {address} was lost while it was writing.": (
        "{address}의 사무실 서버가 답변을 쓰는 도중에 연결이 끊어졌습니다.",
        "位于 {address} 的办公室服务器在撰写回答时连接中断了。"),
    "The connection to the office server at {address} was lost while it was writing. The "
    "answer so far is kept.": (
        "{address}의 사무실 서버가 답변을 쓰는 도중에 연결이 끊어졌습니다. 지금까지 받은 답변은 "
        "남겨 두었습니다.",
        "位于 {address} 的办公室服务器在撰写回答时连接中断了。已保留目前收到的回答。"),
    "The office server could not count the words of the text.": (
        "사무실 서버가 글의 단어 수를 세지 못했습니다.",
        "办公室服务器无法计算这段文字的字数。"),
    "The office server at {address} cannot count words, so Rotary cannot split documents to "
    "fit its model. Chat still works.": (
        "{address}의 사무실 서버는 단어 수를 셀 수 없어, Rotary가 문서를 서버 모델에 맞게 나눌 "
        "수 없습니다. 대화는 그대로 할 수 있습니다.",
        "位于 {address} 的办公室服务器无法计算字数，因此 Rotary 无法把文档分成适合其模型的部分。"
        "对话仍然可以正常使用。"),
    "The office server cannot count the words of a whole conversation.": (
        "사무실 서버가 대화 전체의 단어 수를 셀 수 없습니다.",
        "办公室服务器无法计算整段对话的字数。"),
    "The office server does not say how long a conversation is, so Rotary cannot split "
    "documents to fit its model.": (
        "사무실 서버가 대화의 길이를 알려 주지 않아, Rotary가 문서를 서버 모델에 맞게 나눌 수 "
        "없습니다.",
        "办公室服务器没有说明对话有多长，因此 Rotary 无法把文档分成适合其模型的部分。"),
    "The office server does not say how much text its model can read at once, so Rotary "
    "cannot split documents to fit it.": (
        "사무실 서버가 모델이 한 번에 읽을 수 있는 글의 양을 알려 주지 않아, Rotary가 문서를 "
        "그에 맞게 나눌 수 없습니다.",
        "办公室服务器没有说明其模型一次能读多少文字，因此 Rotary 无法按此分割文档。"),
    # ---- where the model runs (engine/runtime/placement.py, engine/plan/hardware.py) -----
    "The model runs on the graphics card {device}: {gpu} of it there and {ram} in main memory.": (
        "모델이 그래픽 카드 {device}에서 실행됩니다: {gpu}는 그래픽 카드에, {ram}는 주 메모리에 있습니다.",
        "模型在显卡 {device} 上运行：其中 {gpu} 在显卡上，{ram} 在主内存中。"),
    "The model runs on the graphics card {device}: {gpu} of it there ({slots} of it for the parts the conversation uses most) and {ram} in main memory.": (
        "모델이 그래픽 카드 {device}에서 실행됩니다: {gpu}는 그래픽 카드에(그중 {slots}는 대화에 가장 많이 쓰이는 부분용), {ram}는 주 메모리에 있습니다.",
        "模型在显卡 {device} 上运行：其中 {gpu} 在显卡上（其中 {slots} 用于对话最常用的部分），{ram} 在主内存中。"),
    "The model runs on the processor ({ram} in main memory); no graphics card is used.": (
        "모델이 프로세서에서 실행됩니다(주 메모리 {ram}). 그래픽 카드는 사용하지 않습니다.",
        "模型在处理器上运行（主内存中 {ram}）；未使用显卡。"),
    "{placed} {unused}": (
        "{placed} {unused}",
        "{placed}{unused}"),
    "Rotary cannot use the graphics card {name}: this installation has no graphics support for it, so the model runs on the processor, more slowly. Install Rotary's package with graphics support (or ask your IT contact to).": (
        "Rotary가 그래픽 카드 {name}을(를) 사용할 수 없습니다. 이 설치본에는 해당 그래픽 카드 지원이 없어 모델이 프로세서에서 더 느리게 실행됩니다. 그래픽 지원이 포함된 Rotary 패키지를 설치하세요(또는 IT 담당자에게 요청하세요).",
        "Rotary 无法使用显卡 {name}：此安装不包含对它的显卡支持，因此模型在处理器上运行，速度较慢。请安装带显卡支持的 Rotary 安装包（或请 IT 联系人安装）。"),
    "Rotary could not start the graphics card {name}, so the model runs on the processor, more slowly. Updating the graphics card's driver from its maker's website usually fixes this; then restart Rotary.": (
        "Rotary가 그래픽 카드 {name}을(를) 시작하지 못해 모델이 프로세서에서 더 느리게 실행됩니다. 제조사 웹사이트에서 그래픽 카드 드라이버를 업데이트하면 대개 해결됩니다. 그런 다음 Rotary를 다시 시작하세요.",
        "Rotary 无法启动显卡 {name}，因此模型在处理器上运行，速度较慢。通常从显卡厂商网站更新显卡驱动即可解决；然后重新启动 Rotary。"),
    "The graphics {name} is built into the processor and shares main memory, so Rotary keeps the model in main memory instead.": (
        "그래픽 {name}은(는) 프로세서에 내장되어 주 메모리를 함께 쓰므로, Rotary는 모델을 주 메모리에 둡니다.",
        "图形处理器 {name} 内置于处理器中并共用主内存，因此 Rotary 把模型放在主内存中。"),
    "{name} is not a graphics card but software that imitates one on the processor, many times more slowly, so Rotary uses the processor directly.": (
        "{name}은(는) 그래픽 카드가 아니라 프로세서에서 그래픽 카드를 흉내 내는 소프트웨어로, 몇십 배 느립니다. 그래서 Rotary는 프로세서를 직접 씁니다.",
        "{name} 不是显卡，而是在处理器上模拟显卡的软件，速度要慢许多倍，因此 Rotary 直接使用处理器。"),
    "About {vram} on {device}, software that imitates a graphics card on the processor, and {ram} in memory; expect {speed}.": (
        "프로세서에서 그래픽 카드를 흉내 내는 소프트웨어 {device}에 약 {vram}, 메모리에 {ram}를 사용합니다. {speed}을(를) 예상하세요.",
        "在处理器上模拟显卡的软件 {device} 上约 {vram}，内存中 {ram}；预计{speed}。"),
    "The model runs on {device}, software that imitates a graphics card on the processor: {gpu} of it there and {ram} in main memory. It writes much more slowly than the processor alone.": (
        "모델이 프로세서에서 그래픽 카드를 흉내 내는 소프트웨어 {device}에서 실행됩니다: {gpu}는 그곳에, {ram}는 주 메모리에 있습니다. 프로세서만 쓸 때보다 훨씬 느리게 씁니다.",
        "模型在 {device} 上运行，这是在处理器上模拟显卡的软件：其中 {gpu} 在那里，{ram} 在主内存中。它的写作速度远慢于单用处理器。"),
    "There is no device named {name}. `python -m engine devices` lists the ones this installation can use.": (
        "{name}(이)라는 장치가 없습니다. `python -m engine devices`가 이 설치본에서 쓸 수 있는 장치를 보여 줍니다.",
        "没有名为 {name} 的设备。`python -m engine devices` 会列出此安装可以使用的设备。"),
    # ---- the GPU path (engine/plan/layout.py, engine/plan/transfer.py) ------------------
    "This build of Rotary cannot copy the parts of the model a conversation uses most to the graphics card, so whole parts of the model are placed there instead.": (
        "이 Rotary 빌드는 대화에 가장 많이 쓰이는 모델 부분을 그래픽 카드로 복사할 수 없어, 대신 모델의 일부를 통째로 그래픽 카드에 둡니다.",
        "此版本的 Rotary 无法把对话最常用的模型部分复制到显卡上，因此改为把模型的整个部分放到显卡上。"),
    "Rotary could not copy the parts of the model a conversation uses most to the graphics card here, so whole parts of the model are placed there instead.": (
        "이 컴퓨터에서는 대화에 가장 많이 쓰이는 모델 부분을 그래픽 카드로 복사할 수 없어, 대신 모델의 일부를 통째로 그래픽 카드에 둡니다.",
        "在这台电脑上 Rotary 无法把对话最常用的模型部分复制到显卡上，因此改为把模型的整个部分放到显卡上。"),
    "There was not enough graphics memory to copy the parts of the model a conversation uses most to the graphics card.": (
        "대화에 가장 많이 쓰이는 모델 부분을 그래픽 카드로 복사할 그래픽 메모리가 부족했습니다.",
        "显存不足，无法把对话最常用的模型部分复制到显卡上。"),
    "There was not enough memory to load this model with the current settings.": (
        "현재 설정으로 이 모델을 불러오기에는 메모리가 부족했습니다.",
        "以当前设置加载此模型时内存不足。"),
    "The model file {name} could not be loaded.": (
        "모델 파일 {name}을(를) 불러올 수 없습니다.",
        "无法加载模型文件 {name}。"),
    "This model has no experts to keep on the graphics card.": (
        "이 모델에는 그래픽 카드에 둘 전문가가 없습니다.",
        "此模型没有可以放在显卡上的专家。"),
    "Long texts are read {n_ubatch} words at a time instead of {stock}: each batch copies the experts it uses to the graphics card once, so documents are read several times faster, for {gb} GB of graphics memory.": (
        "긴 글은 {stock}단어가 아니라 {n_ubatch}단어씩 읽습니다. 묶음마다 필요한 전문가를 그래픽 카드로 한 번만 복사하므로 문서를 몇 배 빨리 읽으며, 그 대가로 그래픽 메모리 {gb}GB를 씁니다.",
        "长文本每次读取 {n_ubatch} 个词，而不是 {stock} 个：每一批只把用到的专家复制到显卡一次，因此读取文档快好几倍，代价是占用 {gb} GB 显存。"),
    "The processor works through the experts' weights at {cpu} GB/s and the link to the graphics card copies them at {link} GB/s, so each part copies up to {cap} of the {k} experts a word uses and the processor computes the others.": (
        "프로세서는 전문가 가중치를 초당 {cpu}GB로 처리하고, 그래픽 카드로의 연결은 초당 {link}GB로 복사합니다. 그래서 각 부분은 한 단어가 쓰는 전문가 {k}개 중 최대 {cap}개를 복사하고 나머지는 프로세서가 계산합니다.",
        "处理器处理专家权重的速度为每秒 {cpu} GB，到显卡的连接每秒复制 {link} GB，因此每个部分最多复制一个词所用 {k} 个专家中的 {cap} 个，其余由处理器计算。"),
    "The link to the graphics card copies the experts' weights at {link} GB/s, faster than the processor works through them ({cpu} GB/s), so each part copies up to {cap} of the {k} experts a word uses.": (
        "그래픽 카드로의 연결은 전문가 가중치를 초당 {link}GB로 복사해 프로세서가 처리하는 속도(초당 {cpu}GB)보다 빠릅니다. 그래서 각 부분은 한 단어가 쓰는 전문가 {k}개 중 최대 {cap}개를 복사합니다.",
        "到显卡的连接每秒复制 {link} GB 专家权重，比处理器处理的速度（每秒 {cpu} GB）更快，因此每个部分最多复制一个词所用 {k} 个专家中的 {cap} 个。"),
    "The speeds of the processor and of the link to the graphics card could not be measured, so every expert a word uses may be copied to the graphics card.": (
        "프로세서와 그래픽 카드 연결의 속도를 측정할 수 없어, 한 단어가 쓰는 모든 전문가를 그래픽 카드로 복사할 수 있습니다.",
        "无法测量处理器和显卡连接的速度，因此一个词所用的每个专家都可以复制到显卡。"),
    # ---- issue 37: what the plan puts on the card, with slots --------------------------
    "The graphics card ({card}) holds the parts of the model every word uses, and {slots} of the parts the conversation uses most, copied there as the text goes; the rest stays in main memory.": (
        "그래픽 카드({card})에는 모든 단어에 쓰이는 모델 부분과, 대화에 가장 많이 쓰이는 부분 {slots}가 글이 진행되면서 복사되어 있습니다. 나머지는 주 메모리에 있습니다.",
        "显卡（{card}）存放每个词都会用到的模型部分，以及随着文本进行复制过去的对话最常用部分 {slots}；其余部分留在主内存中。"),
    "{on_gpu} of {total} parts of the model are on the graphics card ({card}), with {slots} more there for the parts the conversation uses most, copied as the text goes; the rest stays in main memory.": (
        "모델의 {total}개 부분 중 {on_gpu}개가 그래픽 카드({card})에 있고, 대화에 가장 많이 쓰이는 부분을 위해 {slots}가 더 있어 글이 진행되면서 복사됩니다. 나머지는 주 메모리에 있습니다.",
        "模型 {total} 个部分中有 {on_gpu} 个在显卡（{card}）上，另有 {slots} 用于对话最常用的部分，随文本进行复制；其余部分留在主内存中。"),
    "The model runs on the processor; no graphics card is used.": (
        "모델이 프로세서에서 실행됩니다. 그래픽 카드는 사용하지 않습니다.",
        "模型在处理器上运行；未使用显卡。"),
    "About {vram} on the graphics card (and {driver} its driver keeps) and {ram} in memory; expect {speed}.": (
        "그래픽 카드에 약 {vram}(이 밖에 드라이버가 {driver}), 메모리에 {ram}를 사용합니다. {speed}을(를) 예상하세요.",
        "显卡上约 {vram}（另有驱动占用 {driver}），内存中 {ram}；预计{speed}。"),
}
