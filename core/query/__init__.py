"""The query side of the engine: searches, and the citations their answers carry.

citations  parse `[Data: Reports (1, 3); Entities (5, +more)]` markers, strip and format them
resolve    turn every reference into records, text units (with spans) and documents
support    judge whether the cited source text supports the sentence that cites it
verify     check the citations of every community report in a workspace
"""
