"""Tools, packages and models that technical text writes in lower case ("lancedb", "gpt-4o",
"mypy") are entities where the text shows them as names; commands, keys, identifiers, paths and
English words written the same way are not."""
from __future__ import annotations

import pytest

from core.ingest.structure import markdown_to_text
from core.offline.engine import OfflineEngine
from core.offline.lower_names import config_values, lower_names

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
    # a kind of software after the word, or an apposition naming one
    ("We read the file using the tomlkit library.", ["tomlkit"]),
    ("When we found out about the nogil fork of Python it took a week.", ["nogil"]),
    ("The allocator is replaced with mimalloc, a general-purpose thread-safe allocator.", ["mimalloc"]),
    # a field's values written a|b|c; a type's name is none
    ("type file|memory|blob|cosmosdb - The storage type to use.", ["cosmosdb"]),
    ("base_dir str|None - The directory to write to.", []),
    ("call_args dict[str, Any] - Default arguments.", []),
    ("He lay, in the dark empty house, unwatched, unwept, uncared for, amongst strangers.", []),
    ("Multi-cloud, multi-platform and cross-device work, Microsoft said.", []),
    # the kind of software before the name (PEP 703: "a third package, ``threadpoolctl``")
    ("The user must manage it via environment variables or a third package, threadpoolctl.", ["threadpoolctl"]),
    ('When we found out about the "nogil" fork of Python it took a week.', ["nogil"]),
    ("graphml is a standard file format supported by many visualization tools.", ["graphml"]),
    # mailing lists, named the way open-source projects name them
    ("The goal is to get distutils-sig out of the business of being a gatekeeper.", ["distutils-sig"]),
    ("It was discussed on python-dev and python-ideas at length.", ["python-dev", "python-ideas"]),
]


def _md_titles(md: str) -> set[str]:
    """The titles, upper case, of the entities the offline engine extracts from a Markdown unit."""
    text, structure = markdown_to_text(md)
    got = OfflineEngine().extract({"id": "u1", "text": text, "human_readable_id": 0,
                                   "structure": structure.to_dict()})
    return {e["title"].upper() for e in got.entities}


@pytest.mark.parametrize("sentence,names", CASES)
def test_lower_case_names_by_how_the_text_uses_them(sentence, names):
    assert [w for w, _, _ in lower_names(sentence, 0)] == names


def test_a_link_text_is_a_name_and_the_engine_keeps_the_listed_ones_as_entities():
    md = ("# Local models\n\nWe have used platforms such as [ollama](https://ollama.com/) and "
          "[LiteLLM](https://litellm.ai/) with GraphRAG.\n\n"
          "We use [poethepoet](https://pypi.org/project/poethepoet/) to run scripts.\n\n"
          "Embeddings go to the built-in lancedb, Azure AI Search, and CosmosDB. "
          "The command `graphrag index` writes `create_communities` to the output.\n")
    titles = _md_titles(md)
    assert {"OLLAMA", "POETHEPOET", "LANCEDB"} <= titles
    assert not titles & {"GRAPHRAG INDEX", "CREATE_COMMUNITIES", "LOCAL MODELS", "INDEX"}


def test_a_code_blocks_settings_name_the_models_and_stores_it_uses():
    code = ("models:\n  default_chat_model:\n    model_provider: openai\n    model: gpt-4.1\n"
            "    api_key: ${GRAPHRAG_API_KEY}\n    auth_method: api_key\nvector_store:\n  type: lancedb\n"
            "  db_uri: output/lancedb\n  file: settings.yaml\n  mode: file\nbackend = \"ollama\"\nx = foo\n")
    assert [w for w, _, _ in config_values(code)] == ["openai", "gpt-4.1", "lancedb", "ollama"]


