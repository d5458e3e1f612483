"""Offline answers to fact questions (issue 17, core/offline/fact_rank.py): a question asking for
a quantity, a date, a place or a name is answered with a sentence that holds one, even when
that sentence shares few words with the question; a signpost ("Next, the Intelligent Cloud
segment.") is quoted with the sentence it introduces; a fact answer starts with the fact, not
with who the person in the question is. Real questions on the project's sample corpus and on
Microsoft's FY24 Q4 earnings call (../shared/corpora)."""
from __future__ import annotations

from pathlib import Path

import pytest

from core.offline.fact_rank import answer_type, passages, quantity_match, rank_facts
from core.offline.sentence_rank import unit_sentences
from core.query.local_search import local_search
from core.query.offline_answer import split_refs
from core.store.db import Store

from conftest import ROOT, build_workspace

_HERE = ROOT.parent / "shared" / "corpora"
CORPORA = _HERE if _HERE.exists() else ROOT.parent.parent / "shared" / "corpora"  # from a worktree
CALL = CORPORA / "msft_earnings_calls" / "TranscriptFY24Q4.txt"
SAMPLE = sorted(p for p in (ROOT / "sample_corpus").iterdir() if p.is_file() and p.name != "README.md")


def first_sentence(answer: str) -> str:
    return split_refs(answer.split("\n\n")[0])[0]


def _answer(tmp_path, name: str, text: str, question: str, search=local_search) -> str:
    """The offline answer a workspace indexed from one text file gives the question."""
    store = Store(build_workspace(tmp_path, name, [(f"{name}.txt", text.encode())]))
    answer = search(store, question).answer
    store.close()
    return answer


def _unit(text: str, hrid: int = 7) -> dict:
    return {"id": f"u{hrid}", "human_readable_id": hrid, "text": text, "document_id": "d", "ordinal": hrid}


def test_the_kind_of_answer_a_question_asks_for():
    assert answer_type("How big is Microsoft's security business?") == "quantity"
    assert answer_type("What was the revenue from the Intelligent Cloud segment this quarter?") == "quantity"
    assert answer_type("How is LinkedIn performing as part of the consumer business?") == "quantity"
    assert answer_type("When did the spill happen?") == "date"
    assert answer_type("Where did Kirtley finish his degree?") == "place"
    assert answer_type("Which analyst asked about capital expenditure?") == "name"
    assert answer_type("Why did Belle release Scrooge from their engagement?") == "reason"
    assert answer_type("What does Nadella mention as a healthy sign for their SaaS core business?") is None


def test_dates_names_with_numbers_and_the_questions_own_figures_are_not_amounts():
    q = "How much would replacing the Berth 2 hose and couplings have cost?"
    assert quantity_match("The spill happened at about 23:40 on Sunday 3 March, when a hose coupling "
                          "failed at Berth 2.", q) == 0
    assert quantity_match("The quote from Marlow Fittings for a new hose assembly, two couplings and "
                          "fitting is $38,400.", q) == 1
    assert quantity_match("Revenue was $28.5 billion, increasing 19%.") == 1


def test_a_signpost_is_quoted_with_the_sentence_it_introduces():
    sents = unit_sentences([_unit("Now to our segment results. Next, the Intelligent Cloud segment. Revenue was "
                                  "$28.5 billion, increasing 19% and 20% in constant currency, ahead of "
                                  "expectations. Overall, server products and cloud services revenue increased 21%.")])
    joined = [p for p in passages(sents) if p.text.startswith("Next, the Intelligent Cloud segment.")]
    assert joined and "$28.5 billion" in joined[0].text and len(joined[0].parts) == 2
    best = rank_facts("What was the revenue from the Intelligent Cloud segment this quarter?", sents)[0][1]
    assert "$28.5 billion" in best.text


def test_a_numbered_name_the_question_asks_about_outranks_the_periods_words():
    """"How fast was Dynamics 365 revenue growing in FY17 Q3?": the one sentence holding Dynamics
    365 answers it, well ahead of the many about the quarter's revenue from Dynamics AX or Office
    365 (in the FY17 Q3 call it came sixth and was cut)."""
    lines = ["Office 365 commercial", "the Dynamics business", "Office 365 consumer", "Dynamics AX", "Windows OEM",
             "search advertising", "Azure", "Xbox content", "LinkedIn", "Surface", "Enterprise Services",
             "server products"] * 2
    filler = " ".join(f"Our third quarter revenue from {w} was ${n}.1 billion, growing {n} percent."
                      for w, n in zip(lines, range(3, 27)))
    sents = unit_sentences([_unit("Our third quarter revenue was $23.6 billion, up 6 percent. " + filler +
                                  " Our innovation in Dynamics is driving strong revenue growth with Dynamics 365 up 82% "
                                  "in constant currency this quarter.")])
    ranked = rank_facts("How fast was Dynamics 365 revenue growing in FY17 Q3?", sents, ["Dynamics 365"])
    assert "82%" in ranked[0][1].text, ranked[0][1].text
    assert ranked[0][0] >= 1.5 * ranked[1][0], [(round(x, 2), p.text[:40]) for x, p in ranked[:3]]


