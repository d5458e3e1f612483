"""Lazy search: LazyGraphRAG's query side over our index (Microsoft Research, Nov 2024): the
model is spent at query time only, within a budget of relevance tests.

params   the knobs (relevance-test budget with its presets 100, 500, 1,500; subqueries, z, ...)
trace    the records a lazy query leaves: subqueries, community visits, tests, claims, phases
refine   the question into subqueries and one expanded question; subqueries get the graph's
         matching concepts (entities)
match    per subquery: units ranked, communities ranked by their best units, yes/no relevance
         tests in rounds, iterative deepening over the community hierarchy, within the budget
claims   map: the claims of the relevant units, grouped by community; ranked and packed
search   the whole: refine, match, map, reduce (with the verifier's verdicts on the references)
"""
