"""Build bench/data/routing.jsonl: labelled questions for the query-router benchmark.

Labels were assigned by reading each question (not by a keyword rule); the per-question
judgements for the published sets are written out below, with a note wherever the call was
not obvious. Run from anywhere:  python bench/data/build_routing.py
"""
import csv
import json
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPORA = HERE.parents[2] / "shared" / "corpora"      # /work/shared/corpora
OUT = HERE / "routing.jsonl"

N, B = "narrow", "broad"


def read_csv(path):
    # utf-8-sig only strips the byte-order mark; the question text is kept byte for byte.
    with open(path, encoding="utf-8-sig", newline="") as fh:
        return list(csv.DictReader(fh))


# --- msft_single_transcript_questions.csv (FY24 Q4 call, TranscriptFY24Q4.txt) ------------
# question_id -> (family, method). Row 20 is an empty string in the published file: skipped.
SINGLE = {
    0: (B, "global"),   # "categories which encapsulate" all of Nadella's priorities: a summary
                        # of his whole prepared remarks (the bulk of the transcript), not a fact
    1: (N, "local"),    # two headline figures Nadella states in his opening lines
    2: (N, "local"),    # one sentence of Nadella's remarks
    3: (N, "local"),    # Azure + Nadella, one section
    4: (N, "basic"),    # the "developer tools" section (GitHub Copilot); no entity named
    5: (N, "local"),    # security paragraph of Satya's remarks
    6: (N, "local"),    # LinkedIn section
    7: (N, "local"),    # Activision: scattered over Amy Hood's segment lines but one entity
    8: (N, "local"),    # one segment's guidance + drivers
    9: (N, "local"),    # one segment's revenue + guidance
    10: (N, "local"),   # LinkedIn revenue + guidance
    11: (B, "global"),  # "main themes or categories ... detailed summary for each": summary of
                        # everything Amy Hood says (a large share of the document)
    12: (N, "local"),   # capex management per Nadella (Q&A answer)
    13: (N, "local"),   # one Hood answer
    14: (N, "local"),   # one Hood answer
    15: (N, "local"),   # one Nadella remark
    16: (N, "local"),   # Keith Bachman's question
    17: (N, "local"),   # the answers to that question
    18: (N, "local"),   # one Q&A exchange
    19: (N, "local"),   # one Q&A exchange
}

# --- msft_multi_transcript_questions.csv (41 calls, FY14-FY24) ------------------------------
# All ask for aggregation or change over many transcripts: broad. "lazy" where the question is
# exploratory, i.e. collects scattered, sparse mentions rather than the dominant themes.
MULTI = {
    0: (B, "global"),   # key metrics discussed in the transcripts
    1: (B, "global"),   # revenue targets over 10 years
    2: (B, "global"),   # CEO's strategic initiatives across presentations
    3: (B, "global"),   # which units grew / declined
    4: (B, "global"),   # market trends
    5: (B, "lazy"),     # "recent developments in product development": exploratory
    6: (B, "global"),   # projected challenges
    7: (B, "global"),   # future outlook
    8: (B, "global"),   # recurring themes with analysts
    9: (B, "global"),   # revenue projections over the years
    10: (B, "global"),  # consistently emphasised initiatives
    11: (B, "lazy"),    # regional market performance: sparse mentions across calls
    12: (B, "global"),  # evolution of R&D discussion
    13: (B, "global"),  # key takeaways
    14: (B, "lazy"),    # metrics linked to stock price: sparse, exploratory
    15: (B, "lazy"),    # challenges from business-unit leaders: exploratory
    16: (B, "global"),  # initiatives vs market position
    17: (B, "global"),  # analyst feedback / concerns
    18: (B, "global"),  # priorities over 10 years
    19: (B, "global"),  # changes in financial health
}

