"""Routing (`--method auto`): suggest the search method for a question, with a one-line reason
the user can read and override.

Signals, each weighed once:
- narrow: entities of the graph named in the question (title match, the strongest signal),
  other proper names (capitalised words inside the sentence), a who/when/where/which/how
  much/how many opening, a quoted phrase, a number or date, "what did X say/do";
- broad: the words of sensemaking over a corpus ("themes", "overall", "trends", "across",
  "main", "common", "recurring", "patterns", "in general", "most", "compare", ...), plural
  wholes ("the speakers", "guests", "companies", "documents"), and "how do/does ... differ".
A list question ("which vector databases...", "what are the key metrics": core/query/lists.py)
with no broad cue and no word of what people discuss, mention or believe goes to basic, where
lists are found whole. Otherwise a broad
question goes to global (lazy when the workspace has no reports but lazy is
registered; local otherwise); a narrow one to local when it names an entity of the graph or
another proper name, else basic when registered, else local. A workspace without community reports is never sent to
global or DRIFT.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.query.header_fields import about_the_document, asked_field
from core.offline.topic import asked_topic
from core.query.howto import is_howto
from core.query.lists import list_kind
from core.query.mention_answer import asked_mention
from core.text.lexical import CODE_NAME
from core.textutil import STOPWORDS

STRONG_BROAD = re.compile(
    r"\b(themes?|topics?|overall|overview|trends?|across|recurring|patterns?|general(?:ly)?|broad(?:ly)?|"
    r"summar\w+|overarching|landscape|throughout|over time|over the (?:course|years|past)|"
    r"(?:kinds|types|categories|range) of|whole|entire|collection|corpus|dataset|"
    r"what(?:'s|\u2019s| is| are) (?:the|this|these|it|they) (?:\w+ )?about|morals?|gist|lessons?|takeaways?|"
    r"storylines?|(?:main|major|key|common|big|biggest|most important) (?:\w+ )?\w+s)\b|主题|主要|总体|整体|趋势|概述|总结", re.I)
THEMES = re.compile(r"\b(?:themes?|topics?|storylines?)\b|主题")
WEAK_BROAD = re.compile(
    r"\b(most|frequent(?:ly)?|often|various|variety|compare[sd]?|comparison|differ(?:ent|ences?)?|"
    r"similar(?:ities)?|perspectives?|views|approaches|strateg(?:y|ies)|implications?|common(?:ly)?|"
    r"evolv\w*|shift(?:s|ed)?|changed|(?<!i )(?<!to )(?<!you )(?<!we )change)\b", re.I)  # not "can I change"
PLURAL_WHOLES = re.compile(
    r"\b(the |these |all |different |many )?(speakers|guests|leaders|companies|organi[sz]ations|"
    r"documents|episodes|podcasts|calls|transcripts|quarters|articles|people|characters|"
    r"participants|analysts|industries|sectors|stakeholders|parties|groups)\b", re.I)
# what a corpus's people say or think: a list of that is sensemaking over the corpus, not a list
# the documents write down
DISCUSSION = re.compile(r"\b(discuss\w*|mention\w*|talk\w*|shar(?:e|es|ed|ing)|believe\w*|highlight\w*|"
                        r"emphasi[sz]\w*|describ\w*|predict\w*|consider\w*|argu\w*|see as|view\w*)\b", re.I)
WHICH_PLURAL = re.compile(r"^\s*which (?:\w+ ){0,2}?\w+s\b(?! (?:the|is|was)\b)", re.I)
NARROW_OPEN = re.compile(r"^\s*(who|when|where|which|whom|whose|at what time|what time|why|"
                         r"(?:can|could|does|do|is|will|should) (?:i|you|it|we|this|one)|"  # a yes-or-no about one thing
                         r"(?:are|were) (?!there\b)(?:the |these |those |its |their )?[\w-]+ [\w-]+|"  # "are community ids unique"
                         r"how (much|many|long|old|late|fast|big|far)|"
                         r"how (?:does|did|do) (?:the |it |this |that )?(?:\w+ )?(?:end|begin|start|finish|conclude)\b|"
                         r"what (year|date|time|day))\b", re.I)
# a Chinese question asking for one fact or one list: "哪些", "哪五个部分", "多少", "是什么", "谁", "何时"
ZH_NARROW = re.compile(r"哪(?:些|几|[一二三四五六七八九十两]?[个种项部类条位家步])|多少|几[个种项部类条位家步]|是什么|是谁|"
                       r"什么时候|何时|哪里|哪儿|哪一|分别是")
FACT_FORM = re.compile(r"\b((?i:what (?:did|does|was|is|were)) [A-Z][\w'-]+|(?i:what (?:was|is|were) the(?! (?:main|major|key|common|biggest|most important|overall|general) \w+s\b)|"
                       r"what happened (?:when|at|to|on|in the)|according to|how much|how many|"
                       r"what percentage|what amount|exact))\b")
NUMBER = re.compile(r"\b(\d[\d,.]*%?|\$\d[\d,.]*|(19|20)\d\d|q[1-4]|fy\d\d)\b", re.I)
_PERIOD = re.compile(r"(?:FY ?\d{2,4}|Q[1-4])(?: (?:FY ?\d{2,4}|Q[1-4]))?", re.I)
# "his video calls", "her episodes": one person's, not the corpus's whole
_OWNED = re.compile(r"\b(?:his|her|its|my|your|our|their)\s+(?:[\w-]+\s+)?$", re.I)
# "how does she make money?": one person of the documents, who the passages about her name
ONE_PERSON = re.compile(r"\b(?:he|she|him|his|her|hers)\b", re.I)
# "the story", "these proposals", "the book": the work as a whole, whose themes answer a question
# that names nothing in it
WHOLE_WORK = re.compile(r"\b(?:the|this|these|those|that|its|their) (?:whole |entire )?(?:[\w-]+ )?(?:story|stories|book|books|novel|"
                        r"novella|tale|plot|narrative|documents?|texts?|proposals?|peps?|calls?|episodes?|shows?|"
                        r"podcasts?|series|articles?|corpus|collection|mission|conversations?|interviews?|"
                        r"transcripts?|pages?|docs|reports?|papers?|chapters?|notes|memos|letters|essays|posts|files|records|archives?|"
                        r"logs|minutes|materials)\b|主题|这些文章|这篇文章|全书", re.I)
# "can I run just some of the steps instead of the whole pipeline?": what the user may do with it
_FIRST_PERSON = re.compile(r"\b(?:i|we)$")
_FRAME = frozenset("""happen happens happened happening going on tell say says said think thinks thought
    mean means meant explain describe anything something everything thing things""".split())
QUOTED = re.compile(r"[\"“][^\"”]{3,}[\"”]")
PROPER = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]+(?:[ -][A-Z][a-z]+)*|[A-Z]{2,})\b")
_NOT_NAMES = {"What", "Who", "How", "When", "Where", "Which", "Why", "Is", "Are", "Do", "Does", "Did", "The",
              "In", "On", "Of", "And", "Can", "Could", "I", "AI", "A", "An", "Overall", "Across", "Please",
              "List", "Describe", "Summarize", "Summarise", "Compare", "Explain", "Give", "Tell",
              "January", "February", "March", "April", "May", "June", "July", "August", "September",
              "October", "November", "December", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
              "Saturday", "Sunday"}


@dataclass
class Route:
    method: str
    reason: str
    family: str
    """"narrow" (local or basic is the right family) or "broad" (global or lazy)."""
    signals: dict[str, list[str]] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"method": self.method, "reason": self.reason, "family": self.family, "signals": self.signals}


def signals(question: str, entity_titles: list[str] | None = None,
            concept_titles: list[str] | tuple[str, ...] = (),
            background_titles: list[str] | tuple[str, ...] = ()) -> dict[str, list[str]]:
    q = question or ""
    concept = {t.lower() for t in concept_titles}
    behind = {t.lower() for t in background_titles}  # what the documents are about: narrows nothing
    # a fiscal period the graph holds ("FY22", "Q2") dates a question; it names nothing it is about
    titles = [t for t in entity_titles or [] if t.lower() not in behind and not _PERIOD.fullmatch(t.strip())]
    out: dict[str, list[str]] = {"entities": [t for t in titles if t.lower() not in concept],
                                 "concepts": [t for t in titles if t.lower() in concept],
                                 "background": [t for t in entity_titles or [] if t.lower() in behind]}
    # a broad word inside a name ("the Entity & Relationship Summarization step") is the name's
    out["broad"] = list(dict.fromkeys(m.group(0).lower() for m in STRONG_BROAD.finditer(q)
                                      if not (m.start() > 0 and q[m.start()].isupper() and q[:m.start()].strip())))
    out["weak_broad"] = [w for w in dict.fromkeys(m.group(0).lower() for m in WEAK_BROAD.finditer(q))
                         if not any(w in b for b in out["broad"])]
    out["wholes"] = list(dict.fromkeys(m.group(2).lower() for m in PLURAL_WHOLES.finditer(q)
                                       if not _OWNED.search(q[:m.start()])))
    which = WHICH_PLURAL.match(q)
    if which:  # "which episodes ...", "which trends ...": a set gathered over the corpus
        out["wholes"].append(which.group(0).strip().lower())
    names = [m.group(1) for m in PROPER.finditer(q) if m.group(1) not in _NOT_NAMES]
    named = {t.lower() for t in out["entities"] + out["concepts"] + out["background"]}
    out["names"] = [n for n in dict.fromkeys(names) if n.lower() not in named]
    m = NARROW_OPEN.match(q) or ZH_NARROW.search(q)
    out["opening"] = [m.group(0).strip().lower()] if m and not which else []
    out["person"] = [m.group(0).lower() for m in ONE_PERSON.finditer(q)][:1]
    out["facts"] = [m.group(0) for m in FACT_FORM.finditer(q)] + [m.group(0) for m in NUMBER.finditer(q)] \
        + [m.group(0) for m in QUOTED.finditer(q)]
    out["whole_work"] = [m.group(0).lower() for m in WHOLE_WORK.finditer(q)][:1]
    # "what part does laughter play?", "how do they deal with backwards compatibility?": where one
    # topic comes up across the corpus
    out["topic"] = [" and ".join(" ".join(words) for words in asked_topic(q))][:1] if asked_topic(q) else []
    # the words it asks about, beyond the question's frame ("what happened?" asks about nothing)
    out["subject"] = [w for w in re.findall(r"[a-z][\w'-]+", q.lower()) if w not in STOPWORDS and w not in _FRAME]
    return out


def family_of(sig: dict[str, list[str]]) -> tuple[str, str]:
    """("narrow" | "broad", why), from the signals: the heavier side wins; a tie goes broad when
    there is any broad cue (a named thing inside a sensemaking question stays a global question)."""
    broad = 1.0 * min(2, len(sig["broad"])) + 0.5 * bool(sig["weak_broad"]) + 1.0 * bool(sig["wholes"])
    # "the main themes of Kevin Scott's conversation with Irma Olguin": asking for themes is asking
    # about the whole of what it names, however many names it gives
    broad += 2.0 * any(THEMES.search(b) for b in sig["broad"])
    # what every document is about narrows a question only when nothing in it is broad ("Who is
    # Maria Okafor?" stays narrow; "the main growth drivers Microsoft discusses" does not)
    # a word like "evolving" or "compare" alone does not make a question about a main character broad
    behind = bool(sig.get("background")) and not (sig["broad"] or sig["wholes"])
    narrow = 2.0 * bool(sig["entities"] or sig.get("documents")) \
        + 1.0 * bool(sig["names"] or sig.get("concepts") or behind or sig.get("phrases")) \
        + 1.0 * bool(sig["opening"]) + 0.5 * bool(sig["facts"]) + 1.0 * bool(sig.get("person")) \
        + 0.5 * bool(sig["opening"] and _FIRST_PERSON.search(sig["opening"][0]))
    if broad > 0 and broad >= narrow:
        cues = ", ".join(f'"{w}"' for w in (sig["broad"] + sig["wholes"] + sig["weak_broad"])[:3])
        return "broad", f"it asks about the corpus as a whole ({cues})"
    if narrow > 0:
        if sig.get("documents"):
            what = "it names the document " + ", ".join(sig["documents"][:2])
        elif sig["entities"]:
            what = "it names " + ", ".join(_shown(t) for t in sig["entities"][:3])
        elif sig["names"] or sig.get("concepts") or sig.get("background"):
            what = "it names " + ", ".join((sig["names"] + [t.lower() for t in sig.get("concepts", [])]
                                            + [_shown(t) for t in sig.get("background", [])])[:3])
        elif sig.get("phrases"):
            what = "it asks about " + ", ".join(f'"{p}"' for p in sig["phrases"][:2]) + \
                ", which few passages write"
        elif sig["opening"]:
            what = f'it asks "{sig["opening"][0]}..." about one thing'
        elif sig.get("person"):
            what = f'it asks about one person ("{sig["person"][0]}")'
        else:
            what = "it asks for a specific fact"
        return "narrow", what
    if sig.get("whole_work") is None or sig["whole_work"] or sig.get("topic") or len(sig.get("subject") or ()) < 2:
        if sig.get("whole_work"):
            return "broad", f'it names nothing specific and asks about the work as a whole ("{sig["whole_work"][0]}")'
        if sig.get("topic"):
            return "broad", f'it names nothing specific and asks where one topic comes up ("{sig["topic"][0]}")'
        return "broad", "it names nothing specific, so it is read as a question about the whole corpus"
    # "what does the alien writing seem to be asking for?": a question about one thing the graph
    # does not name is answered by the passages that write it, not by the corpus's themes
    return "narrow", "it asks about something specific the graph does not name, which passages write"


_KINDS_OF = re.compile(r"(?:kinds|types|categories|range) of", re.I)


def _shown(title: str) -> str:
    """An entity title as the reason names it: "MARIA OKAFOR" as "Maria Okafor"."""
    return title.title() if title.isupper() else title


def route_question(question: str, entity_titles: list[str] | None = None, has_reports: bool = True,
                   available: list[str] | tuple[str, ...] = ("global", "local"),
                   concept_titles: list[str] | tuple[str, ...] = (),
                   background_titles: list[str] | tuple[str, ...] = (),
                   documents: list[str] | tuple[str, ...] = (),
                   phrases: list[str] | tuple[str, ...] = ()) -> Route:
    """The method for a question, given the entities of the graph it names (concept_titles:
    those of them the documents write in lower case, "revenue growth": they weigh as a name;
    background_titles: those most of the units name, "Microsoft" in its calls: they weigh
    nothing, since naming what every document is about narrows nothing; documents: the titles of
    the documents it names, core.query.doc_scope: a question about one document is narrow; phrases:
    two words of it that few passages write together, "double quotes": a question about them)."""
    sig = signals(question, entity_titles, concept_titles, background_titles)
    sig["documents"] = list(documents)
    sig["phrases"] = list(phrases)
    mentioned = asked_mention(question)
    if mentioned is not None and "basic" in available:
        # "Does PEP 621 mention Poetry?": whether and where the passages name it
        sig["mention"] = [mentioned]
        return Route("basic", f'basic search (the passages most like the question), because it asks whether the '
                     f'documents mention "{mentioned}", which the passages naming it answer.', "narrow", sig)
    kind = list_kind(question)
    wholes = [w for w in sig["wholes"] if not w.startswith("which ")]  # not the "which X" form itself
    # "what kinds of input files ...": the kinds of a concrete thing are a list, not the corpus's themes
    broad = [b for b in sig["broad"] if not _KINDS_OF.fullmatch(b)] if kind is not None else sig["broad"]
    if kind is not None and not (broad or sig["weak_broad"] or wholes or DISCUSSION.search(question)):
        # the members of a kind of thing, not what the corpus's people say: where the documents list them
        sig["list"] = [kind]
        method = "basic" if "basic" in available else "local"
        how = "basic search (the passages most like the question)" if method == "basic" else \
            "local search (the neighbourhood in the graph of what it names)"
        return Route(method, f'{how}, because it asks for a list ("{kind}"), which lives in passages, '
                     "not in themes.", "narrow", sig)
    header = asked_field(question)
    if header is not None and (documents or about_the_document(question)) and "basic" in available and not broad:
        # "Who wrote it?", "What is its status?": the header of the document answers
        sig["header"] = [header[1]]
        return Route("basic", f"basic search (the passages most like the question), because it asks for the "
                     f"{sig['header'][0]} of a document, which its header gives where it has one.", "narrow", sig)
    if is_howto(question) and "basic" in available and not broad:
        # "How do I install it?": the documents' steps and commands, which passages hold whole
        sig["howto"] = [question.split()[0].lower()]
        return Route("basic", "basic search (the passages most like the question), because it asks how to do "
                     "something, which the documents' own steps and commands answer.", "narrow", sig)
    code = CODE_NAME.findall(question)
    if code and "basic" in available and not broad and not documents:
        # "What does allow_general_knowledge do?": a key, option or file of the software, which
        # the passages that write it answer (the graph holds the words of its parts)
        sig["code"] = code
        return Route("basic", f"basic search (the passages most like the question), because it names "
                     f"{', '.join(code[:2])}, written as code, which the passages that hold it explain.", "narrow", sig)
    family, why = family_of(sig)
    if family == "broad":
        if has_reports and "global" in available:
            method, how = "global", "global search (map-reduce over community reports)"
        elif "lazy" in available:
            method, how = "lazy", "lazy search" + ("" if has_reports else " (this workspace has no community reports)")
        else:
            method, how = ("basic" if "basic" in available else "local"), "the closest passages (no community reports)"
    else:
        if sig["entities"] or sig["names"] or sig["concepts"] or sig["background"] or "basic" not in available:
            method, how = "local", "local search (the neighbourhood in the graph of what it names)"
        else:
            method, how = "basic", "basic search (the passages most like the question)"
    return Route(method, f"{how}, because {why}.", family, sig)


def route(store, question: str, available: list[str] | tuple[str, ...] | None = None) -> Route:
    """route_question with the entities of this workspace's graph named in the question."""
    from core.query.local_search import title_matches
    if available is None:  # the caller knows the registry (core.query.methods imports this module)
        available = ("global", "local")
    titles = [e["title"] for e in title_matches(store, question)] if store.count("entities") else []
    behind = [t for t in titles if background(store, t)]
    from core.query.doc_scope import document_unit_count, named_documents
    named = named_documents(store, question)
    if named and document_unit_count(store, named) * 2 > store.count("text_units"):
        named = []  # the document it names is most of the corpus: naming it narrows nothing
    return route_question(question, titles, bool(store.count("community_reports")), available,
                          [t for t in titles if t not in behind and written_as_concept(store, t)], behind,
                          [d["title"] for d in named], rare_phrases(store, question))


