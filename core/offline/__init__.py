"""The offline engine: a GraphRAG index and answers with no model at all.

engine    the IndexEngine of the offline engine: sentence-level extraction, summaries, reports
mentions  finding entity mentions in a sentence (English names and phrases, Chinese via jieba)
reports   extractive description summaries and community reports
sentence_rank  quotable source sentences (no headers, licence text, headings), name patterns,
          ranking against a question (amounts for "how much" questions)
themes    the offline global answer: one titled theme per scored community, central cited sentences
definitions  the offline local answer: who or what the entity is, its ties, the rest of the question
fact_rank  ranking passages for a fact question: answer type, stemmed and rare words, signposts
"""