def test_a_reference_page_keeps_its_products_and_not_its_field_types():
    """A configuration reference in the shape of graphrag_docs_md/config_yaml.md: products written
    in lower case in settings, value lists and acronyms are entities; the field list's types
    ("**str**"), code values ("`True`") and identifier parts ("ENV" of `${ENV_VAR}`) are not."""
    md = ("# Configuration\n\nUse a `settings.yml` file; we initialize with YML by default but you may "
          "use the equivalent JSON form. Tokens use `${ENV_VAR}` syntax.\n\n"
          "```yaml\nmodels:\n  default:\n    model_provider: openai\n    model: gpt-4.1\n```\n\n"
          "## Fields\n\n"
          "- `name` **str** - The name of the model.\n"
          "- `type` **file|memory|blob|cosmosdb** - The storage type to use. Default=`file`\n"
          "- `call_args`: **dict[str, Any]** - Default arguments for each request.\n"
          "- `async_mode` **asyncio|threaded** - The async mode to use.\n"
          "- `enabled` **bool** - Whether to run it. Default=`True`.\n"
          "- `deployment_name` **str|None** - The deployment name if your model is hosted on Azure. "
          "Note that if your deployment name on Azure matches the model name, this is unnecessary.\n"
          "- `type` **lancedb|azure_ai_search|cosmosdb** - The vector store, e.g. azure_ai_search.\n")
    titles = _md_titles(md)
    assert {"YML", "JSON", "GPT-4.1", "COSMOSDB", "LANCEDB", "ASYNCIO", "AZURE"} <= titles
    assert not titles & {"STR", "DICT", "BOOL", "NAME STR", "TRUE", "ENV", "VAR", "FIELDS"}


def test_an_english_word_written_as_code_is_a_tool_where_the_text_gives_it_as_one():
    # PEP 517: "installation tools like ``pip``"; "pip" and "wheel" are English words as well
    s = "It is for installation tools like pip. We read the wheel package. Then pip runs, as code does."
    code = [(s.index("pip"), s.index("pip") + 3), (s.index("wheel"), s.index("wheel") + 5),
            (s.rindex("pip"), s.rindex("pip") + 3), (s.index("code"), s.index("code") + 4)]
    assert [w for w, _, _ in lower_names(s, 0, (), code)] == ["pip", "wheel"]
    # not written as code: English words, but for the one given as an example of a kind of software
    assert [w for w, _, _ in lower_names(s, 0)] == ["pip"]


def test_capitalised_words_joined_by_slashes_are_listed_names():
    from core.offline.corpus_names import corpus_names
    names = corpus_names(["downstream packaging systems like Debian/Fedora/Conda/..., and so on",
                          "Input/Output and And/Or are two, not three"])
    assert all(names.listed[w] == 1 for w in ("debian", "fedora", "conda"))
    assert not names.listed["input"] and not names.listed["and"]
    assert names.named("Fedora") and names.named("Conda")  # a list of names shows it once


def test_the_corpus_counts_names_in_possessives_and_lower_case_only_in_prose():
    from core.offline.corpus_names import corpus_names
    names = corpus_names(["Special mention also to Dropbox's pyxl for tackling similar ideas.",
                          "It leaves that to Dask and other solutions, and ``dask.array`` wraps ``numpy.ndarray``.",
                          "Alternative implementations like Jython [#jython]_ and IronPython.",
                          "On non-Windows systems it differs; the package is only required on Windows.",
                          "We use pandas. Then Pandas was mentioned once."])
    assert names.named("Dropbox") and names.named("Dask") and names.named("Jython") and names.named("Windows")
    assert not names.named("Pandas")  # once capitalised, once in lower case in prose


def test_an_english_word_linked_or_written_as_code_beside_other_names_is_one():
    # PEP 517: "see `flit <...>`_ or `bento <...>`_"; PEP 668: "Examples include ``apt``, ``dpkg``, ..."
    s = "To give a sense of what we're thinking about see flit or bento. Fortunately, wheels have solved it."
    links = [(s.index("flit"), s.index("flit") + 4), (s.index("bento"), s.index("bento") + 5)]
    assert [w for w, _, _ in lower_names(s, 0, links)] == ["flit", "bento"]
    assert [w for w, _, _ in lower_names(s, 0)] == []  # not linked: "flit" is an English word
    t = "Examples include apt, dpkg, dnf, and brew. The match and case keywords, like if and else, stay."
    code = [(t.index(w), t.index(w) + len(w)) for w in ("apt", "dpkg", "dnf", "brew", "match", "case", "if", "else")]
    assert [w for w, _, _ in lower_names(t, 0, (), code)] == ["apt", "dpkg", "dnf", "brew"]


def test_a_code_block_installs_and_requires_packages_by_name():
    code = ('[project]\ndependencies = [\n    "httpx",\n    "gidgethub[httpx]>4.0.0",\n'
            '    "django>2.1; os_name != \'nt\'",\n]\nkeywords = ["egg", "bacon", "sausage"]\n'
            '[build-system]\nrequires = ["flit"]\nbuild-backend = "flit.api:main"\n'
            "$ python -m pip install graphrag\nnpm install -D vitest\n")
    assert [w for w, _, _ in config_values(code)] == ["httpx", "gidgethub", "django", "flit", "graphrag", "vitest"]


