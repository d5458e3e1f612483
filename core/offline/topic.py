"""A broad question about one topic, answered offline by what the communities say of it.

"What part does laughter play in the story?", "what did people think about the metaverse?", "How
do these proposals deal with backwards compatibility?" ask about the whole corpus, but about one
thing in it. The communities' themes (core/offline/themes.py) answer what the corpus is about;
this answers where and how the topic comes up: the sentences that name it, grouped by the
community whose passages hold them, each group titled by that community's report, the
communities naming it most first. A topic most passages name is what the corpus is about, and
its themes answer it instead; a topic no passage names is left to the answer that says so.
"""
from __future__ import annotations

import re
from collections import defaultdict

from core.offline.fact_rank import stem
from core.offline.sentence_rank import Sentence, heading_of, in_language_of, unit_sentences
from core.store.db import Store
from core.text.lexical import cite, terms
from core.text.wordnet import bases_of, members_of
from core.textutil import STOPWORDS, has_cjk
from core.tokens import count_tokens

_SAY = (r"(?:say|says|said|saying|think|thinks|thought|feel|feels|felt|talk|talks|talked|speak|speaks|spoke|"
        r"write|writes|wrote|tell|tells|told|learn|learned|argue|argued)")
_TOPIC_FORMS = [
    # "What part does laughter play in the story?"
    re.compile(r"^\s*what (?:part|role) (?:do|does|did) (?P<t>.+?) play\b", re.I),
    # "what did people think about the metaverse?", "What do these proposals have to say about readability?"
    re.compile(r"\b" + _SAY + r"\s+(?:\w+\s+){0,2}?(?:about|of|on)\s+(?P<t>[^?]+?)\s*\??\s*$", re.I),
    # "How do these proposals deal with backwards compatibility?", "How does it fit with Azure?"
    re.compile(r"^\s*how (?:do|does|did|is|are) (?:[\w'-]+ ){0,4}?(?:deal|dealt|cope|fit|fits|tie|ties|relate|relates|"
               r"work|works|handle|handles|approach|approaches|treat|treats)\s+(?:(?:in )?with|into|to)?\s*"
               r"(?P<t>[^?]+?)\s*\??\s*$", re.I),
    # "What keeps coming up about diversity?"
    re.compile(r"\b(?:comes?|came|coming) up (?:about|on|around)\s+(?P<t>[^?]+?)\s*\??\s*$", re.I),
]
# where the question says it asks ("on the call", "in the story"): not the topic
_WHERE = re.compile(r"\s+(?:on|in|across|throughout|during|over|from)\s+(?:the|this|these|those|its|their|all)\s+"
                    r"(?:[\w'-]+\s+){0,2}?(?:calls?|story|book|novel|show|episodes?|podcasts?|documents?|docs|"
                    r"proposals|peps|articles?|pages?|transcripts?|conversations?|year|corpus|text|staves)\b.*$", re.I)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9'-]*")
TOPIC_SHARE = 0.5  # of the passages: a topic named more widely is what the corpus is about
MIN_SENTENCES = 3
MAX_GROUPS = 6
PER_GROUP = 2
MAX_MEMBERS = 24  # kinds of a topic noun looked for in the text


def asked_topic(question: str) -> list[list[str]]:
    """The topic a broad question asks about, as the words of each of its phrases ("laughter":
    [["laughter"]]; "backwards compatibility": [["backwards", "compatibility"]]; "food and
    feasting": [["food"], ["feasting"]]); [] when it asks about none, or about more than short
    phrases."""
    if has_cjk(question or ""):
        return []
    for form in _TOPIC_FORMS:
        m = form.search(question or "")
        if m:
            out = []
            for part in re.split(r"\s*,\s*|\s+(?:and|or)\s+", _WHERE.sub("", m.group("t"))):
                words = [w.lower() for w in _WORD.findall(part) if w.lower() not in STOPWORDS]
                if not 1 <= len(words) <= 3 or len(words) != len(_WORD.findall(_lead_off(part))):
                    return []
                out.append(words)
            return out if len(out) <= 3 else []
    return []


def _lead_off(topic: str) -> str:
    """The topic without its article or possessive ("the metaverse": metaverse)."""
    return re.sub(r"^(?:the|a|an|its|their|his|her|our|this|that|these|those)\s+", "", topic.strip(), flags=re.I)


def _family(word: str) -> str:
    """What a word of the topic and the text share: its stem, its first five letters when longer
    ("laughter", "laughing": laugh; "readability", "readable": reada)."""
    s = stem(word)
    return s[:5] if len(s) >= 6 else s


def _holds(text: str, families: list[str]) -> int:
    have = {_family(w.lower()) for w in _WORD.findall(text)}
    return sum(f in have for f in families)


