"""Indexing: documents -> text units -> graph -> communities -> reports -> embeddings.

pipeline           runs the stages with progress, per-item state and resume
background         an index run in a child process (the app stays usable; a reload finds it)
progress           progress events and the per-stage state a run resumes from
llm_engine         the LLM engine: extraction, gleaning, claims, summaries, reports by prompts
chunking           chunks that keep their span in their document: token windows, and the
                   content-defined chunks (cut at sentence/paragraph ends) the index uses
chunk_stage        documents into text units (ids from their text: an edit keeps the others)
extract_stage      entities, relationships and claims per unit; grounding  rejecting invented ones
name_shape         rejecting a model's names shaped like sentence openers (adverbs, phrases)
graph_stage        merging entities and relationships, summarising their descriptions
cooccurrence       inferred edges between entities of one sentence where the model stated none
entity_resolution  near-duplicate names merged where the graph supports it (undoable)
communities_stage  hierarchical Leiden (graspologic-native)
report_context     the context of a community report, packed to a token budget
reports_stage      community reports, scheduled as soon as their sub-communities' exist
embed_stage        entity embeddings
lifecycle          documents change: remove one, replace one (first step, one transaction)
prune              text units removed with what only they supported; tombstones (`removed`)
community_reuse    stable community numbers; reports kept when what they are written from is not
changes            the change summary of every run (added / removed / changed, calls by kind)
"""
