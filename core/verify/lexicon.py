"""Word lists of the offline judge: general English (and a few Chinese) words, not tuned to any
corpus. Negation cues, antonym pairs (polarity), synonym groups (the meaning match), titles that
are not part of a name, written-out numbers, and connectives that introduce a reason or an
inference (a claim that adds one the source does not give is unsupported, not partial)."""
from __future__ import annotations

NEGATIONS = frozenset("""
not no never without nothing none nobody nor neither cannot nowhere hardly scarcely barely
lack lacked lacking lacks absent fail failed fails
""".split())
# Chinese negation characters and words, matched as substrings of a CJK run.
ZH_NEGATIONS = ("不", "没", "未", "无", "非", "别", "勿")
# Words that hold a negation character without negating anything.
# Characters after a number that join it to another rather than count something ("1 到 10").
ZH_NOT_UNITS = frozenset("到至和或与及的、—–-~～")
# English negation cues that, with the word after them, negate nothing (the English side of
# ZH_NOT_NEGATIONS: "not only", "no doubt", "no different than" says "the same", "nothing but").
NOT_NEGATING = {
    "not": frozenset("only just merely simply least".split()),
    "no": frozenset("doubt less fewer different".split()),
    "nothing": frozenset("but less".split()),
    "none": frozenset("other".split()),
}
ZH_NOT_NEGATIONS = ("不同", "不断", "不仅", "不只", "不单", "无论", "非常", "未来", "别人", "别的", "无数", "不少", "不久")

# Pairs of opposites (stems compared after core.text.support.stem). Each word maps to its
# opposites; polarity flips when a claim's word meets its opposite in the aligned source text.
_ANTONYM_PAIRS = """
increase decrease; increase decline; increase fall; increase drop; increase reduce; increase cut
rise fall; rise decline; rise drop; rise decrease; grow decline; grow shrink; grow fall;
grow decrease; grow drop; gain loss; gain lose; up down; higher lower; high low; more less;
more fewer; better worse; best worst; above below; ahead behind; ahead below; free fee; free charg; free paid; exceed miss; beat miss;
win lose; won lost; accept reject; accept refuse; agree refuse; agree disagree; allow forbid;
allow prevent; open close; open shut; love hate; like dislike; alive dead; live die; survive die;
include exclude; success failure; succeed fail; strong weak; strength weakness; early late;
expand contract; keep discard; keep drop; retain discard; same different; positive negative;
possible impossible; legal illegal; remember forget; arrive leave; arrive depart; buy sell;
lend borrow; start stop; begin end; true false; rich poor; happy sad; happy unhappy;
warm cold; hot cold; light dark; old young; old new; big small; large small; long short;
fast slow; easy hard; easy difficult; safe dangerous; full empty; friend enemy;
significant insignificant; usual unusual; common rare; often rarely;
always never; everyone nobody; all none; present absent; visible invisible; known unknown;
generous mean; generous stingy; kind cruel; cheerful gloomy; love fear; praise criticize;
profit loss; surplus deficit; first last; public private; publicly privately; internal external; inside outside;
minimum maximum; top bottom; sooner later; before after; wet dry; clean dirty; awake asleep;
increased decreased; up-front later; approve reject; confirm deny; admit deny; support oppose;
welcome reject; missed caught; miss catch; missed kept; remain leave; stay leave;
grew declined; grew fell; grew decreased; grew shrank; grew dropped; rose fell; rose declined;
rose dropped; rose decreased; increased fell; increased dropped; increased declined; gained lost;
grown declined; risen fallen; stronger weaker; strongest weakest; strengthened weakened;
faster slower; quicker slower; quickly slowly; fast slowly; faster slowly; quickly slower;
larger smaller; bigger smaller; greater smaller; greater lesser; earlier later; wider narrower;
richer poorer; older younger; longer shorter; easier harder; most least; more fewer;
accelerate slow; accelerated slowed; expanded contracted; improved worsened; improve worsen;
upside downside; tailwind headwind; add subtract; added subtracted; contributed subtracted; contribute subtract; double shrink; double halve; doubled shrank; doubled halved;
doubled fell; doubled declined; doubled dropped; tripled shrank; tripled fell; tripled declined; optimistic pessimistic; hostile friendly; curious indifferent;
heavy light; heavier lighter; darker brighter; dark bright; darken brighten; darkened brightened; patient impatient;
patience impatience; grateful ungrateful; thankful ungrateful; gratitude ingratitude; willing unwilling; willingly reluctantly;
eager reluctant; bold timid; boldly timidly; confident unsure; certain uncertain; sure unsure; likely unlikely;
interested uninterested; honest dishonest; wise foolish; brave cowardly; loud quiet; louder quieter; cheap expensive;
reluctant willing; reluctantly willingly; unwillingly willingly; gladly reluctantly; gladly unwillingly; melodic unmusical;
content discontent; contented discontented; aware unaware; welcome unwelcome; familiar unfamiliar; harsh gentle;
增加 减少; 上升 下降; 增长 下降; 提高 降低; 保留 丢弃; 保留 删除; 成功 失败; 支持 反对; 接受 拒绝;
扩大 缩小; 高 低; 多 少; 大 小; 开始 结束; 包括 排除; 允许 禁止; 优于 劣于
"""


