"""The offline global answer as a list of themes (no model).

One theme per community whose report the map step scored, in the order of the map scores:
- a title from the community's central entities (by degree) and its distinctive words: words
  frequent in the sentences that name the community's entities and rare across the corpus's
  text units (tf x idf), so "Christmas" or "said", which are everywhere, name no theme; names
  and the question's own broad words ("themes", "story") are left out of the words;
- the one or two most central sentences of the community that bear on the question: centrality
  = the community's distinctive weight of the sentence's words, plus the community's entities it
  names, plus (when the question has words beyond the broad ones) its BM25 match with them; each
  quoted from its text unit with `[Data: Sources (u)]` (the report is named by number: a report
  reference would have the verifier read the whole community's text);
- near-duplicates merged (same central entities, or the same words and sentence), boilerplate
  and metadata never quoted (core/offline/sentence_rank.py), no sentence in two themes.
The answer opens with one line saying how many themes were found in how many reports and that
it is extractive. Chinese questions get the Chinese wording.
"""
from __future__ import annotations

import functools
import math
import re
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Protocol

from core.offline.reports import display_name
from core.offline.mentions import SPEAKER_LABEL, SPEECH, ly_adverb
from core.offline.sentence_rank import (Sentence, heading_of, in_language_of, name_pattern, rank, sentence_terms,
                                        unit_sentences)
from core.text.lexical import cite, terms
from core.text.wordnet import bases_of, common_noun, relational_adjective, verb_only
from core.store.db import Store
from core.textutil import has_cjk, normalize_title
from core.tokens import count_tokens


class Point(Protocol):
    """A scored map point (core.query.types.Point): what themes read of it."""
    description: str
    score: int
    report_ids: list[int]


# words a theme title never consists of: the question's framing and narrative filler
BROAD = frozenset(terms("""theme themes topic topics main top key major overall story stories
    document documents text texts corpus book novel article articles summary summarize summarise
    about discuss discussed discusses covered cover deal primarily mostly involved people person
    happen happens what which who overview general whole entire"""))
FILLER = frozenset(terms("""said says say would could should upon like one two little much many well
    know knew come came went gone made make makes good great old new long look looked looking time
    times thing things man men woman way back down even never ever always still yet again though
    think thought must shall might own first last every quite rather away hand hands head eyes eye
    face day days night dear sir yes oh ah get got go going see saw seen take took give gave let
    tell told just also may now then there here very more most such only other another same
    something nothing anything everything someone anyone everyone moment place part kind sort
    year years word words voice seemed seem seems felt feel turned turn left right round young side
    replied cried january february march april may june july august september october november
    december monday tuesday wednesday thursday friday saturday sunday""")) | BROAD | frozenset(terms(" ".join(SPEECH)))


# words about the document or the event itself, not what it is about: a call's or a show's
# running order ("That wraps up the Q&A portion", "Thank you for listening", "the slide deck")
# (and who is on it: "chief executive officer, ... deputy general counsel")
META = frozenset(terms("""call calls conference question questions operator slide slides deck release replay
    webcast website investor relations thank thanks welcome host cohost listener listening show episode podcast
    guest today join joining forward looking statement statements filing filings portion wrap line lines
    chief executive officer financial accounting deputy general counsel vice president"""))


def meta_share(text: str, names: set | frozenset = frozenset()) -> float:
    """The share of a sentence's words (its citation, names and filler aside) that speak of the
    document or the event itself."""
    ts = [t for t in terms(re.sub(r"\[Data:[^\]]*\]", " ", text)) if t not in names and (t not in FILLER or t in META)]
    return sum(t in META for t in ts) / len(ts) if ts else 0.0


@dataclass
class Theme:
    title: str
    sentences: list[str] = field(default_factory=list)
    report: int | None = None
    score: int = 0
    key_entities: frozenset = frozenset()
    words: tuple = ()
    topic: str = ""          # the section heading or phrase the title is named for
    plain_title: str = ""    # the title from its names and words alone