# --- handwritten ---------------------------------------------------------------------------
# (corpus, question, family, method). Half narrow, half broad; see README for the hard calls.
HAND = [
    # A Christmas Carol -- narrow
    ("christmas_carol", "Who is Bob Cratchit?", N, "local"),
    ("christmas_carol", "When does Scrooge see Marley's ghost?", N, "local"),
    ("christmas_carol", "What is the main character's name?", N, "basic"),
    ("christmas_carol", "How many years has Jacob Marley been dead when the story opens?", N, "local"),
    ("christmas_carol", "What does Scrooge send to the Cratchits' house on Christmas morning?", N, "local"),
    ("christmas_carol", "What is the name of Scrooge's nephew, and what does he invite Scrooge to?", N, "local"),
    ("christmas_carol", "Whose name is on the neglected gravestone that the last spirit shows Scrooge?", N, "local"),
    ("christmas_carol", "Summarize the party at Fezziwig's warehouse that the Ghost of Christmas Past shows Scrooge.", N, "local"),
    ("christmas_carol", "What part does the Cratchit family play in the story?", N, "local"),
    # A Christmas Carol -- broad
    ("christmas_carol", "What are the main themes of A Christmas Carol?", B, "global"),
    ("christmas_carol", "How does Scrooge change over the whole story?", B, "global"),
    ("christmas_carol", "What is the book about?", B, "global"),
    ("christmas_carol", "What does the story suggest about the duty of the rich toward the poor?", B, "global"),
    ("christmas_carol", "How do the three spirits differ in the way they work on Scrooge?", B, "global"),
    ("christmas_carol", "What kinds of Christmas celebrations are shown across the book, from the poorest homes to the richest?", B, "lazy"),
    ("christmas_carol", "Is the tale more hopeful or more bleak, taken as a whole?", B, "global"),
    ("christmas_carol", "Which recurring images of cold and warmth does Dickens use, and what do they stand for?", B, "lazy"),
    ("christmas_carol", "How does Dickens use the supernatural throughout the story?", B, "global"),

    # Operation: Dulce -- narrow
    ("operation_dulce", "Who is Taylor Cruz?", N, "local"),
    ("operation_dulce", "What is Sam Rivera's speciality on the team?", N, "local"),
    ("operation_dulce", "What did Jordan Hayes notice about the panel in the corridor of Dulce base?", N, "local"),
    ("operation_dulce", "What happened when the drone found the team inside the base?", N, "local"),
    ("operation_dulce", "Which unit do the four agents belong to?", N, "basic"),
    ("operation_dulce", "What is the name of the main operation in the story?", N, "basic"),
    ("operation_dulce", "What joke does Sam make while the elevator descends?", N, "local"),
    ("operation_dulce", "Who does Alex Mercer act as a mentor to?", N, "local"),
    # Operation: Dulce -- broad
    ("operation_dulce", "What are the main themes of Operation: Dulce?", B, "global"),
    ("operation_dulce", "What is this story about, in a few sentences?", B, "global"),
    ("operation_dulce", "How do the relationships inside the team evolve over the novella?", B, "global"),
    ("operation_dulce", "How does the text set protocol against intuition?", B, "global"),
    ("operation_dulce", "How does Jordan Hayes's outlook shift over the course of the mission?", B, "global"),
    ("operation_dulce", "What does the novella suggest about trust and leadership?", B, "global"),
    ("operation_dulce", "What devices does the writing keep using to build suspense?", B, "lazy"),
    ("operation_dulce", "Which conflicts, personal and external, drive the plot?", B, "global"),

    # sample_corpus (Port Aldermere) -- narrow
    ("sample_corpus", "What did Maria Okafor report on 4 March?", N, "local"),
    ("sample_corpus", "How much did Owen Pike's quote for the new Berth 2 hose and couplings come to?", N, "local"),
    ("sample_corpus", "How many dockworkers were treated at Aldermere General Hospital after the spill?", N, "local"),
    ("sample_corpus", "What was the main chemical released in the spill?", N, "basic"),
    ("sample_corpus", "At what time did the coupling fail?", N, "basic"),
    ("sample_corpus", "What was the overall result of the vote on the Mayor's amendment on 14 March?", N, "local"),
    ("sample_corpus", "Summarize what Owen Pike asked Thomas Whitlock for in January.", N, "local"),
    ("sample_corpus", "How is the hospital's funding connected to Lantern Wharf?", N, "local"),
    ("sample_corpus", "How does Maria Okafor's account of the Berth 2 inspection change between February and April?", N, "local"),
    ("sample_corpus", "东门社区通讯说 4 月 27 日有什么活动？", N, "local"),
    ("sample_corpus", "What warnings about Berth 2 were given before the spill, by whom, and what happened to each?", N, "local"),
    # sample_corpus -- broad
    ("sample_corpus", "How do the documents portray the city's response to the spill overall?", B, "global"),
    ("sample_corpus", "What are the main conflicts in the city?", B, "global"),
    ("sample_corpus", "What is this collection of documents mostly about?", B, "global"),
    ("sample_corpus", "Who is responsible for the spill?", B, "lazy"),
    ("sample_corpus", "Who comes out of these four months looking worst, and why?", B, "global"),
    ("sample_corpus", "What trends appear across the documents, from January to April, in how Calloway Chemicals is treated by the press and the council?", B, "global"),
    ("sample_corpus", "Which groups are in tension with one another in Port Aldermere, and over what?", B, "global"),
    ("sample_corpus", "总体来看，这些文件如何描述市政府对泄漏事件的处理？", B, "global"),
    ("sample_corpus", "How do the different sources disagree about the facts of the spill?", B, "lazy"),
    ("sample_corpus", "What happened in Port Aldermere between January and April 2024?", B, "global"),
    ("sample_corpus", "How well do the city's institutions protect its residents, judging by these documents?", B, "global"),
]

