"""The offline engine: a GraphRAG index and answers with no model at all.

engine    the IndexEngine of the offline engine: sentence-level extraction, summaries, reports
mentions  finding entity mentions in a sentence (English names and phrases, Chinese via jieba)
reports   extractive description summaries and community reports
"""
