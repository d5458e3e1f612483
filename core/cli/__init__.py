"""The `sensemaker` command line.

main     assembles the subcommands and turns known errors into one-line messages (exit 2)
index    `index` (`--replace`), `status` and `app`
documents  `remove`; change_output  the change summary a run prints, `--replace`
query    `query` (global or local questions) and `traces`
verify   `verify` (citations of every report) and `check` (workspace integrity)
interop  `import-graphrag` and `export`
compare  `compare` (methods judged pairwise)
acting   who a command acts as: the local user, or SENSEMAKER_USER with their role
auth_config  `app`'s sign-in settings from SENSEMAKER_OIDC_* (a secrets file for st.login)
"""