@pytest.fixture(scope="module")
def homes(tmp_path_factory) -> Path:
    home = tmp_path_factory.mktemp("facts")
    build_workspace(home, "sample", [(p.name, p.read_bytes()) for p in SAMPLE])
    if CALL.exists():
        build_workspace(home, "call", [(CALL.name, CALL.read_bytes())])
    return home


def test_a_cost_question_is_answered_with_the_cost(homes):
    store = Store(homes / "sample")
    answer = local_search(store, "How much would replacing the Berth 2 hose and couplings have cost?",
                          record=False).answer
    assert "$38,400" in answer
    assert len(answer) < 2500  # the sentences that answer it, not a wall of text


@pytest.mark.skipif(not CALL.exists(), reason="../shared/corpora is not available")
def test_earnings_call_facts_come_with_their_numbers(homes):
    store = Store(homes / "call")
    cloud = local_search(store, "What was the revenue from the Intelligent Cloud segment this quarter?",
                         record=False).answer
    assert "$28.5 billion" in cloud
    ask = local_search(store, "What does Keith Bachman ask about the growth potential of gaming?", record=False).answer
    assert "Activision" in ask and "longer-term" in ask
    assert "On the call with me are" not in first_sentence(ask)  # the fact first, not the cast
    # who-is keeps saying who first
    assert "chief financial officer" in first_sentence(local_search(store, "Who is Amy Hood?", record=False).answer)


def test_a_key_written_as_code_ranks_the_sentence_that_writes_it_first():
    """"allow_general_knowledge" names one setting; its parts are common words that other
    sentences repeat (after ../shared/corpora/graphrag_docs_md/query_global_search.md)."""
    from core.offline.sentence_rank import Sentence
    texts = ["Global search can draw on the general knowledge of the model, and general knowledge "
             "helps when the knowledge in the data is thin.",
             "allow_general_knowledge: setting this to True adds real-world knowledge outside the dataset "
             "to the answer, which may increase hallucinations.",
             "The reduce step of global search merges the answers of the map step."]
    sents = [Sentence(t, i, f"u{i}", i) for i, t in enumerate(texts)]
    ranked = rank_facts("What does the allow_general_knowledge parameter of global search do?", sents)
    assert ranked[0][1].text.startswith("allow_general_knowledge"), [p.text[:30] for _, p in ranked]


def test_a_question_naming_a_key_written_as_code_is_answered_from_the_passages():
    from core.query.route import route_question
    r = route_question("What is prepend_metadata in GraphRAG chunking?", ["GraphRAG"],
                       available=("global", "local", "basic"))
    assert r.method == "basic" and "prepend_metadata" in r.reason, r.reason
    assert route_question("What goes in pyproject.toml?", [], available=("global", "local", "basic")).method == "basic"
    assert route_question("What did Mr. Scrooge say to Bob Cratchit?", ["Scrooge"],
                          available=("global", "local", "basic")).method == "local"


def test_a_question_put_in_the_text_is_quoted_with_its_reply():
    """A podcast host's question shares the reader's words; the guest's reply after it answers
    (Behind the Tech, Lisa Su: "what you do outside of work, for fun")."""
    text = ("KEVIN SCOTT: I do want to ask you what you do outside of work, for fun?\n\n"
            "LISA SU: Well, I think work is fun. But outside of work, I like to play golf, and I am "
            "kind of a foodie, with a little bit of Bordeaux wine once in a while.\n\n"
            "KEVIN SCOTT: That is great. Thank you so much for being on the show.")
    sents = unit_sentences([_unit(text)])
    best = rank_facts("What does Lisa Su do for fun outside of work?", sents)[0][1]
    assert best.text.startswith("I do want to ask you") and "golf" in best.text, best.text
    assert "Thank you so much" not in best.text


