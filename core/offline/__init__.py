"""The offline engine: a GraphRAG index and answers with no model at all.

engine    the IndexEngine of the offline engine: sentence-level extraction, summaries, reports
mentions  finding entity mentions in a sentence (English names and phrases, Chinese via jieba)
lower_names  tools, packages and models written in lower case, where the text shows them as names
reports   extractive description summaries and community reports
sentence_rank  quotable source sentences (no headers, licence text, headings), name patterns,
          ranking against a question (amounts for "how much" questions)
themes    the offline global answer: one theme per scored community, titled in the corpus's words,
          central cited sentences
definitions  the offline local answer: who or what the entity is, its ties, the rest of the question
fact_rank  ranking passages for a fact question: answer type, stemmed and rare words, signposts
"""
