"""Verdicts on cited sentences: does the cited text support, contradict or not say a sentence,
and does it name anything the documents never mention?

actors     another actor for the same fact: the passage's speaker, another name in the same slot
roles      a role the cited text gives another person by apposition ("I'm your host, Kevin Scott")
subjects   a figure the cited text gives for another subject (Dynamics vs Dynamics 365)
facts      the key facts a sentence asserts (names, numbers with units, negation, content terms)
lexicon    the word lists those use (negations, antonyms, synonyms, titles, number words)
paraphrase a claim's words in the cited text's words, through WordNet synonyms
words/     the word lists, one text file each (negations, antonyms, synonyms, titles ...)
names      is a name anywhere in the workspace (entity titles, full-text search over text units)
absent     the names a sentence gives that no document holds (fabricated)
clauses    a claim cut into clauses; which ones a reason or inference connective opens
offline    the offline judge (no model; the default): read and align, the rules, meaning, decide
claim      its records and first steps: Claim (read), Alignment (locate, align), Passage
rules      the rules as units (Rule, the ordered REGISTRY) and the Policy (rules.json + a
           workspace's `verify` setting): what runs, what is trusted alone, the thresholds
decide     the one place a verdict is set: the precedence table; the model's reading, a quote
           found elsewhere and removed sources too
align      the alignment: the cited units as sentences, the best sentence and its window, word look-ups
polarity   the polarity checks: negation cues, antonyms, reversed comparisons
name_check, actor_check, number_check   the name, actor and number rules' checks
model      the entailment judge (a model call per sentence; exact quotes or the offline verdict)
judges     choose a judge by name (offline | model)
verdict    the records: Verdict, Fact, Span; verdict names and their order
reports    every report's findings judged; a trust line per report, least supported first
text       check a text of one's own: every cited sentence of a paragraph or a claims file
"""