def _antonyms() -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for pair in _ANTONYM_PAIRS.replace("\n", " ").split(";"):
        words = pair.split()
        if len(words) != 2:
            continue
        a, b = words
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return {k: frozenset(v) for k, v in out.items()}


ANTONYMS = _antonyms()

# Synonym groups for the meaning match: words of a group count as the same term. General
# English, chosen for the senses analysts' paraphrases use (verbs of saying, change, amount...).
_SYNONYM_GROUPS = """
say tell state declare answer reply respond remark mention note announce explain add cry shout call exclaim
ask question inquire request
give donate contribute offer provide grant hand pay
get receive obtain gain acquire earn
buy purchase
make create build produce construct form craft
begin start launch commence open debut premiere introduce
end finish close conclude stop complete
increase rise grow gain climb jump expand up surge boost soar rocket double triple quadruple
decrease fall decline drop shrink reduce cut down dip slip slump plunge tumble sink halve
big large huge great vast major enormous
small little tiny minor slight
fast quick rapid swift speedy
slow gradual
happy glad cheerful merry joyful pleased delighted
sad unhappy sorrowful gloomy melancholy miserable dismal
angry furious cross irritated annoyed
afraid scared frightened fearful terrified
strange odd weird peculiar unusual curious
old elderly aged ancient
young youthful child boy girl kid youngster
man gentleman fellow person
woman lady
house home dwelling residence
habit custom practice routine usual wont
room chamber office cell
door doorway entrance
look watch see observe view eye glance gaze notice spot
walk go move travel head proceed come
run hurry rush race dash
leave depart exit quit
arrive reach come
help assist aid support
want wish desire like
need require
think believe consider feel suppose reckon
know understand realise realize recognise recognize
show display reveal demonstrate indicate present
use employ utilise utilize apply deploy adopt
choose pick select opt
try attempt seek
keep hold retain maintain preserve store
put place set lay position post station
write copy transcribe record note
read study
company firm business organisation organization enterprise
customer client buyer user
employee staff worker
revenue sales income turnover
profit earnings
cost expense spending spend
money cash fund funds
price cost charge fee
quarter period
year annual yearly
expect anticipate forecast predict project
result outcome
strong robust solid healthy
weak soft poor
cloud azure
chief main principal primary key leading top
important significant crucial critical vital
problem issue difficulty trouble challenge
idea notion concept thought
answer response reply
die perish pass
dead deceased
kill slay murder
rich wealthy
poor needy destitute
mean stingy miserly
kind generous benevolent charitable
fire flame blaze
coal fuel
speak talk converse chat
hear listen overhear
laugh chuckle giggle
cry weep sob
shake tremble shiver quiver
grave tomb headstone stone
ghost spirit phantom spectre specter apparition
name title
end conclusion
night evening
day daytime
morning dawn
food meal dinner supper
drink toast
party ball celebration feast festivity
celebrate celebrate commemorate
tell inform
agree consent accept
refuse decline reject
promise pledge vow
lose misplace
find discover uncover
similar alike like
same identical equal
different distinct
nearly almost roughly about approximately around
more over exceed surpass top beyond above
less under below fewer
entire whole complete full
part portion share piece
lot many numerous plenty
every each all
flat level stable steady
model system
build develop
问题 难题
使用 采用 利用
方法 方式
"""


def _synonyms() -> dict[str, str]:
    from core.text.support import stem
    out: dict[str, str] = {}
    for line in _SYNONYM_GROUPS.strip().splitlines():
        words = line.split()
        if not words:
            continue
        head = stem(words[0]) if words[0].isascii() else words[0]
        for w in words:
            key = stem(w) if w.isascii() else w
            out.setdefault(key, head)
    return out


SYNONYMS = _synonyms()

# Words before a name that are not part of it.
TITLES = frozenset("""
mr mrs ms miss master madam madame dr doctor sir lady lord st saint prof professor rev captain
capt old young little uncle aunt mister monsieur mme mlle president ceo cfo cto general
""".split())