def test_basic_search_answers_a_fact_with_the_sentence_that_holds_its_kind(tmp_path):
    """Basic search ranks passages as local search does (answer type, stemmed words), not by
    plain word overlap: "how late" is answered with the sentence holding the time."""
    from core.query.basic_search import basic_search
    answer = _answer(tmp_path, "office", (
        "Scrooge sat in his office on the morning after Christmas. He wanted to catch Bob Cratchit "
        "coming late to the office. The clock struck nine. No Bob. A quarter past. No Bob. Bob was "
        "full eighteen minutes and a half behind his time.\n\nScrooge sat with his door wide open, "
        "that he might see Bob come into the tank. His hat was off before he opened the door.\n"),
        "How late was Bob to the office?", basic_search)
    assert "eighteen minutes" in first_sentence(answer), answer


def test_a_who_question_s_verb_finds_the_role_that_says_it():
    """"Who founded Bitwise?" is answered by "the CEO and Cofounder of Bitwise", not by "what you
    found along the way" ("founded" and "found" share a stem); "who runs it" by the chief executive."""
    sents = unit_sentences([_unit(
        "What are some of the surprises that you have found along the way at Bitwise? "
        "Irma Olguin is the CEO and Cofounder of Bitwise Industries, a company that trains people for tech "
        "careers. Bitwise runs coding classes in Fresno.")])
    assert "Cofounder" in rank_facts("Who founded Bitwise?", sents)[0][1].text
    assert "CEO" in rank_facts("Who runs Bitwise?", sents, ["Bitwise"])[0][1].text  # as local search asks it


def test_a_question_asking_for_several_ranks_the_sentence_naming_several():
    """"Which customers ...?" shares its words with a sentence about customers in general and with
    the one naming them ("including Accenture, J. Walter Thompson, J.B. Hunt and Expedia", FY17
    Q3's shape); the one naming several comes first, and an analyst's question listing some does not."""
    text = ("SATYA NADELLA: This quarter we made the berth planner broadly available to port customers in 40 "
            "markets. Our new berth planner already serves more than 300 customers including Maersk Line, "
            "J. Lauritzen, H&R Shipping and Evergreen.\n\n"
            "ANALYST: I'm curious which customers, Maersk, Evergreen, or others, are adopting the berth planner.")
    sents = unit_sentences([_unit(text)])
    best = rank_facts("Which customers did Satya Nadella name for the berth planner?", sents)[0][1]
    assert "including Maersk Line, J. Lauritzen" in best.text, best.text


def test_a_word_of_the_same_family_counts_where_the_stemmer_keeps_them_apart():
    """"acquired" and "acquisition" stem apart (acquir, acquisit): the sentence holding the family's
    word answers before one holding only the name (FY19 Q2: "We closed our acquisition of GitHub")."""
    text = ("SATYA NADELLA: Tidewater hired more pilots again, and its fleet grew. "
            "We closed our acquisition of Tidewater, bringing its tools to new audiences.")
    sents = unit_sentences([_unit(text)])
    best = rank_facts("Has Tidewater been acquired?", sents, ["Tidewater"])[0][1]
    assert "acquisition of Tidewater" in best.text, best.text


def test_a_where_question_is_answered_by_the_place_not_by_the_word_location():
    """Operation Dulce: "Where is Dulce Base located?" and "In which state ...": the sentence naming
    New Mexico (a place WordNet knows) comes before "the isolation of their location ... of Dulce"
    and "they stated"; the question's own Dulce Base and "In" opening a sentence are no answer."""
    from core.offline.sentence_rank import Sentence
    texts = ["The isolation of their location, deep within the top-secret labyrinth of Dulce, became suffused with "
             "an almost palpable sense of historical significance.",
             "In the clandestine hush of Dulce Base's subterranean command center, the team had become a crucible.",
             "The gritty, wind-tossed surface of New Mexico, just above the cavernous domain of Dulce Base, offered "
             "no shelter from the storm.",
             "Caution must temper our curiosity, they stated, their voice an anchor.",
             "Another sentence about nothing in particular."]
    sents = [Sentence(t, i, f"u{i}", i) for i, t in enumerate(texts)]
    for q in ("Where is Dulce Base located?", "In which state is Dulce base located?"):
        best = rank_facts(q, sents, ["Dulce Base", "Dulce"])[0][1]
        assert "New Mexico" in best.text, (q, best.text)


def test_a_word_the_passages_never_write_is_looked_for_under_its_synonyms(tmp_path):
    """A user's "buybacks" is the call's "share repurchase" (WordNet: one synset): the sentence
    giving why repurchases fell answers "why did buybacks drop?", in ranking the units and the
    sentences; "thanks to everyone" thanks people and gives no reason."""
    from core.query.basic_search import basic_search
    call = ("MIKE SPENCER: Thank you, and thanks to everyone on the phone for joining. I'm proud of our "
            "results this quarter and of what we did over the last 12 months.\n\n"
            "AMY HOOD: Operating expenses grew 9 percent this quarter. Our Q4 share repurchase was $2.1 billion, "
            "down sequentially given the suspension of share repurchase activity ahead of the acquisition.\n\n"
            "AMY HOOD: Last quarter we also grew commercial bookings, which drop in seasonally.\n")
    answer = _answer(tmp_path, "call", call, "why did buybacks drop from last quarter?", basic_search)
    assert answer.startswith("Our Q4 share repurchase was $2.1 billion, down sequentially given the suspension"), answer


