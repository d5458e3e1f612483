"""Tools, packages and models that technical text writes in lower case ("lancedb", "gpt-4o",
"mypy") are entities where the text shows them as names; commands, keys, identifiers, paths and
English words written the same way are not."""
from __future__ import annotations

import pytest

from core.ingest.structure import markdown_to_text
from core.offline.engine import OfflineEngine
from core.offline.lower_names import lower_names

# sentences in the shape of ../shared/corpora/graphrag_docs_md and python_peps
CASES = [
    ("Our tests with gpt-4o, gpt-4o-mini, and o1 show that the prompts hold up.", ["gpt-4o", "gpt-4o-mini", "o1"]),
    ("You can use a store other than the built-in lancedb, Azure AI Search, and CosmosDB.", ["lancedb"]),
    ("It adds support for off-line type checkers such as mypy, as well as runtime checks.", ["mypy"]),
    ("Nobody wants to use anything else, because distutils/setuptools got there first.", ["distutils", "setuptools"]),
    ("Run graphrag init --root ./ragtest and call create_communities(x) afterwards.", []),
    ("Edit the settings.yaml file, e.g. the chunk size.", []),
    ("Then, lancedb is used for vectors.", []),
    ("Most linters, formatters and iterators, etc., ship with it.", []),
    ("See https://github.com/dropbox/pyxl and docs/index.md for ollama.", []),
    # English words with a prefix, and old English (A Christmas Carol, Stave Four)
    ("He lay, in the dark empty house, unwatched, unwept, uncared for, amongst strangers.", []),
    ("Multi-cloud, multi-platform and cross-device work, Microsoft said.", []),
]


@pytest.mark.parametrize("sentence,names", CASES)
def test_lower_case_names_by_how_the_text_uses_them(sentence, names):
    assert [w for w, _, _ in lower_names(sentence, 0)] == names


def test_a_link_text_is_a_name_and_the_engine_keeps_the_listed_ones_as_entities():
    md = ("# Local models\n\nWe have used platforms such as [ollama](https://ollama.com/) and "
          "[LiteLLM](https://litellm.ai/) with GraphRAG.\n\n"
          "We use [poethepoet](https://pypi.org/project/poethepoet/) to run scripts.\n\n"
          "Embeddings go to the built-in lancedb, Azure AI Search, and CosmosDB. "
          "The command `graphrag index` writes `create_communities` to the output.\n")
    text, structure = markdown_to_text(md)
    got = OfflineEngine().extract({"id": "u1", "text": text, "human_readable_id": 0,
                                   "structure": structure.to_dict()})
    titles = {e["title"].upper() for e in got.entities}
    assert {"OLLAMA", "POETHEPOET", "LANCEDB"} <= titles
    assert not titles & {"GRAPHRAG INDEX", "CREATE_COMMUNITIES", "LOCAL MODELS", "INDEX"}