# Capitalised words that start sentences or headings without being names (besides the stop
# words of core.textutil).
NOT_NAMES = frozenset("""
i the a an this that these those it its he she they we you his her their our my your there here
what when where why how who which while if as at in on of for to by with from but and or so yet
all some many most each every one two three four five six seven ten first second third last next
thanks thank yes no yeah okay oh well actually look so again also
""".split())

# Written-out numbers.
UNITS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
         "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
         "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
         "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
         "seventy": 70, "eighty": 80, "ninety": 90, "dozen": 12, "score": 20}
SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000,
          "trillion": 1_000_000_000_000, "k": 1_000, "m": 1_000_000, "bn": 1_000_000_000}
FRACTIONS = {"half": 0.5, "quarter": 0.25, "third": 1 / 3}
# the denominators of "three-fourths", "two thirds", "three quarters" (a share, like "75%")
DENOMINATORS = {"halves": 2, "thirds": 3, "quarters": 4, "fourths": 4, "fifths": 5, "sixths": 6,
                "eighths": 8, "tenths": 10}
# plurals a stemmer leaves apart from their singular ("two children" counts what "one child" does)
IRREGULAR_PLURALS = {"children": "child", "people": "person", "men": "man", "women": "woman",
                     "feet": "foot", "teeth": "tooth", "mice": "mouse", "geese": "goose"}
# what a duration counts, in days: "twelve months" is "a year", "18 months" is not "two years"
DURATIONS = {"minut": 1 / 1440, "hour": 1 / 24, "day": 1.0, "week": 7.0, "month": 30.4375, "year": 365.25,
             "decad": 3652.5, "centuri": 36525.0}
# words between a count and what it counts ("two other women", "three more calls")
COUNT_ADJECTIVES = frozenset({"other", "more", "fewer", "less", "additional", "extra", "further", "separate", "different",
                              "new", "whole", "full", "entire"})
# Collective numerals: the noun is the group it counts ("the trio moved deeper": three).
COLLECTIVES = {"duo": 2, "trio": 3, "threesome": 3, "quartet": 4, "foursome": 4, "quintet": 5, "sextet": 6}
ZH_DIGITS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
             "八": 8, "九": 9, "十": 10, "百": 100, "千": 1000, "万": 10_000, "亿": 100_000_000}

# Connectives that introduce a reason, purpose, inference or consequence.
# Words by which a text says one thing follows from another (a claim's reason or inference needs one).
CAUSE_CUE = __import__("re").compile(
    r"\b(?:because|since|so|thus|therefore|hence|consequently|driven|drive|drives|due|thanks|owing|courtesy|"
    r"result|results|resulted|resulting|lead|leads|led|cause|causes|caused|reason|reasons|why|how|made|make|"
    r"makes|means|meant|mean|shows|showed|show|proves|proved|prove|indicates|suggests|given|enabled|enables|"
    r"helped|helps|fueled|fuelled|reflecting|reflects|behind|order)\b|[;,]\s*for\b|因为|由于|所以|因此|导致|使得|从而",
    __import__("re").I)
# Phrases by which a sentence draws an inference.
INFERENCE = ("shows that", "showing that", "which shows", "proves", "proved that", "proving", "means that",
             "meaning that", "which means", "suggests that", "indicates that", "demonstrates that",
             "implies", "is evidence that", "表明", "说明", "证明")
CAUSAL: tuple[str, ...] = ("because", "since it", "so that", "in order to", "due to", "owing to", "thanks to",
          "which shows", "shows that", "showing that", "proves", "proving", "means that",
          "meaning that", "which means", "suggests that", "indicates that", "demonstrates that",
          "as a result", "therefore", "thus", "hence", "led to", "leading to", "caused",
          "in order", "only because", "out of fear", "making it", "making them", "making him", "making her",
          "which made", "which makes", "resulting in", "thereby", "因为", "所以", "因此", "导致", "表明", "说明",
          # a purpose is a reason too ("..., 目的是降低调用成本", "in an effort to")
          "so as to", "in an effort to", "with the aim of", "aimed at", "the main reason", "the reason",
          "目的是", "为的是", "为了", "以便", "旨在",
          # a consequence, motive or inference said with a relative or a participle ("..., which is
          # why she insisted", "..., prompting Microsoft to cut prices", "hoping that", "proof that")
          "which is why", "that is why", "is why", "which is what", "is what led", "is what made", "prompting",
          "to make up for", "in the hope", "hoping to", "hoping that", "proof that", "a sign that",
          "that shows", "signalling that", "signaling that")
CAUSAL = CAUSAL + tuple(c for c in INFERENCE if c not in CAUSAL)  # every inference is a reason clause too
