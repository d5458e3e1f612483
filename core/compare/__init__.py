"""Which method answers best: several search methods on the same questions, judged pairwise.

Modules: judge (pairwise verdicts per criterion, both answer orders, N trials, cached; an
offline judge without a model), stats (win rates with 95% intervals, sign tests, position bias,
the A/A check), assertions (the share of expected facts an answer states, by the verifier),
questions (question and assertion files), run (a comparison run written into a folder), saved
(where runs are kept; the judge's model).
"""