RARE = 0.05  # the share of the text units a phrase is in, at most, for a question about it to be narrow
_PHRASE_WORDS = re.compile(r"[A-Za-z][A-Za-z-]+")


def rare_phrases(store, question: str) -> list[str]:
    """Two adjacent words of the question (no stop word, no word of a broad question) that a few
    passages of the corpus write together ("double quotes", "indexing method"): what a fact
    question asks about, where no name says so."""
    words = [m.group(0).lower() for m in _PHRASE_WORDS.finditer(question or "")]
    total = store.count("text_units")
    if total < 3:
        return []
    out = []
    for a, b in zip(words, words[1:]):
        if a in STOPWORDS or b in STOPWORDS or len(a) < 3 or len(b) < 3 \
                or STRONG_BROAD.search(f"{a} {b}") or WEAK_BROAD.search(f"{a} {b}"):
            continue
        share = store.unit_share(f"{a} {b}")
        if 0 < share <= max(RARE, 2 / total):
            out.append(f"{a} {b}")
    return out


BACKGROUND = 0.4  # share of the text units naming an entity for it to be what the documents are about


def background(store, title: str) -> bool:
    """Does most of the workspace name this entity ("Microsoft" in its earnings calls, the host
    of a podcast)? Then it is what the documents are about, and naming it narrows nothing."""
    latin = " ".join(w for w in re.findall(r"[^\W_]+", title) if w.isascii())  # CJK: not counted here
    return bool(latin) and store.count("text_units") >= 5 and store.unit_share(latin) >= BACKGROUND


def written_as_concept(store, title: str, sample: int = 12) -> bool:
    """Do the documents write this entity title mostly in lower case inside sentences ("revenue
    growth", "constant currency")? Then it is a concept the offline engine took for an entity,
    and a question naming it is no more narrow than one naming any term."""
    if not re.fullmatch(r"[A-Za-z][A-Za-z' -]*", title.strip()):
        return False  # CJK, digits: casing says nothing
    pat = re.compile(rf"(?<![\w]){re.escape(title.strip())}(?![\w])", re.I)
    caps = low = 0
    for row in store.search("text_units", title, limit=sample):
        text = row.get("text") or ""
        for m in pat.finditer(text):
            before = text[:m.start()].rstrip()
            if not before or before[-1] in ".!?:;\"'\u201c\u2018\n(":
                continue  # opening a sentence: capitalised either way
            if m.group(0)[0].isupper():
                caps += 1
            else:
                low += 1
    return low >= 2 and caps * 3 < low
