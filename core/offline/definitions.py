"""The offline local answer: who or what the entity is first, then its ties, then the rest.

1. A definitional sentence about the question's main entity (the first entry entity), found in
   the text units that mention it and scored by its shape: a cast-list line ("Bob Cratchit,
   clerk to Ebenezer Scrooge."), an appositive ("Belle, a comely matron, an old sweetheart of
   Scrooge's"; "Thomas Whitlock, chief executive of Calloway Chemicals"), "X is/was a ...", a
   role written before the name ("Harbour Master Maria Okafor", "Agent Alex Mercer"); a role noun
   in it counts extra; the earliest wins a tie.
2. For "who is / what role" questions, its strongest relationships (by weight): one sentence
   naming both, each cited; then the sentences ranked against the question's other words.
   For other questions the ranked sentences come second ("fifteen shillings a week" answers
   "what is he paid?") and the relationships after them.
Every sentence is quoted from its text unit and cited `[Data: Sources (n)]`; none twice.
"""
from __future__ import annotations

import re
from typing import Any

from core.offline.fact_rank import FRAMING, period_forms, rank_facts
from core.offline.mentions import KIN, TITLES
from core.offline.reports import display_name
from core.offline.sentence_rank import Sentence, in_language_of, name_pattern, prose_text, rank, unit_sentences
from core.text.lexical import STOPWORDS, cite, join_sentences
from core.store.db import Store
from core.tokens import count_tokens

ROLES = frozenset("""clerk partner nephew niece wife husband son daughter sister brother father mother
    friend sweetheart servant master apprentice merchant employer secretary director chair chairman
    chairwoman chief executive supervisor manager officer founder head member spokesperson
    spokeswoman president leader expert specialist scientist doctor engineer analyst agent detective
    captain councillor councilor mayor minister reporter editor journalist author writer owner
    ceo cfo cto coo vice treasurer commissioner inspector nurse surgeon physician lawyer attorney
    judge teacher professor student researcher dealer laundress bachelor matron spirit ghost phantom
    apparition spectre mentor commander soldier pilot host guest""".split()) | KIN | TITLES
_WHO = re.compile(r"^\s*(?i:who\s+(?:is|was|are|were))\s+(?:(?i:the)\s+)?[A-Z\u4e00-\u9fff]|"
                  r"(?i:\bwhat\s+(?:role|part)\b|\brole\s+(?:of|does|did)\b)|"
                  # "What is Calloway Chemicals?" names a thing; "What was total revenue ...?" asks a fact
                  # ("What was Microsoft's revenue?" asks a fact of it, not what it is)
                  r"^\s*(?i:what\s+(?:is|was))\s+(?!(?i:the|a|an)\b)(?![^?]*['\u2019]s\s)[A-Z\u4e00-\u9fff][^?,]{0,40}\?\s*$|"
                  # "What is Helion, who founded it, and ...?": a compound question opening so
                  r"^\s*(?i:what\s+(?:is|was))\s+(?!(?i:the|a|an)\b)[A-Z\u4e00-\u9fff][\w'\u2019. -]{0,40},\s*(?i:who|what|when|where|how|and)\b|"
                  r"是谁|是什么人|什么角色|谁是")
ASK_WORDS = ("who is was role play plays played part story team name")


_ABOUT = re.compile(r"^\s*(?:what\s+(?:is|was|are|were)\b[^?]*\babout\s*\??\s*$|tell me about\b|describe\b)|"
                    r"是关于什么|讲的是什么", re.IGNORECASE)


def is_who_question(question: str) -> bool:
    return bool(_WHO.search(question or ""))


def asks_definition(question: str) -> bool:
    """"Who is X", "What is X about", "Tell me about X": what X is belongs first."""
    return is_who_question(question) or bool(_ABOUT.search(question or ""))


def names_of(ent: dict) -> list[str]:
    out = [ent["title"], display_name(ent["title"], ent)]
    return out + [a for a in (ent.get("aliases") or []) if isinstance(a, str)]


_SUBJECT_VERB = re.compile(r"\s*(\([^)]{3,80}\)\s*)?(?:[a-z]+ly\s+)?(?!(?:is|was|as|has|its|this|thus|us|yes|plus)\b)"
                           r"[a-z]{3,}(?:s|ed)\b(?!\s+(?:by|of|to|in)\b)")


