"""The workspace store: one SQLite database per workspace.

db         the Store: schema creation, per-thread connections, reads and writes, full-text search
schema     column names and types of every table, defined once
workspace  workspaces as named folders under one root, names sanitised and confined to it
references a citation reference -> its record, text units (with spans) and documents; batched,
           cached (the Resolver)
check      workspace integrity (`sensemaker check`): references, orphans, full-text indexes
team       the team database: members per workspace and the audit log (SQLite or PostgreSQL)
access     roles per workspace: a store opened for a user carries their role; `require` checks it
"""
