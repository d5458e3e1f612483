"""Finding entity mentions in one Chinese sentence, for the offline engine (core/offline/engine.py):
jieba's part-of-speech tagger with guards and organisation/place suffixes, foreign names joined
across jieba's cuts (core/offline/zh_names.py), plus Latin names written in Chinese text (an
English phrase inside it is read by core/offline/mentions.en_mentions)."""
from __future__ import annotations

import logging
import re
import threading

from core.offline.mentions import KNOWN_ORGS, ORG_WORDS, WORD, Mention, en_mentions, masked_sentence, word_set
from core.offline.zh_names import FOREIGN_NAME, FOREIGN_PLACE, FULL_NAME, zh_name_tokens
from core.text.wordnet import common_noun, english_word, verb_only
from core.textutil import STOPWORDS, has_cjk

ZH_ORG_SUFFIX = word_set("集团 公司 研究院 研究所 大学 学院 实验室 银行 委员会 协会 基金会 医院 政府 法院 "
                     "部 局 科技 团队 联盟 中心")
ZH_GENERIC = word_set("交易所 上市公司 公司 集团 政府 银行 大学 医院 法院 研究院 研究所 实验室 委员会")
ZH_SURNAMES = frozenset("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏"
                        "魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵"
                        "万钱严覃武戴莫孔向汤欧")
ZH_PLACE_SUFFIX = tuple("省市县区镇村州国山河湖海岛路街港湾")
ZH_LOCATIVE = word_set("在 到 去 于 位于 来自 前往 抵达 从 赴")
ZH_PERSON_CUE = word_set("说 表示 指出 认为 先生 女士 教授 博士 总裁 老师")

_LATIN_SEGMENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ,:;'\u2019&()+./-]*[A-Za-z0-9]|[A-Za-z]")
_LATIN_RUN = re.compile(r"(?<![A-Za-z0-9_])[A-Z][A-Za-z0-9]*(?:[-.+][A-Za-z0-9]+)*"
                        r"(?: [A-Z][A-Za-z0-9]*(?:[-.+][A-Za-z0-9]+)*)*(?![A-Za-z0-9_])")

_jieba_lock = threading.Lock()
_pseg = None


def _jieba():
    """jieba's tagger, initialised once and quietly (it logs to stderr otherwise)."""
    global _pseg
    with _jieba_lock:
        if _pseg is None:
            import jieba
            import jieba.posseg as pseg
            jieba.setLogLevel(logging.WARNING)
            jieba.initialize()
            _pseg = pseg
    return _pseg