def test_a_question_about_one_person_is_narrow_and_their_calls_are_not_the_corpus():
    """"his video calls" are one person's calls, not the corpus's; "how does she make money?"
    asks about one person of the documents: neither goes to global search's themes."""
    from core.query.route import route_question
    both = ("global", "local", "basic")
    r = route_question("what gear does kevin use for his video calls?", ["Kevin Scott"], available=both,
                       background_titles=["Kevin Scott"])
    assert r.method == "local" and r.family == "narrow", r.reason
    r = route_question("how does she make money?", [], available=both)
    assert r.method == "basic" and "one person" in r.reason, r.reason
    assert route_question("what do the guests do for fun?", [], available=both).method == "global"
    # a yes-or-no question asks about one thing, whether or not the documents name it
    assert route_question("can i run the indexing with kubernetes?", [], available=both).method == "basic"


def test_a_question_that_is_only_a_name_starts_with_what_the_name_is(tmp_path):
    """"what is graphrag?" asks what it is: the sentence saying so ("GraphRAG is a technique
    that ...") comes first, not one that only holds the name ("The GraphRAG system is highly
    configurable")."""
    docs = ("The GraphRAG system is highly configurable. The GraphRAG pipeline reads settings.yaml and the "
            "GraphRAG prompts.\n\nGraphRAG indexes text in steps. GraphRAG is a technique that uses language "
            "models to build knowledge graphs and community summaries from private text.\n")
    answer = _answer(tmp_path, "docs", docs, "what is graphrag?")
    assert first_sentence(answer).startswith("GraphRAG is a technique"), answer


def test_a_dunder_the_question_names_is_code_and_its_passage_answers(tmp_path):
    """"which dataclass fields get left out of __match_args__?" (PEP 634): the list of another
    passage's fields ("the status field ... ATTACHED, DETACHED, GC", PEP 703) is no answer; the
    passage writing __match_args__ is."""
    from core.query.basic_search import basic_search
    from core.text.lexical import CODE_NAME
    assert CODE_NAME.findall("what ends up in __doc__ and __match_args__?") == ["__doc__", "__match_args__"]
    threads = ("Thread states\n=============\n\nThe thread state gets a new status field, and other fields "
               "keep their place. The status field may be in one of three states:\n\n* ATTACHED\n* DETACHED\n"
               "* GC\n\nThe fields of the thread state are private.\n")
    matching = ("Library changes\n===============\n\nSeveral changes will be made to the standard library. "
                "Namedtuples and dataclasses will have auto-generated ``__match_args__``. For dataclasses the order "
                "of attributes in the generated ``__match_args__`` will be the same as in the generated "
                "``__init__()`` method. Fields with ``init=False`` are excluded from ``__match_args__``.\n")
    store = Store(build_workspace(tmp_path, "peps", [("pep-0703.rst", threads.encode()),
                                                      ("pep-0634.rst", matching.encode())]))
    answer = basic_search(store, "which dataclass fields get left out of __match_args__?").answer
    assert "init=False" in answer and "DETACHED" not in answer, answer
    assert "__match_args__" in answer  # a dunder keeps its underscores: a name, not emphasis


def test_a_reaction_is_read_after_the_event_the_question_describes(tmp_path):
    """"how does alex react when sam shouts that they've got something?" (Operation: Dulce): the
    shout is the event; Alex's answer right after it is the reaction, and comes first."""
    from core.offline.fact_rank import rank_facts
    from core.offline.sentence_rank import Sentence
    texts = ["The monitors hummed through the long night shift in the control room.",
             "\"I've got something!\" Sam shouted, and every pair of eyes turned to the screen.",
             "Jordan leaned closer to the torrent of symbols.",
             "\"Define something,\" Alex prompted, calm and exact, asking for clarity first.",
             "Later that week Alex said the base had got something of a reputation."]
    sents = [Sentence(t, i, "u1", i) for i, t in enumerate(texts)]
    ranked = rank_facts("how does alex react when sam shouts that they've got something?", sents)
    assert ranked[0][1].text.startswith("\"Define something"), [p.text[:30] for _, p in ranked]
