"""Text handling shared by the index, the judge and the answers, below all of them: citation
markers (citations: parse, strip, disarm, sentence spans), the lexical support score (support),
and the lexical tools of extractive answers (lexical: terms, stopwords, BM25, cite, prose)."""
