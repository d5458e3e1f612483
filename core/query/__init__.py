"""The query side of the engine: searches, and the citations their answers carry.

global_search   map-reduce over the community reports of one level
levels          which reports a level reads: its communities and the leaves above it
local_search    an answer from the neighbourhood of the entities a question names
lazy/           lazy search (LazyGraphRAG's query side): refine, match with a budget of relevance
                tests over the community hierarchy, claims, reduce (see its __init__)
basic_search    the vector-RAG baseline: the question's best text units, one answer call
unit_rank       ranking text units against a query (embeddings or BM25), best passages
methods/        the registry: one module per search method (its options, run, account) and the
                frame every method runs through (query --method, the Ask page, Compare)
drift/          DRIFT: primer over reports, rounds of follow-ups by local search, one reduce
ts_search       TS baseline: global map-reduce over shuffled text units instead of reports
route           auto: the method a question should go to, with a one-line reason
offline_answer  the offline scorer and extractive answers (no model)
types           parameters, map batches, points and the search result
context         context text for the models, packed to token budgets
budget          fitting a query's budgets into the model's context window
coverage        what a reduce answer leaves out of the best points (small models)
attribution     references for text that copies its sources but drops their markers
traces          every query, stored in query_traces
resolve         an answer's citations resolved (core.store.references) and judged (core.verify)
"""
