"""The `sensemaker` command line.

main     assembles the subcommands and turns known errors into one-line messages (exit 2)
index    `index` (`--replace`), `status` and `app`
documents  `remove`; change_output  the change summary a run prints, `--replace`
query    `query` (global or local questions) and `traces`
verify   `verify` (citations of every report) and `check` (workspace integrity)
interop  `import-graphrag` and `export`
compare  `compare` (methods judged pairwise)
"""