def topic_answer(store: Store, question: str, answer_tokens: int, level: int | None) -> tuple[str, dict] | None:
    """(answer, what it quoted for the trace), or None when the question asks about no single
    topic, or the topic is named nowhere or almost everywhere."""
    topic = asked_topic(question)
    if not topic:
        return None
    total = store.count("text_units")
    ids: dict[str, None] = {}
    for words in topic:  # the units naming any of its phrases
        rows = store.units_with(" ".join(words), 400)
        if not rows and len(words) > 1:  # not as a phrase: the units holding its rarest word
            rows = min((store.units_with(w, 400) for w in words), key=lambda r: len(r) or 10 ** 9)
        ids.update((r["id"], None) for r in rows)
    if total < 3 or len(ids) > TOPIC_SHARE * total:
        return None
    # a kind of thing ("food") is named in the text by its kinds ("pudding", "goose", "punch")
    members = {words[0]: _members(store, words[0]) for words in topic if len(words) == 1}
    for found in members.values():
        for m in found:
            ids.update((r["id"], None) for r in store.units_with(m, 400))
    if not ids:
        return None
    units = store.by_ids("text_units", list(ids))
    families = [[_family(w) for w in words] for words in topic]
    kinds = {_family(m) for found in members.values() for m in found}
    sents = [s for s in in_language_of(question, unit_sentences(units))
             if any(_holds(s.text, f) == len(f) for f in families) or (kinds and _holds(s.text, list(kinds)))]
    if len(sents) < MIN_SENTENCES:
        return None  # named in passing: the themes say more
    group_of, titles = _groups(store, units, sents, level)
    groups: dict[str, list[Sentence]] = defaultdict(list)
    for s in sents:
        groups[group_of.get(_key(s), "")].append(s)
    order = sorted(groups, key=lambda g: (-sum(map(_quality, groups[g])), min(s.order for s in groups[g])))
    shown = " and ".join(" ".join(words) for words in topic)
    named = [f for fs in families for f in fs] + sorted(kinds)
    listed = [m for found in members.values() for m in found][:6]
    as_kinds = f" (counting what the text names as kinds of it: {', '.join(listed)})" if listed else ""
    head = (f'"{shown}" comes up in {len(sents)} sentence{"s" * (len(sents) != 1)} of {len(units)} passage'
            f'{"s" * (len(units) != 1)}{as_kinds}; where it comes up follows, the sections and communities saying most '
            "of it first. This answer is extractive: it quotes the sentences that name the topic; no model wrote it.")
    out, used = [head], count_tokens(head)
    quoted: list[int] = []
    for i, g in enumerate([g for g in order if g][:MAX_GROUPS] or order[:1], 1):
        picked = sorted(sorted(groups[g], key=lambda s: _quality(s) * (1 + 0.25 * min(4, _holds(s.text, named))),
                               reverse=True)[:PER_GROUP], key=lambda s: s.order)
        title, where_from = titles.get(g, ("", None))
        where = f" (community report {where_from})" if isinstance(where_from, int) else \
            f" ({where_from})" if where_from else ""
        body = " ".join(cite(s.text.rstrip(), {"Sources": [s.unit]}) for s in picked)
        item = f"{i}. **{title or 'Passages'}**{where} \u2014 {body}"
        n = count_tokens(item)
        if i > 1 and used + n > answer_tokens:
            break
        out.append(item)
        used += n
        quoted.extend(s.unit for s in picked)
    return "\n\n".join(out), {"topic": shown, "units": len(units), "sentences": len(sents), "quoted": quoted}


def _members(store: Store, word: str) -> list[str]:
    """The words the corpus writes for kinds of what a topic noun names ("food": pudding, goose,
    punch), the most written first; no word with a sense as an adjective ("sweet", "high"), which
    the text means as one more often than not."""
    from core.offline.themes import _unit_df
    _, df = _unit_df(store)
    found = []
    for m in members_of(word):
        if len(m) < 3 or m in STOPWORDS or m == word or any(pos in ("a", "r") for _, pos in bases_of(m)):
            continue
        t = terms(m)  # as written: "spirits" (liquor) is read as "spirit", which it is not here
        if t == [m] and df.get(m, 0) > 0:
            found.append((-df[t[0]], m))
    return [m for _, m in sorted(found)[:MAX_MEMBERS]]


def _quality(s: Sentence) -> float:
    """A sentence that says something of the topic, not a fragment or a run-on."""
    n = len(s.text.split())
    return (0.4 if n < 6 else 1.0) * (min(1.0, 45 / n) if n else 0.0) * (0.8 if s.text[:1] in "\"'\u2018\u201c" else 1.0)


def _key(s: Sentence) -> str:
    return f"{s.unit_id}\x00{s.order}"


def _groups(store: Store, units: list[dict], sents: list[Sentence],
            level: int | None) -> tuple[dict[str, str], dict[str, tuple]]:
    """Each sentence's group and each group's (title, community report number or None): a
    sentence under a heading goes with the others under it (its document's section says where
    the topic comes up); one without, with its unit's community at the level (the smallest
    holding it, when no level is given), titled by that community's report."""
    group_of: dict[str, str] = {}
    titles: dict[str, tuple] = {}
    by_id = {u["id"]: u for u in units}
    docs = {d["id"]: d["title"] for d in store.by_ids("documents", list({u["document_id"] for u in units}))}
    loose: dict[str, list[str]] = defaultdict(list)
    for s in sents:
        u = by_id[s.unit_id]
        head = heading_of(u, s.text)
        if head:
            key = f"{u['document_id']}\x00{head}"
            group_of[_key(s)] = key
            titles[key] = (head, docs.get(u["document_id"], "") if len(docs) > 1 else None)
        else:
            loose[s.unit_id].append(_key(s))
    if loose:
        comms = store.rows("communities", "level = ?", [level]) if level is not None else store.rows("communities")
        comms.sort(key=lambda c: -int(c.get("level") or 0))  # deepest first: the smallest community holding it
        comm_of: dict[str, str] = {}
        for c in comms:
            for uid in c.get("text_unit_ids") or []:
                if uid in loose and uid not in comm_of:
                    comm_of[uid] = str(c["community"])
        reports = {str(r["community"]): r for r in store.rows("community_reports",
                                                                select="community, title, human_readable_id")}
        for uid, keys in loose.items():
            g = comm_of.get(uid, "")
            for k in keys:
                group_of[k] = g
            if g in reports:
                titles[g] = (reports[g]["title"], int(reports[g]["human_readable_id"]))
    return group_of, titles