def definition_score(sentence: str, pat: re.Pattern) -> float:
    """How plainly the sentence says who or what the name is (0: not at all)."""
    best = 0.0
    for m in pat.finditer(sentence):
        before, after = sentence[:m.start()], sentence[m.end():]
        score = 0.0
        appositive = re.match(r"\s*(?:\([^)]{1,40}\)\s*)?,\s+(?!(?i:and|but|or|who|which|that|he|she|they|it|"
                              r"said|says|i|we|you|if|when|as|so|then|please|see|refer|check|visit)\b)(\S+)", after)
        copula = re.match(r"(?:\s+(?:is|was)|\s*,\s+who(?:\s+is|\s+was|'s|\u2019s))\s+(?:a|an|the|one of|\w+'s)\b", after)
        role_before = [w.lower().strip(".") for w in re.findall(r"[A-Za-z][A-Za-z.'-]*", before + " " + m.group(0))]
        role_before = role_before[:-len(m.group(0).split())][-3:] + role_before[-len(m.group(0).split()):][:1]
        role_before = [w for w in role_before if w in ROLES]
        tail = re.findall(r"[a-z]+", after[:100].lower())[:10]
        role_after = any(w in ROLES for w in tail)
        lead = not [w for w in re.findall(r"[A-Za-z][A-Za-z.'-]*", before) if w.lower().strip(".") not in ROLES
                    and not w[:1].isupper()] and len(before) < 40
        if appositive:
            word = appositive.group(1).lower()
            # "X, a/the/role ..." says what X is; "X, perched on ..." what X does
            score = 1.0 if re.fullmatch(r"[a-z]+(?:ing|ed)", word) else 2.0
            if not lead:
                score *= 0.6  # "... next to Tanner Quay, the mayor said": the end of a clause
            elif not before.strip(" \"'\u2018\u201c") and len(sentence.split()) <= 14 and score == 2.0 \
                    and role_after:
                score = 3.0  # a cast-list line: the whole sentence is the name and what it is
        elif copula:
            score = 2.0
        elif not before.strip(" \"'\u2018\u201c*") and (acts := _SUBJECT_VERB.match(after)):
            # the sentence opens with the name doing what it does ("DRIFT search (Dynamic Reasoning
            # and ...) builds upon ...", "Kafka started off as ..."): what it is, less plainly
            score = 1.5 + (1.0 if acts.group(1) else 0.0)  # a spelled-out acronym says more
        if role_before and re.search(r"\b(?:is|was)\s*$", before):
            # "Our guest today is Stevie Bathiche": a role the sentence gives the name, less than
            # what "Stevie is a technical fellow at Microsoft" says of him
            score = max(score, 1.5)
        elif role_before:  # "Dr. Jordan Hayes", "Harbour Master Maria Okafor"
            score = max(score, 2.0) + (0.5 if score else 0.0)
        if score:
            if role_after:
                score += 1.0
            if len(m.group(0).split()) >= 2 or (copula and re.match(r"\s+(?:is|was)\s+an?\b", after)):
                score += 0.5  # the full name, not a first name used in passing ("Stevie is a ...": not in passing)
            if sentence.lstrip()[:1] in "\"'\u2018\u201c":
                score *= 0.5  # a line of dialogue calls people names; narration says who they are
        best = max(best, score)
    return best


_WHAT_IS = re.compile(r"\s*what(?:'s|\u2019s|\s+is|\s+are|\s+was|\s+were)\s+(?:an?\s+|the\s+)?(?P<x>.+?)\s*\??\s*$", re.I)


def _only_names(question: str, pat: re.Pattern | None) -> bool:
    """"What is GraphRAG?": the question is the name and nothing else, so what it is comes first."""
    m = _WHAT_IS.match(question or "")
    return bool(m and pat is not None and pat.fullmatch(m.group("x")))


def _asked_role(question: str, pat: re.Pattern | None) -> str | None:
    """"What is the name of Scrooge's clerk?", "Who is Alex's mentor?": the role asked for."""
    if pat is None:
        return None
    for m in pat.finditer(question):
        word = re.match(r"\s*([a-z]+)", question[m.end():]) if question[m.end() - 2:m.end()] in ("'s", "\u2019s") else None
        if word and word.group(1) in ROLES:
            return word.group(1)
    return None


def _holds_role(sentence: str, role: str) -> bool:
    """"Bob Cratchit, clerk to Ebenezer Scrooge", "Fred, Scrooge's nephew": a name with the role
    in apposition."""
    return bool(re.search(r"[A-Z][\w.'-]+(?: [A-Z][\w.'-]+)*(?: \([^)]{1,30}\))?,\s+(?:the |a |an |his |her |their |"
                          r"[A-Z][\w'-]+['\u2019]s )?(?:\w+ )?" + re.escape(role) + r"\b", sentence))


def _subject(question: str, entities: list[dict]) -> dict:
    """The entity the question names first ("Why did Belle release Scrooge" is about Belle);
    the first entry entity when it names none."""
    at = []
    for i, e in enumerate(entities):
        pat = name_pattern(names_of(e))
        m = pat.search(question) if pat else None
        if m:
            at.append((m.start(), i, e))
    return min(at, key=lambda x: (x[0], x[1]))[2] if at else entities[0]