def test_a_tool_no_dictionary_holds_written_as_code_beside_another_and_an_example_of_a_kind():
    # PEP 668: "Even when ``pip``, ``setuptools``, etc. are installed"; "not an external tool such as apt"
    s = "Even when pip, setuptools, etc. are installed. The fields name, email and license are strings."
    code = [(s.index(w), s.index(w) + len(w)) for w in ("pip", "setuptools", "name", "email", "license")]
    assert [w for w, _, _ in lower_names(s, 0, (), code)] == ["pip", "setuptools"]  # not the fields
    assert [w for w, _, _ in lower_names("pip (not an external tool such as apt) installs it.", 0)] == ["apt"]
    assert lower_names("it is used in such a way as apt readers expect.", 0) == []  # no kind of software


def test_one_capital_mid_sentence_names_a_kind_of_a_noun_or_is_an_acronym():
    from core.offline.corpus_names import corpus_names
    names = corpus_names(["The distro Python in a single-application image (e.g., a Docker container) is safe.",
                          "Consider building a ``python-xyz`` RPM by using the tool.",
                          "And then the Ghost turned to him; the cold Roast and the rest were gone."])
    assert names.named("Docker") and names.named("RPM")
    assert not names.named("Ghost") and not names.named("Roast")  # old prose capitalises nouns


def test_a_tool_written_as_code_beside_its_kind_or_its_maker_s_name_is_a_name():
    """A PEP's ``pip-run`` utility (English words joined by a hyphen, written as code, with the
    kind after it) and Go's ``gorun`` (after a name's possessive) are names; ``name`` written as
    code with neither is a field."""
    from core.ingest.rst import rst_to_text
    text, structure = rst_to_text("Title\n=====\n\nThe ``pip-run`` utility does implement this approach, as Go's "
                                  "``gorun`` does. Each entry sets ``name`` and ``version``.\n")
    got = OfflineEngine().extract({"id": "u1", "text": text, "human_readable_id": 0, "structure": structure.to_dict()})
    titles = {e["title"] for e in got.entities}
    assert {"pip-run", "gorun"} <= titles, titles
    assert not titles & {"name", "version"}, titles


def test_a_pinned_version_a_names_compound_and_a_listed_code_name_mark_packages():
    # PEP 517: "package1 build-requires pbr==1.8.1", "an isolated virtualenv-like environment",
    # "new versions of e.g. ``pip`` and ``flit``", PEP 750: "(Imagine, for example, ``black`` formatting ...)"
    s = "Users pin pbr==1.8.1 and numpy>=1.7 for builds; call f(x=1) or set name=value."
    assert [w for w, _, _ in lower_names(s, 0)] == ["pbr", "numpy"]
    s = "We need an isolated virtualenv-like environment, not a pip-specific or whitespace-only one."
    assert [w for w, _, _ in lower_names(s, 0)] == ["virtualenv"]
    t = "New versions of e.g. pip and flit are updated; the name and email keys, like if and else, stay."
    code = [(t.index(w), t.index(w) + len(w)) for w in ("pip", "flit", "name", "email", "if", "else")]
    assert [w for w, _, _ in lower_names(t, 0, (), code)] == ["pip", "flit"]
    u = "(Imagine, for example, black formatting HTML, or a black cat.)"
    assert [w for w, _, _ in lower_names(u, 0, (), [(u.index("black"), u.index("black") + 5)])] == ["black"]


def test_a_steps_verb_is_no_part_of_the_name_it_acts_on():
    # the GraphRAG visualization guide: "Click `Apply`", "Select `Force Atlas 2`", "Allow the LLM to ..."
    md = ("# Layout\n\n1. Select `Force Atlas 2` in the layout options.\n2. Click `Apply` to color the graph.\n"
          "3. Allow the LLM to discover the entity types, which Gephi shows.\n\n"
          "Alexander the Great is no step, and Gephi draws Force Atlas 2 layouts.\n")
    titles = _md_titles(md)
    assert not {t for t in titles if t.split()[0] in ("SELECT", "CLICK", "ALLOW")}, titles
    assert "LLM" in titles and "FORCE ATLAS 2" in titles, titles
