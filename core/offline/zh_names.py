"""Foreign names in Chinese text, which jieba's dictionary rarely holds whole: Chinese writes them
by sound, with a small set of characters, and its parts joined by a middle dot.

- "拉里·佩奇", "萨姆·奥尔特曼": parts joined by the dot are one person, whatever jieba tagged
  its parts (FULL_NAME);
- "忒" "勒" "马科斯", "奥德修" "斯": adjacent pieces jieba cut apart, each written only with the
  characters Chinese uses to spell foreign sounds, one of them tagged a name or a place, are one
  name; a word of three such characters or more is one whatever jieba tagged it ("阿喀琉斯")
  (FOREIGN_NAME, or FOREIGN_PLACE where jieba tags only a place).
Everyday words are written with other characters too ("利用", "普通", "亚洲"), so they are left
alone; two characters ("哈希", hash; "拜登") are left to jieba's tags and dictionary.
"""
from __future__ import annotations

from core.textutil import has_cjk

DOT = "\u00b7\u2022\u30fb\u2027"  # the middle dot between the parts of a foreign name
FULL_NAME = "full name"        # flags of our own, beside jieba's: parts joined by the dot, one person
FOREIGN_NAME = "foreign name"  # a name spelled by sound
FOREIGN_PLACE = "foreign place"
PERSON_FLAGS = ("nr", "nrt", "nrfg")

# the characters Chinese spells foreign sounds with (persons and places: 阿喀琉斯, 华盛顿, 默克尔)
SOUNDS = frozenset(
    "阿埃艾爱安昂奥澳巴拜班邦贝本比彼毕宾波伯泊博布査查达戴黛丹德登迪蒂丁杜顿多厄恩尔耳法凡范菲费芬丰"
    "佛弗福伏盖甘冈戈格哥古瓜圭哈海汉豪赫亨胡华霍基吉加迦嘉杰捷金喀卡凯坎康柯科克肯库夸奎昆拉腊莱赖兰朗"
    "劳勒雷蕾黎里丽利莉连廉列林琳领留琉柳卢鲁陆路伦罗洛玛马麦迈曼芒梅门蒙孟米密敏摩莫墨默姆穆拿纳娜乃"
    "南瑙内妮尼涅宁纽努诺欧帕潘庞佩彭皮珀普齐奇乔切钦琴琼丘屈瑞若萨塞赛桑瑟森沙莎珊尚舍圣施什史斯荷柏"
    "松苏索塔泰坦汤唐陶特提汀图托瓦宛旺威韦维温翁沃乌伍武西希锡夏谢辛休修雅亚扬耶伊英尤"
    "约泽扎詹兹忒宙冬京龙忒")


def _sounded(word: str) -> bool:
    return bool(word) and all(ch in SOUNDS for ch in word)


def zh_name_tokens(toks: list[tuple[str, str, int]]) -> list[tuple[str, str, int]]:
    """jieba's (word, flag, start) tokens, with the pieces of each foreign name joined into one
    token flagged FULL_NAME, FOREIGN_NAME or FOREIGN_PLACE (see the module docstring)."""
    out: list[tuple[str, str, int]] = []
    i = 0
    while i < len(toks):
        word, flag, at = toks[i]
        j = i
        while j + 2 < len(toks) and toks[j + 1][0] in DOT and has_cjk(toks[j + 2][0]) \
                and len(toks[j + 2][0]) <= 5 and has_cjk(toks[j][0]) and len(toks[j][0]) <= 5:
            j += 2
        if j > i:  # "拉里·佩奇"
            out.append(("".join(t[0] for t in toks[i:j + 1]), FULL_NAME, at))
            i = j + 1
            continue
        # adjacent pieces spelled by sound, one of them tagged a name or a place ("忒" "勒" "马科斯"), or
        # a name jieba cut in two ("奥德修" "斯")
        k = i
        while k + 1 < len(toks) and toks[k + 1][2] == toks[k][2] + len(toks[k][0]) and has_cjk(toks[k + 1][0]) \
                and sum(len(t[0]) for t in toks[i:k + 2]) <= 6 and (
                    (_sounded(toks[k][0]) and _sounded(toks[k + 1][0]))
                    or (toks[k][1] in PERSON_FLAGS and toks[k + 1][1] in PERSON_FLAGS
                        and min(len(toks[k][0]), len(toks[k + 1][0])) == 1)):
            k += 1
        flags = {t[1] for t in toks[i:k + 1]}
        named = bool(flags & {*PERSON_FLAGS, "ns"})
        if k > i and not named:
            k = i  # sounds alone, no piece jieba knows as a name: ordinary words
        name = "".join(t[0] for t in toks[i:k + 1])
        if _sounded(name) and len(name) >= 3 and (named or k == i):
            out.append((name, FOREIGN_PLACE if flags == {"ns"} else FOREIGN_NAME, at))
        elif k > i:
            out.append((name, "nr", at))
        else:
            out.append((word, flag, at))
        i = k + 1
    return out
