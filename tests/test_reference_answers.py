"""A reference page's settings answer questions about them: a field's line ("`vector_size` **int**:
(optional) - Vector size for the embeddings. Default=`3072`") is one quotable sentence, whatever
its identifiers and missing full stop; a question naming a setting as code finds the page that
writes it; "What is X?" opens with the sentence that has X doing what it does. A page in the shape
of ../shared/corpora/graphrag_docs_md/config_yaml.md and query_drift_search.md, written for this test."""
from __future__ import annotations

from conftest import build_workspace
from core.offline.definitions import definition_score
from core.offline.sentence_rank import is_boilerplate, name_pattern
from core.query.methods import run_method
from core.store.db import Store

OVERVIEW = """# Harbourline overview

Harbourline schedules berths for container ports. It stores its output in a vector store and
answers questions about the schedule. The vector store holds embeddings of each schedule note,
and every embedding is written to the configured store after indexing. Store settings are
described on the reference page.

## Tidal Routing

Tidal Routing (Time-Indexed Dock And Lane Routing) builds upon the berth graph, combining the
tide table with the crane plan to route each vessel.

To learn more about Tidal Routing, please refer to the Tidal Routing page.
"""

REFERENCE = """# Store reference

## vector_store

Where to put all vectors for the system. Configured for lancedb by default.

#### Fields

- `db_uri` **str** (lancedb only) - The database uri. Default=`output/lancedb`
- `vector_size` **int**: (optional) - Vector size for the embeddings. Default=`3072`
- `allow_overwrite`: setting this to True replaces the vectors of a note written twice. Default is False
- `batch_notes` **int** - How many notes to embed in one request. Default=`16`
"""


def test_a_fields_line_is_one_quotable_sentence():
    assert not is_boilerplate("vector_size int: (optional) - Vector size for the embeddings. Default=3072")
    assert not is_boilerplate("The allow_overwrite setting replaces the vectors of a note written twice.")
    assert is_boilerplate("output_dir_name")  # an identifier alone is a name, not a sentence
    assert is_boilerplate("Store Settings And Their Defaults")  # a heading in title case is none


def test_a_setting_named_as_code_is_answered_from_its_line(tmp_path):
    store = Store(build_workspace(tmp_path, "ws", [("overview.md", OVERVIEW.encode()),
                                                   ("reference.md", REFERENCE.encode())]))
    r = run_method("auto", store, "What is the default vector_size for an embedding in the vector store?")
    first = r.answer.split(" [Data:")[0]
    assert first.startswith("vector_size int: (optional) - Vector size for the embeddings. Default=3072"), r.answer
    r = run_method("auto", store, "What does the allow_overwrite setting do, and what is its default?")
    assert r.answer.startswith("allow_overwrite: setting this to True replaces") and "Default is False" in \
        r.answer.split(" [Data:")[0], r.answer


def test_what_is_x_opens_with_the_sentence_that_has_x_doing_what_it_does():
    pat = name_pattern(["Tidal Routing"])
    doing = ("Tidal Routing (Time-Indexed Dock And Lane Routing) builds upon the berth graph, combining the "
             "tide table with the crane plan to route each vessel.")
    pointer = "To learn more about Tidal Routing, please refer to the Tidal Routing page."
    assert definition_score(doing, pat) > definition_score(pointer, pat) == 0.0