_cache: dict[tuple, tuple[int, Counter]] = {}
DF_SAMPLE = 300     # text units read for the corpus's word frequencies
THEME_UNITS = 30    # text units read per theme: those naming most of its entities
SAYS_SOMETHING = 8  # words of the longest quote of a theme that says something
_cache_lock = threading.Lock()


def _unit_df(store: Store) -> tuple[int, Counter]:
    """(number of text units, document frequency of each term over them, and of each section
    (core.offline.themes._section) under ("section", title)), cached per workspace state."""
    n, last = store.count("text_units"), store.newest("text_units", "human_readable_id")
    key = (str(getattr(store, "path", id(store))), n, last)
    with _cache_lock:
        if key in _cache:
            return _cache[key]
    df: Counter = Counter()
    step = max(1, n // DF_SAMPLE)  # a large corpus: an even sample of its units, scaled
    rows = store.rows("text_units", f"(human_readable_id % {step}) = 0", select="text, headings") if step > 1 \
        else store.rows("text_units", select="text, headings")
    for u in rows:
        df.update(set(terms(u.get("text") or "")))
        if isinstance(u.get("headings"), list) and (section := _section(u["headings"])):
            df[("section", section)] += 1  # how much of the corpus a section holds
    if step > 1:
        scale = n / max(1, len(rows))
        df = Counter({t: f * scale for t, f in df.items()})
    with _cache_lock:
        _cache.clear()
        _cache[key] = (n, df)
    return n, df


@functools.lru_cache(maxsize=50000)
def _word_terms(word: str) -> tuple[str, ...]:
    return tuple(terms(word))


def _in(column: str, n: int) -> str:
    return f"{column} in ({','.join('?' * n)})"


def _names(ent: dict) -> list[str]:
    out = [ent["title"], display_name(ent["title"], ent)]
    out += [a for a in (ent.get("aliases") or []) if isinstance(a, str)]
    return out


def build_themes(store: Store, question: str, points: list[Point], max_themes: int = 8) -> tuple[list[Theme], int]:
    """The themes of the scored reports (best first) and how many reports they came from."""
    best: dict[int, int] = {}
    for p in points:
        for r in p.report_ids:
            best[r] = max(best.get(r, 0), p.score)
    if not best:
        return [], 0
    ids = list(best)
    reports = store.rows("community_reports", _in("human_readable_id", len(ids)), ids)
    reports.sort(key=lambda r: (-best[int(r["human_readable_id"])], -float(r.get("rating") or 0),
                                r["human_readable_id"]))
    comm_ids = [int(r["community"]) for r in reports]
    comms = {int(c["community"]): c for c in store.rows("communities", _in("community", len(comm_ids)), comm_ids)}
    n_units, df = _unit_df(store)
    zh = has_cjk(question)
    all_name_terms = set()
    ent_rows: dict[str, dict] = {}
    wanted = list({e for c in comms.values() for e in (c.get("entity_ids") or [])})
    for e in store.by_ids("entities", wanted):
        ent_rows[e["id"]] = e
    # names are no theme words: the communities' own, and every typed name in the corpus (a
    # repeated noun phrase such as "chemical spill", type other, may name a theme)
    for e in [*ent_rows.values(), *store.rows("entities", "type != 'other'", select="title, aliases")]:
        for n in [e["title"], *[a for a in (e.get("aliases") or []) if isinstance(a, str)]]:
            all_name_terms.update(_word_terms(n.lower()))
    themes: list[Theme] = []
    empty: list[Theme] = []
    used: set[str] = set()
    for rep in reports[:3 * max_themes]:
        if len(themes) >= max_themes:
            break
        comm = comms.get(int(rep["community"]))
        if not comm:
            continue
        ents = sorted((ent_rows[i] for i in comm.get("entity_ids") or [] if i in ent_rows),
                      key=lambda e: (-(e.get("degree") or 0), e["human_readable_id"]))
        theme = _theme(store, question, rep, list(comm.get("text_unit_ids") or []), ents, [], n_units, df,
                       all_name_terms, used, zh)
        if theme is None:
            continue
        theme.score = best[int(rep["human_readable_id"])]
        if any(_same(theme, t) for t in themes + empty):
            continue
        if _says_nothing(theme, all_name_terms):
            empty.append(theme)  # another community takes its place
            continue
        themes.append(theme)
    if len(themes) < 3:  # few communities: their strongest ties are themes too (clusters of the points)
        by_title = {e["title"]: e for e in ent_rows.values()}
        for rep in reports:
            comm = comms.get(int(rep["community"]))
            rel_ids = list((comm or {}).get("relationship_ids") or [])
            rels = sorted(store.by_ids("relationships", rel_ids), key=lambda r: (-float(r.get("weight") or 0),
                                                                                r["human_readable_id"]))
            for r in rels[:6]:
                if len(themes) >= 5:
                    break
                pair = [by_title.get(r["source"]), by_title.get(r["target"])]
                if None in pair or any(t.key_entities == frozenset(e["id"] for e in pair) for t in themes):
                    continue
                units = [u for u in pair[0].get("text_unit_ids") or [] if u in set(pair[1].get("text_unit_ids") or [])]
                theme = _theme(store, question, rep, units, pair, pair, n_units, df, all_name_terms, used, zh)
                if theme is not None and not any(_same(theme, t) for t in themes):
                    theme.score = best[int(rep["human_readable_id"])]
                    themes.append(theme)
    # themes quoting only the running order of the event come last, where they are kept at all
    themes += empty[:max(0, 3 - len(themes))]
    # a heading that would title several themes is the document's (a news story's headline), not
    # what sets one theme apart: those themes keep the titles their names and words give
    shared = Counter(t.topic for t in themes if t.topic)
    for t in themes:
        if t.topic and shared[t.topic] > 1:
            t.title, t.topic = t.plain_title, ""
    return themes, len(reports)


_BACK_MATTER = re.compile(r"^\s*(?:\d+[.)]?\s*)?(?:acknowledge?ments?|thanks|credits|references|footnotes|notes|"
                          r"copyright|licen[cs]e|change ?log|revision history|version history|see also|"
                          r"further reading|bibliography|citations?)\s*:?\s*$", re.I)


def _says_nothing(theme: Theme, names: set) -> bool:
    """A theme quoting only the running order of the event ("That wraps up the Q&A portion") or
    greetings ("HEATHER BELLINI, Goldman Sachs: Great"): nothing the corpus is about."""
    return min((meta_share(q, names) for q in theme.sentences), default=0.0) >= 0.2 or \
        all(_words(re.sub(r"\[Data:[^\]]*\]", "", q)) < SAYS_SOMETHING for q in theme.sentences)


def _words(text: str) -> int:
    """Words of a sentence, two Chinese characters counting as one."""
    return len(re.findall(r"[A-Za-z0-9'\u2019-]+", text)) + len(re.findall(r"[\u4e00-\u9fff]", text)) // 2


def _same(a: Theme, b: Theme) -> bool:
    if a.key_entities and a.key_entities == b.key_entities:
        return True
    return len(set(a.words) & set(b.words)) >= 2 and bool(a.key_entities & b.key_entities)


def _theme(store: Store, question: str, rep: dict, unit_ids: list[str], ents: list[dict], require: list[dict],
           n_units: int, df: Counter, name_terms: set, used: set[str], zh: bool) -> Theme | None:
    """One theme from the sentences of these units naming the entities (all of `require`)."""
    if len(unit_ids) > THEME_UNITS:  # the units naming most of its central entities
        pos = {u: i for i, u in enumerate(unit_ids)}
        count = Counter(u for e in ents[:12] for u in (e.get("text_unit_ids") or []) if u in pos)
        unit_ids = sorted(unit_ids, key=lambda u: (-count.get(u, 0), pos[u]))[:THEME_UNITS]
    units = store.by_ids("text_units", unit_ids)
    sents = in_language_of(question, unit_sentences(units))
    # a document's back matter (its thanks, references, notes) says who helped, not what it is about
    by_id = {u["id"]: u for u in units}
    sents = [s for s in sents if not _BACK_MATTER.match(heading_of(by_id[s.unit_id], s.text))] or sents
    for e in require:
        need = name_pattern(_names(e))
        sents = [s for s in sents if need and need.search(s.text)]
    names = [n for e in ents[:12] for n in _names(e)]
    pat = name_pattern(names)
    mentions = [len({m.group(0).lower() for m in pat.finditer(s.text)}) if pat else 0 for s in sents]
    pool = [(s, k) for s, k in zip(sents, mentions) if k] or [(s, 0) for s in sents]
    if not pool:
        return None
    # distinctive words of the community: frequent in its sentences, rare in the corpus
    tf: Counter = Counter()
    surface: dict[str, Counter] = {}
    for s, _ in pool:
        for w in re.findall(r"[A-Za-z][A-Za-z'-]+", s.text):
            for t in _word_terms(w.lower()):
                surface.setdefault(t, Counter())[w.lower()] += 1
        tf.update(sentence_terms(s.text))
    weight = {}
    for t, f in tf.items():
        if t in name_terms or t in FILLER or t in META or f < 2 or (not has_cjk(t) and (len(t) < 4 or not t.isalpha())):
            continue
        weight[t] = f * math.log((n_units + 1) / (df.get(t, 0) + 1) + 1)
    top_words = [t for t, _ in sorted(weight.items(), key=lambda kv: (-kv[1], kv[0])) if t in surface][:3]
    w_max = max(weight.values(), default=1.0)
    # sentence centrality within the community, and relevance to the question's own words
    focus = [t for t in terms(question) if t not in BROAD]
    relevance = {id(s): sc for sc, s in rank(question, [s for s, _ in pool], broad=BROAD)} if focus else {}
    r_max = max(relevance.values(), default=0.0) or 1.0
    scored = []
    for s, k in pool:
        ts = set(sentence_terms(s.text)) - name_terms
        central = sum(weight.get(t, 0.0) for t in ts) / w_max / math.sqrt(len(ts) + 1)
        score = central + 0.3 * min(k, 3)
        if focus:
            score += 1.5 * relevance.get(id(s), 0.0) / r_max
        n_words = len(s.text.split())
        if n_words < 8:
            score *= 0.5
        elif n_words > 40:
            score *= 40 / n_words
        if s.text[:1] in "\"'\u2018\u201c":
            score *= 0.8
        if meta_share(s.text, name_terms) >= 0.2:  # the running order of the call or show, not a theme of it
            score *= 0.3
        scored.append((score, -s.order, s))
    scored.sort(key=lambda x: (x[0], x[1]), reverse=True)
    chosen: list[Sentence] = []
    first = None
    for score, _, s in scored:
        key = re.sub(r"\W+", "", s.text.lower())
        if key in used or score <= 0:
            continue
        if first is not None and score < 0.6 * first:
            break
        first = score if first is None else first
        bag = set(sentence_terms(s.text))
        if any(len(bag & set(sentence_terms(c.text))) > 0.5 * len(bag) for c in chosen):
            continue
        chosen.append(s)
        used.add(key)
        if len(chosen) == 2:
            break
    if not chosen:
        return None
    hrid = int(rep["human_readable_id"])
    # a transcript's speakers ("AMY HOOD:") run through every theme of it: a theme is titled by
    # what they speak of, where its community holds that too
    speakers = {n for u in units for line in (u.get("text") or "").splitlines()
                if (m := SPEAKER_LABEL.match(line)) for n in (normalize_title(m.group("name")),
                                                             normalize_title(m.group("name").split()[0]))}
    spoken_of = [e for e in ents[:6] if normalize_title(e["title"]) not in speakers]
    lead = [display_name(e["title"], e) for e in (spoken_of if speakers and spoken_of else ents)[:2]]
    # the words that title it where no phrase does: what it is about, not what was done ("mentioned")
    words = [w for w in (surface[t].most_common(1)[0][0] for t in top_words) if not verb_only(w)]
    sents = [s for s, _ in pool]
    # what it is about in the corpus's own words: the section heading most of its units sit under,
    # else the phrase its sentences repeat (or the rarest holding its most distinctive word)
    head = None if zh else _heading_topic(units, df, n_units)
    phrases = None if zh else _phrases(sents, name_terms)
    phrase = None if phrases is None else (_pick_phrase(phrases, df, n_units, set(top_words[:2]))
                                           or _pick_phrase(phrases, df, n_units, set(top_words[:2]), judged=True))
    topic = head or phrase

    def about(t: str) -> str:
        return t[:1].upper() + t[1:] + (f" ({', '.join(lead)})" if lead else "")
    if zh:
        title = plain = "、".join(lead) + ("：" + "、".join(words) if words else "")
    else:
        # plain: should the heading prove the document's (it titles other themes too)
        plain = about(phrase) if head and phrase else " and ".join(lead) + (": " + ", ".join(words) if words else "")
        title = about(topic) if topic else plain
    title = title or (rep.get("title") or "")
    # each quote cites its own text unit, where a click shows it highlighted (the report, which
    # the verifier would read whole, is named by number in the theme's line instead)
    quotes = [cite(s.text, {"Sources": [s.unit]}) for s in chosen]
    return Theme(title=title, sentences=quotes, report=hrid, key_entities=frozenset(e["id"] for e in ents[:2]),
                 words=tuple(top_words), topic=topic or "", plain_title=plain or title)


_PHRASE_WORD = re.compile(r"[A-Za-z][A-Za-z'-]+")


# a part's label, which numbers a part and names no topic: "Chapter 4", "STAVE THREE.", "Part II:"
_LABEL = re.compile(r"^\s*[A-Za-z]+\s+(?:\d+|[IVXLC]+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
                    r"twelve|first|second|third|fourth|fifth|last)\b[.:\s\u2013\u2014-]*", re.I)


_NUMBERING = re.compile(r"^\s*(?:\d+(?:\.\d+)*[.)]?|[A-Z][.)])\s+")  # "2. Locate the Knowledge Graph", "A) Setup"


def _section(headings: list) -> str:
    """A unit's section: its nearest heading, after its parent's when it is one word ("Fields"
    says little alone: "Language Model Selection: Fields"); a part's label ("Chapter 4") is no
    topic and is left out, and so is a heading's number ("2. Locate the Knowledge Graph")."""
    path = [x for x in (_NUMBERING.sub("", _LABEL.sub("", str(h))).strip(" .:-\u2013\u2014") for h in headings) if x]
    if not path:
        return ""
    if len(path) > 1 and len(path[-1].split()) == 1:
        return f"{path[-2]}: {path[-1]}"
    return path[-1]


def _judging(word: str) -> bool:
    """No word to open a topic with: an adjective that judges or measures ("huge", "interesting",
    "best", "detailed") rather than says what kind ("medical", "digital": WordNet relates them to
    a noun), or a word that is no noun ("around")."""
    kinds = {pos for _, pos in bases_of(word)}
    if not kinds or relational_adjective(word):
        return False  # a word WordNet does not know ("coronavirus") is a term of the corpus
    return "a" in kinds or "n" not in kinds


def _heading_topic(units: list[dict], df: Counter, n_units: int) -> str | None:
    """The section heading most of a community's units sit under, if it is no document title."""
    heads = Counter(section for u in units if isinstance(u.get("headings"), list)
                    and (section := _section(u["headings"])))
    if heads:
        head, k = heads.most_common(1)[0]
        # a section that holds half the corpus is the document's title, not what sets this apart
        if (k >= 2 or len(units) == 1) and df.get(("section", head), 0) <= n_units / 2:
            return head
    return None


def _phrase_topic(sents: list[Sentence], name_terms: set, df: Counter, n_units: int,
                  key_words: set = frozenset(), judged: bool = False) -> str | None:
    """The phrase of plain words a community's sentences repeat most and the corpus uses least (or
    the rarest holding one of key_words, where none repeats); judged: one opening with an adjective
    of judgement or size may be it (where no other phrase is)."""
    return _pick_phrase(_phrases(sents, name_terms), df, n_units, key_words, judged)


def _phrases(sents: list[Sentence], name_terms: set) -> tuple[Counter, dict[tuple, Counter], set[tuple]]:
    """The noun phrases of two or three plain words of the sentences ("vector store", "operating
    income", not "remain unaltered"): (in how many text units each is, as terms: a phrase one
    anecdote repeats, "small dog", is no topic; how each is written; those opening with an
    adjective of judgement or size, "huge number")."""
    count: Counter = Counter()
    surface: dict[tuple, Counter] = {}
    judging: set[tuple] = set()
    seen: set[tuple] = set()  # (phrase, unit)
    for s in sents:
        words = [(m.group(0), m.start()) for m in _PHRASE_WORD.finditer(s.text)]
        for n in (2, 3):
            for i in range(len(words) - n + 1):
                ws = [w for w, _ in words[i:i + n]]
                between = s.text[words[i][1]:words[i + n - 1][1]]
                if any(w[:1].isupper() for w in ws) or any(ch in between for ch in ",.;:!?()\"\u201c\u201d"):
                    continue  # a name, or words a comma or a stop keeps apart
                ts = [t for w in ws for t in _word_terms(w.lower())]
                if len(ts) != n or any(t in name_terms or t in FILLER or t in META or len(t) < 3 for t in ts) \
                        or any("'" in w or "\u2019" in w for w in ws) or not common_noun(ws[-1].lower()) \
                        or verb_only(ws[0].lower()) or ly_adverb(ws[0].lower()):
                    continue
                key = tuple(ts)
                if (key, s.unit) not in seen:
                    seen.add((key, s.unit))
                    count[key] += 1
                    surface.setdefault(key, Counter())[" ".join(w.lower() for w in ws)] += 1
                    if _judging(ws[0].lower()):
                        judging.add(key)
    return count, surface, judging


def _pick_phrase(found: tuple[Counter, dict[tuple, Counter], set[tuple]], df: Counter, n_units: int,
                 key_words: set = frozenset(), judged: bool = False) -> str | None:
    """_phrase_topic's choice among the phrases found (_phrases); judged: those of judgement too."""
    count, surface, judging = found

    def rarity(key: tuple) -> float:
        return sum(math.log((n_units + 1) / (df.get(t, 0) + 1) + 1) for t in key) / len(key)
    keys = [key for key in count if judged or key not in judging]
    scored = [(count[key] * rarity(key), key) for key in keys if count[key] >= 2]
    if not scored:
        scored = [(rarity(key), key) for key in keys if set(key) & key_words]
    if not scored:
        return None
    best = max(scored, key=lambda x: (x[0], len(x[1]), x[1]))[1]
    return surface[best].most_common(1)[0][0]


def themes_answer(store: Store, question: str, points: list[Point], answer_tokens: int, level: Any = None) -> str:
    """The offline global answer: a heading line, then one numbered theme per line block."""
    themes, n_reports = build_themes(store, question, points)
    if not themes:
        return ""
    zh = has_cjk(question)
    at = "" if level is None else (f"（第 {level} 层）" if zh else f" at level {level}")
    if zh:
        head = (f"在 {n_reports} 份社区报告{at}中找到 {len(themes)} 个主题。这是摘录式回答：每个主题以其社区的核心实体和"
                "特有词语命名，并引用原文句子；没有模型参与撰写。")
    else:
        head = (f"{len(themes)} theme{'s' * (len(themes) != 1)} found in {n_reports} community "
                f"report{'s' * (n_reports != 1)}{at}. This answer is extractive: each theme is named from its "
                "community's central entities and distinctive words and quotes the source text; no model wrote it.")
    out, used = [head], count_tokens(head)
    for i, t in enumerate(themes, 1):
        sep = "" if zh else " "
        where = (f"（社区报告 {t.report}）" if zh else f" (community report {t.report})") if t.report is not None else ""
        item = f"{i}. **{t.title}**{where} — " + sep.join(t.sentences)
        n = count_tokens(item)
        if i > 1 and used + n > answer_tokens:
            break
        out.append(item)
        used += n
    return "\n\n".join(out)