def _with(sents: list[Sentence], pat: re.Pattern | None) -> list[Sentence]:
    return [s for s in sents if pat and pat.search(s.text)]


def local_answer(store: Store, question: str, entities: list[dict[str, Any]], extra_units: list[dict],
                 answer_tokens: int, max_sentences: int = 8, documents: set[str] | None = None) -> str:
    """See the module docstring. entities: the entry entities, the main one first; extra_units:
    the text units of the local context (searched besides the main entity's own); documents: the
    ids of the documents the question names, whose units alone are read when they hold any."""
    if not entities:
        return ""
    main = _subject(question, entities)
    entities = [main] + [e for e in entities if e is not main]
    unit_ids = list(dict.fromkeys(list(main.get("text_unit_ids") or [])
                                  + [u for e in entities[1:3] for u in (e.get("text_unit_ids") or [])]))
    units = {u["id"]: u for u in store.by_ids("text_units", unit_ids[:600])}
    for u in extra_units:
        units.setdefault(u["id"], u)
    who = is_who_question(question)
    if not who:  # a fact may sit in a unit that names none of the entities: full-text search finds it
        for u in store.search("text_units", _search_words(question), limit=40 if documents else 8):
            units.setdefault(u["id"], u)
    if documents and any(u.get("document_id") in documents for u in units.values()):
        units = {k: u for k, u in units.items() if u.get("document_id") in documents}
    sents = in_language_of(question, unit_sentences(list(units.values())))
    if not sents:
        return ""
    pat = name_pattern(names_of(main))
    own = _with(sents, pat)
    used: set[str] = set()
    parts: list[list[str]] = []

    def take(s: Sentence) -> str | None:
        parts = list(getattr(s, "parts", ()) or (s,))
        keys = [re.sub(r"\W+", "", p.text.lower()) for p in parts]
        while parts and keys[0] in used:  # a passage overlapping one already quoted: its new part
            parts, keys = parts[1:], keys[1:]
        if not parts or any(k in used for k in keys):
            return None
        used.update(keys)
        return join_sentences([cite(p.text, {"Sources": [p.unit]}) for p in parts])  # each part cited

    # 1. who or what it is
    defs = sorted(((definition_score(s.text, pat), -s.order, s) for s in own), key=lambda x: (x[0], x[1]), reverse=True)
    role = _asked_role(question, pat)
    if role:  # "the name of Scrooge's clerk": the sentence saying who that clerk is comes first
        held = [s for s in own if _holds_role(s.text, role)]
        if held:
            defs = [(9.0, 0, min(held, key=lambda s: (len(s.text), s.order)))] + defs
    # a question about something else ("how much was released?") starts with what it is only
    # when the text says so plainly (a cast-list line, "X, the chief executive of ...")
    # a fact question ("what is Jordan Hayes examining?") starts with its answer, not with who
    # the person is, unless it asks for a role ("the name of Scrooge's clerk")
    floor = 0.0 if asks_definition(question) or _only_names(question, pat) else (8.0 if not role else 2.5)
    first = defs[0][2] if defs and defs[0][0] > floor else None
    if first is not None:
        turn = _rest_of_turn(first, sents, units) if who else []
        parts.append([join_sentences([x for x in [take(first)] + [take(t) for t in turn] if x])])
    # 2/3. relationships and the rest of the question
    ties = _ties(store, main, own, take) if who else []
    # the question's own words rank the rest; its name stays (rare words weigh by themselves)
    if who:
        ranked = rank(question, sents, exclude=[ASK_WORDS])
    else:  # answer type, stemmed words, rare words, signposts joined (core/offline/fact_rank.py)
        asked = [n for e in entities if (p := name_pattern(names_of(e))) and p.search(question) for n in names_of(e)]
        ranked = rank_facts(question, sents, asked)
    top = ranked[0][0] if ranked else 0.0
    rest = []
    for score, s in ranked:
        if score <= 0 or score < 0.3 * top or len(rest) >= max_sentences:
            break
        t = take(s)
        if t:
            rest.append(t)
    if who:
        parts += [ties, rest[:3]]
    else:  # a fact question: the sentences that answer it (its ties say who, not what was asked)
        parts += [rest[:5]]
    out, used_tokens = [], 0
    for block in parts:
        listed = block is ties
        block = [b for b in block if b]
        if not block:
            continue
        text = "\n".join(block) if listed else join_sentences(block)
        n = count_tokens(text)
        if out and used_tokens + n > answer_tokens:
            break
        out.append(text)
        used_tokens += n
    return "\n\n".join(out)


_LABEL = re.compile(r"^[^:.!?]{2,60}:\s+")
_TURN_WORDS = 25  # words of the speaker's own turn quoted after a greeting
_NEXT_TURN = re.compile(r"\n\s*[A-Z][A-Za-z.'\u2019 -]{1,40}(?:,[^:\n]{0,60})?:\s|\n\s*\(Operator")


