"""DRIFT search (graphrag's DRIFT, our design): a primer over the reports most like a
hypothetical answer, rounds of local search on the best follow-up questions, one reduce.

Modules: primer (the hypothetical answer, report ranking, folds -> intermediate answers, scores
and follow-ups), search (params, the rounds of follow-ups, the reduce, the trace tree).
"""