def zh_mentions(sentence: str) -> list[Mention]:
    s = masked_sentence(sentence)
    out: list[Mention] = []
    for seg in _LATIN_SEGMENT.finditer(s):
        words = WORD.findall(seg.group(0))
        if len(words) >= 3 and any(w in STOPWORDS for w in words):  # an English phrase or title
            for phrase in en_mentions(seg.group(0)):
                phrase.start, phrase.end, phrase.initial = phrase.start + seg.start(), phrase.end + seg.start(), False
                out.append(phrase)
            continue
        alone = _between_chinese(s, seg.start(), seg.end())
        if alone and _lower_term(words) and seg.group(0) == " ".join(words):
            # "global search 读的是报告": an English term the writer chose over a Chinese one
            out.append(Mention(seg.group(0), seg.start(), seg.end(), strong=True))
            continue
        for m in _LATIN_RUN.finditer(s, seg.start(), seg.end()):  # "Naive RAG" is one name
            w = m.group(0).rstrip(".")
            first, _, rest = w.partition(" ")
            if first.lower() in KNOWN_ORGS and any(ch.isupper() for ch in rest[1:]) and " " not in rest:
                # "Microsoft GraphRAG": the organisation and its product, each a name
                out.append(Mention(first, m.start(), m.start() + len(first), strong=True,
                                   votes={"organization": 3.0}))
                out.append(Mention(rest, m.start() + len(first) + 1, m.start() + len(w), strong=True))
                continue
            if _latin_name(w):
                known = w.lower() in KNOWN_ORGS
                shaped = any(ch.isupper() for ch in w[1:])  # GraphRAG, LLM, DB-GPT
                # "父亲 Laertes、儿子": a capitalised word no English dictionary holds, alone in Chinese text
                foreign = alone and w == seg.group(0) and w.isalpha() and not english_word(w)
                out.append(Mention(w, m.start(), m.start() + len(w), strong=known or shaped or foreign,
                                    lower_check=not (known or shaped or foreign),
                                    votes={"organization": 3.0} if known or _org_head(w) else {}))
    pseg = _jieba()
    toks, pos = [], 0
    for word, flag in pseg.cut(s):
        toks.append((word, flag, pos))
        pos += len(word)
    toks = zh_name_tokens(toks)
    freq = pseg.dt.tokenizer.FREQ
    i = 0
    while i < len(toks):
        word, flag, at = toks[i]
        nxt = toks[i + 1][0] if i + 1 < len(toks) else ""
        prev = toks[i - 1][0] if i else ""
        next_flag = toks[i + 1][1] if i + 1 < len(toks) else ""
        if not has_cjk(word):
            i += 1
            continue
        kind = None
        if nxt in ZH_ORG_SUFFIX and len(word) >= 2 and (flag[:1] in "nj" or word in KNOWN_ORGS) \
                and word not in ZH_ORG_SUFFIX:
            word, kind = word + nxt, "organization"
            i += 1
        elif word in KNOWN_ORGS:
            kind = "organization"
        elif flag == "nt" and len(word) >= 3 and word not in ZH_GENERIC:
            kind = "organization"
        elif flag == "ns" and len(word) >= 2 and (_place_shaped(word) or (
                prev in ZH_LOCATIVE and not next_flag.startswith("n"))):
            kind = "geo"
        elif flag in (FULL_NAME, FOREIGN_NAME):
            kind = "person"
        elif flag == FOREIGN_PLACE:
            kind = "geo"
        elif flag in ("nr", "nrt", "nrfg") and len(word) >= 2 and (nxt in ZH_PERSON_CUE or (
                freq.get(word, 0) < 100 and (len(word) >= 3 or word[0] in ZH_SURNAMES))):
            kind = "person"
        if kind:
            out.append(Mention(word, at, at + len(word), strong=True, votes={kind: 3.0}))
        i += 1
    out.sort(key=lambda m: m.start)
    return out


_CHINESE_EDGE = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


def _between_chinese(s: str, a: int, b: int) -> bool:
    """Does the Latin run (a whole run of Latin text) stand in Chinese text: Chinese within three
    characters of it? An English phrase quoted in running English makes a longer run."""
    return bool(_CHINESE_EDGE.search(s[max(0, a - 3):a] + s[b:b + 3]))


def _lower_term(words: list[str]) -> bool:
    """Two or three lower-case English words naming a thing ("global search", "entry points"), not
    a clause ("story revolves")."""
    return 2 <= len(words) <= 3 and all(w.isalpha() and w.islower() and len(w) >= 3 and w not in STOPWORDS
                                        for w in words) \
        and common_noun(words[-1]) and not verb_only(words[0])


def _place_shaped(word: str) -> bool:
    """北京市, 杭州, 美国: a place suffix after a name, not 上市 or 城市."""
    return word.endswith(ZH_PLACE_SUFFIX) and (len(word) >= 3 or word[-1] in "国州省")


def _org_head(name: str) -> bool:
    return " " in name and name.rsplit(" ", 1)[1].lower().rstrip(".") in ORG_WORDS


def _latin_name(w: str) -> bool:
    """A Latin-script word inside Chinese text that names something: GraphRAG, DB-GPT, Leiden,
    LLM; not code identifiers (camelCase starting lower case) or common English words."""
    if sum(ch.isalpha() for ch in w) < 2 or not w[0].isupper() or w.lower() in STOPWORDS:
        return False
    return any(ch.isupper() for ch in w[1:]) or len(w) >= 3
