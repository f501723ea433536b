"""Korean and Simplified Chinese for texts of Qt's own dialogs that Qt's catalogues
(qtbase_ko.qm, qtbase_zh_CN.qm, installed by app/text/i18n.py) lack or leave unfinished.

Found by tests/app/test_qt_dialogs_translated.py, which opens the dialogs Rotary uses
(the file chooser, questions, the rename box) non-native under each language and lists
any English left. Keyed by Qt's context (the class) and the exact English source text,
mnemonics ("&") included; build_translations.py writes them into rotary_<lang>.ts, so
our translator answers where Qt's own has nothing.
"""

QT_TRANSLATIONS: dict[str, dict[str, tuple[str, str]]] = {
    "QFileDialog": {
        "Look in:": ("찾는 위치:", "查找范围："),
        "&Look in:": ("찾는 위치(&L):", "查找范围(&L)："),
        "File &name:": ("파일 이름(&N):", "文件名(&N)："),
        "Files of type:": ("파일 형식:", "文件类型："),
        "Files of &type:": ("파일 형식(&T):", "文件类型(&T)："),
        "Back": ("뒤로", "后退"),
        "Go back": ("뒤로 가기", "后退"),
        "Forward": ("앞으로", "前进"),
        "Go forward": ("앞으로 가기", "前进"),
        "Parent Directory": ("상위 폴더", "上级文件夹"),
        "Go to the parent directory": ("상위 폴더로 이동", "转到上级文件夹"),
        "Create New Folder": ("새 폴더 만들기", "新建文件夹"),
        "Create a New Folder": ("새 폴더 만들기", "新建文件夹"),
        "List View": ("목록 보기", "列表视图"),
        "Change to list view mode": ("목록 보기로 전환", "切换到列表视图"),
        "Detail View": ("자세히 보기", "详细视图"),
        "Change to detail view mode": ("자세히 보기로 전환", "切换到详细视图"),
        "Sidebar": ("사이드바", "侧边栏"),
        "List of places and bookmarks": ("위치와 책갈피 목록", "位置和书签列表"),
        "Files": ("파일", "文件"),
        "&Open": ("열기(&O)", "打开(&O)"),
        "&Choose": ("선택(&C)", "选择(&C)"),
        "&Save": ("저장(&S)", "保存(&S)"),
        "Open": ("열기", "打开"),
        "Cancel": ("취소", "取消"),
        "All Files (*)": ("모든 파일 (*)", "所有文件 (*)"),
        "&Rename": ("이름 바꾸기(&R)", "重命名(&R)"),
        "&Delete": ("삭제(&D)", "删除(&D)"),
        "Show &hidden files": ("숨긴 파일 표시(&H)", "显示隐藏文件(&H)"),
        "&New Folder": ("새 폴더(&N)", "新建文件夹(&N)"),
        "New Folder": ("새 폴더", "新建文件夹"),
        "Recent Places": ("최근 위치", "最近访问的位置"),
        "My Computer": ("내 컴퓨터", "我的电脑"),
        "Computer": ("컴퓨터", "计算机"),
        "Directory:": ("폴더:", "文件夹："),
        "File": ("파일", "文件"),
        "File Folder": ("파일 폴더", "文件夹"),
        "Folder": ("폴더", "文件夹"),
        "Alias": ("별칭", "别名"),
        "Shortcut": ("바로 가기", "快捷方式"),
        "Unknown": ("알 수 없음", "未知"),
    },
    "QFileSystemModel": {
        "Name": ("이름", "名称"),
        "Size": ("크기", "大小"),
        "Type": ("형식", "类型"),
        "Kind": ("종류", "种类"),
        "Date Modified": ("수정한 날짜", "修改日期"),
        "My Computer": ("내 컴퓨터", "我的电脑"),
        "Computer": ("컴퓨터", "计算机"),
    },
}
