"""Language identification: langdetect, seeded, corrected by what the script makes certain.

langdetect alone is random unless seeded and calls kanji-only Japanese Chinese,
so the script decides wherever it can: any kana means Japanese, Hangul means
Korean, Han without kana means Chinese (simplified or traditional kept as the
variant). langdetect speaks for text without CJK characters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from langdetect import DetectorFactory, LangDetectException, detect_langs

DetectorFactory.seed = 0

_KANA = re.compile(r"[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9d]")
_HANGUL = re.compile(r"[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")
# Characters that exist in only one of the two Chinese scripts, enough to tell a
# paragraph's variant without a model.
_SIMPLIFIED_ONLY = set("这们来对为发开关个说时国会过还进后长见现问间实体经东车马书区气电话让认该语请读边运选达网页显级结给约统导类业专从众优传"
                       "员图场处备头学宁宝实将尽层币师带帮广应废张录态总战户扩执护报择拥换损据构样标档桥梦检"
                       "欢汇汉沟没测济点热爱猎环现织细终经绝继续维网罗职联脑节苏虑补规视览觉计订认讨让训记讲许论设访证评识译试话该详语请读调谈负质购贵费资赛赶车软载较辑输边达过运还这进远连选递通逻"
                       "释里钟钱铁银链锁错键长门问间队阶际随隐难页顶项顺须领频题颜风飞馈验高")
_TRADITIONAL_ONLY = set("這們來對為發開關個說時國會過還進後長見現問間實體經東車馬書區氣電話讓認該語請讀邊運選達網頁顯級結給約統導類業專從眾優傳"
                        "員圖場處備頭學寧寶將盡層幣師帶幫廣應廢張錄態總戰戶擴執護報擇擁換損據構樣標檔橋夢檢"
                        "歡匯漢溝沒測濟點熱愛獵環織細終絕繼續維羅職聯腦節蘇慮補規視覽覺計訂討訓記講許論設訪證評識譯試詳調談負質購貴費資賽趕軟載較輯輸遠連遞通邏"
                        "釋裡鐘錢鐵銀鏈鎖錯鍵門隊階際隨隱難頂項順須領頻題顏風飛饋驗")
# Simplified and traditional characters that modern Japanese never writes (it has its own
# forms: 対 not 对/對, 発 not 发/發, 説 not 说/說); those Japanese shares (語, 話, 計...) are left out.
_CHINESE_NOT_JAPANESE = set("这们么吗呢说还让给过对发现进时该从视觉计讲论设证评识译试话语请读调谈谁"
                            "训练网络应实经开关门间问长东车马书气电图处头专业优传员节术务产动"
                            "這們麼嗎說讓對發從讀譯證覺體與會國學來經關實點數據雙當團廣應邊變舊"
                            "區擇條號價檔裡傳圖處專氣將產")
_CHINESE_MARKERS_MIN = 2
_SCRIPT_CONFIDENCE_MIN_CHARS = 20
# Japanese prose is a fifth kana or more; a few kana in Chinese text are a quoted name.
_KANA_SHARE_FOR_JAPANESE = 0.05
# langdetect guesses wildly on a few Latin tokens ("H100" is Vietnamese to it); such
# fragments are product names and numbers, which read as English.
_MIN_WORDS_FOR_LANGDETECT = 4
_WORD = re.compile(r"[A-Za-z]{2,}")


@dataclass(frozen=True)
class LanguageGuess:
    lang: str
    confidence: float
    variant: str | None = None


def chinese_variant(text: str) -> str:
    """'zh-Hans' or 'zh-Hant' by counting script-specific characters (ties: simplified)."""
    simplified = sum(char in _SIMPLIFIED_ONLY for char in text)
    traditional = sum(char in _TRADITIONAL_ONLY for char in text)
    return "zh-Hant" if traditional > simplified else "zh-Hans"


# Segments repeat across a corpus and are worth caching; whole documents are not, and
# 4,096 cached multi-megabyte texts would hold gigabytes.
_CACHE_MAX_CHARS = 2000


def _langdetect(text: str) -> LanguageGuess:
    return _langdetect_cached(text) if len(text) <= _CACHE_MAX_CHARS else _langdetect_uncached(text)


def _langdetect_uncached(text: str) -> LanguageGuess:
    try:
        best = detect_langs(text)[0]
    except LangDetectException:
        return LanguageGuess("und", 0.0)
    lang = best.lang
    if lang.startswith("zh"):
        return LanguageGuess("zh", best.prob, "zh-Hant" if lang == "zh-tw" else "zh-Hans")
    return LanguageGuess(lang, round(best.prob, 4))


_langdetect_cached = lru_cache(maxsize=4096)(_langdetect_uncached)


def _script_confidence(decisive: int, total: int) -> float:
    """How sure the script rule is: decisive characters as a share, saturating on long text."""
    coverage = min(1.0, total / _SCRIPT_CONFIDENCE_MIN_CHARS)
    return round(min(1.0, 0.5 + 0.5 * coverage * min(1.0, decisive / max(total, 1) * 4)), 4)


def detect_language(text: str, context: str | None = None) -> LanguageGuess:
    """Language of `text`; `context` (the document's language) settles Han-only fragments."""
    kana, hangul, han = (len(p.findall(text)) for p in (_KANA, _HANGUL, _HAN))
    cjk = kana + hangul + han
    if cjk == 0:
        if not _LATIN.search(text):
            return LanguageGuess(context or "und", 0.0)
        if len(_WORD.findall(text)) < _MIN_WORDS_FOR_LANGDETECT:
            return LanguageGuess("en", 0.5)
        return _langdetect(text)
    if hangul > kana and hangul >= han * 0.5:
        return LanguageGuess("ko", _script_confidence(hangul, cjk))
    if kana and kana >= _KANA_SHARE_FOR_JAPANESE * (kana + han):
        return LanguageGuess("ja", _script_confidence(kana, cjk))
    if context == "ja" and sum(char in _CHINESE_NOT_JAPANESE for char in text) < _CHINESE_MARKERS_MIN:
        # Kanji-only fragments ("安定版", headings) inside a Japanese article are Japanese;
        # a sentence full of characters Japanese never writes (这, 們, 说) is quoted Chinese.
        return LanguageGuess("ja", 0.6)
    return LanguageGuess("zh", _script_confidence(han, cjk), chinese_variant(text))
