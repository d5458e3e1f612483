"""UI components shared by the pages, in layers: state at the bottom, widgets above it, the
app frame on top. A module imports only from its own layer or below (tests/test_layers.py).

state         session state: workspace, store, engine settings, escaping, error display
chips         citation chips with their evidence; drilldown  the record/document dialogs
trace         how an answer was made; runs  index runs (estimate, live, history, failures)
method_views  the Ask page's auto, DRIFT and TS (options, run, traces)
compare_view  the Compare page: answers side by side, verdicts, win-rate heatmap
import_panel  opening a Microsoft GraphRAG index; quality  merges and rejected names
documents     removing documents (with a confirmation) and replacing one by a new version
downloads     answer/report Markdown, community GraphML, workspace exports; links  deep links
run_outcome   first steps, what a finished run built, re-index; workspace_admin  rename, delete
sidebar       workspace picker and engine panel
verdicts      a chip's verdict badge, answer sentences marked where their sources fail them
trust         a report's trust line and the least trusted reports; check_text  "Check a text"
navigation    the app frame: page config, sidebar and the st.navigation router
"""