def _rest_of_turn(first: Sentence, sents: list[Sentence], units: dict) -> list[Sentence]:
    """A speaker's label line that says only a greeting ("HEATHER BELLINI, Goldman Sachs: Great,
    thank you.") tells who they are, not what they came to say: the sentences after it in the
    same turn (up to the next speaker's label or the operator's line in its unit; a turn may run
    over several paragraphs), up to about
    _TURN_WORDS words."""
    label = _LABEL.match(first.text)
    if label is None or len(first.text[label.end():].split()) >= 10:
        return []
    text = prose_text(units.get(first.unit_id) or {})
    at = first.order % 1_000_000
    nxt = _NEXT_TURN.search(text, at + len(first.text))  # the next speaker's label opens the next turn
    end = nxt.start() if nxt else len(text)
    out, words = [], 0
    for s in sents:
        if s.unit_id == first.unit_id and at < s.order % 1_000_000 < end and words < _TURN_WORDS:
            out.append(s)
            words += len(s.text.split())
    return out


def _search_words(question: str) -> str:
    """The question's words for full-text search, framing words left out."""
    words = [w for w in re.findall(r"\w+", question) if w.lower() not in FRAMING | STOPWORDS]
    return " ".join(words + period_forms(question))


def _ties(store: Store, main: dict, own: list[Sentence], take) -> list[str]:
    """Its strongest relationships, one sentence naming both ends each (as list lines)."""
    keys = [main["title"], main["id"]]
    rels = store.rows("relationships", "source in (?, ?) or target in (?, ?)", keys + keys)
    rels.sort(key=lambda r: (-float(r.get("weight") or 0), r["human_readable_id"]))
    others = {}
    for r in rels:
        other = r["target"] if r["source"] in keys else r["source"]
        others.setdefault(other, r)
    rows = {e["title"]: e for e in store.rows("entities", f"title in ({','.join('?' * len(others))})",
                                              list(others))} if others else {}
    # people, organisations and places first: "linked to Christmas" says little about anyone
    order = sorted(others, key=lambda o: (rows.get(o, {}).get("type") in ("event", "other"),
                                          list(others).index(o)))
    lines = []
    for other in order:
        if len(lines) >= 3:
            break
        ent = rows.get(other)
        if ent is None:
            continue
        opat = name_pattern(names_of(ent))
        both = sorted(_with(own, opat), key=lambda s: (abs(len(s.text.split()) - 25), s.order))
        for s in both:
            t = take(s)
            if t:
                who = speaker_of(store, s)  # a transcript: who says it, so no one is quoted as saying another's words
                lines.append(f"- **{display_name(ent['title'], ent)}**: " + (f"{who}: {t}" if who else t))
                break
    return lines


# a speaker's label opening a line: two or more words in capitals, maybe a firm ("NOTE:" is none)
_TURN_LABEL = re.compile(r"(?m)^[ \t]*([A-Z][A-Z.'\u2019-]+(?: [A-Z][A-Z.'\u2019-]+){1,3}(?:, [^:\n]{1,60})?):[ \t]")


def speaker_of(store: Store, s: Sentence) -> str:
    """The speaker's label ("KEITH WEISS, Morgan Stanley") of the turn a sentence of a transcript
    stands in, within its unit; "" where the unit has no label before it."""
    unit = (store.by_ids("text_units", [s.unit_id]) or [{}])[0]
    text = prose_text(unit)
    at = s.order % 1_000_000
    labels = [m for m in _TURN_LABEL.finditer(text) if m.start() <= at]
    return labels[-1].group(1) if labels else ""


def fact_answer(question: str, units: list[dict], answer_tokens: int, max_passages: int = 5) -> str:
    """The passages of the units that answer a question best by core/offline/fact_rank (answer
    type, stemmed and rare words, signposts joined with what they introduce), best first, each
    part cited; "" when none shares a word with the question. The answer of a search that has
    passages but no entity to start from (basic search)."""
    sents = in_language_of(question, unit_sentences(units))
    ranked = rank_facts(question, sents) if sents else []
    top = ranked[0][0] if ranked else 0.0
    out: list[str] = []
    used: set[str] = set()
    tokens = 0
    for score, p in ranked:
        if score <= 0 or score < 0.3 * top or len(out) >= max_passages:
            break
        parts = [x for x in (getattr(p, "parts", ()) or (p,)) if re.sub(r"\W+", "", x.text.lower()) not in used]
        if not parts:
            continue
        text = join_sentences([cite(x.text, {"Sources": [x.unit]}) for x in parts])
        n = count_tokens(text)
        if out and tokens + n > answer_tokens:
            break
        used.update(re.sub(r"\W+", "", x.text.lower()) for x in parts)
        out.append(text)
        tokens += n
    return join_sentences(out)