HAND_PREFIX = {"christmas_carol": "cc", "operation_dulce": "dulce", "sample_corpus": "aldermere"}


def main():
    rows = []

    pod = read_csv(CORPORA / "behind_the_tech_podcasts" / "kevin_scott_questions.csv")
    assert len(pod) == 125, len(pod)
    for r in pod:
        rows.append({"id": f"podcast-{r['question_id']}", "corpus": "behind_the_tech_podcasts",
                     "question": r["question_text"], "family": B, "method": "global",
                     "source": "podcast_published"})

    for name, labels, source, prefix in (
            ("msft_single_transcript_questions.csv", SINGLE, "earnings_single_published", "earnings-single"),
            ("msft_multi_transcript_questions.csv", MULTI, "earnings_multi_published", "earnings-multi")):
        seen = set()
        for r in read_csv(CORPORA / "msft_earnings_calls" / name):
            qid = int(r["question_id"])
            if not r["question_text"].strip():
                assert qid not in labels, qid          # the empty row has no label
                continue
            family, method = labels[qid]
            seen.add(qid)
            rows.append({"id": f"{prefix}-{qid:02d}", "corpus": "msft_earnings_calls",
                         "question": r["question_text"], "family": family, "method": method,
                         "source": source})
        assert seen == set(labels), (name, set(labels) - seen)

    counters = Counter()
    for corpus, question, family, method in HAND:
        counters[corpus] += 1
        rows.append({"id": f"hand-{HAND_PREFIX[corpus]}-{counters[corpus]:02d}", "corpus": corpus,
                     "question": question, "family": family, "method": method,
                     "source": "handwritten"})

    for r in rows:
        assert (r["family"] == N) == (r["method"] in ("local", "basic")), r
    assert len({r["id"] for r in rows}) == len(rows)

    with open(OUT, "w", encoding="utf-8", newline="\n") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")

    by = Counter((r["source"], r["family"]) for r in rows)
    for (s, f), n in sorted(by.items()):
        print(f"{s:28s} {f:6s} {n}")
    print("methods", dict(Counter(r["method"] for r in rows)), "total", len(rows))


if __name__ == "__main__":
    main()
