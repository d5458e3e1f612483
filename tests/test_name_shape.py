"""The LLM engine rejects a model's sentence openers typed as entities, as the small model did
on Operation Dulce ("SOLEMNLY", "AMIDST THE STERILITY OF THE BRIEFING ROOM"), and keeps names
that look alike ("Kelly" and "Italy" capitalised mid-sentence, a one-word "Across")."""
from __future__ import annotations

from core.index.llm_engine import LLMEngine
from core.index.name_shape import not_a_name
from core.llm.openai import make_llm
from core.store.db import Store
from tests.openai_server import FakeOpenAIServer

# two sentences of ../shared/corpora/operation_dulce/dulce.txt (lines 137 and 169)
TEXT = ("Solemnly, yet unmistakably together, they moved deeper into the heart of the enigma, ready "
        "to unmask the lifeforce of Dulce base or confront whatever existential threat lay in wait.\n\n"
        "Amidst the sterility of the briefing room, the liminal space between the facts laid out and "
        "the hidden truths, sat Sam Rivera, his demeanor an artful balance of focus and a casual "
        "disguise of his razor-sharp talent with technology. Across from him, Alex Mercer lingered "
        "in thought. Emily Kelly flew in from Italy; Kelly had met Rivera in Italy before.")


def test_sentence_openers_are_not_names_and_look_alike_names_are():
    assert not_a_name("SOLEMNLY", TEXT) == "an adverb, not a name"
    assert not_a_name("AMIDST THE STERILITY OF THE BRIEFING ROOM", TEXT).startswith("a phrase")
    for name in ("Sam Rivera", "Alex Mercer", "Dulce base", "Kelly", "Italy", "Emily Kelly", "Across"):
        assert not_a_name(name, TEXT) is None, name


def test_the_llm_engine_rejects_them_with_a_reason_and_drops_their_relationships(tmp_path):
    names = [("SOLEMNLY", "event"), ("AMIDST THE STERILITY OF THE BRIEFING ROOM", "geo"),
             ("SAM RIVERA", "person"), ("ALEX MERCER", "person"), ("DULCE BASE", "geo")]
    answer = {"entities": [{"name": n, "type": t, "description": f"{n} in the text."} for n, t in names],
              "relationships": [
                  {"source": "SAM RIVERA", "target": "AMIDST THE STERILITY OF THE BRIEFING ROOM",
                   "description": "Rivera sat there.", "strength": 5},
                  {"source": "SAM RIVERA", "target": "ALEX MERCER", "description": "Across from him.",
                   "strength": 6}]}

    def respond(messages, request):
        if "may have been missed" in messages[-1]["content"]:
            return {"entities": [], "relationships": []}
        return answer

    with FakeOpenAIServer(respond) as s:
        settings = s.settings(extract_claims=False, max_gleanings=0)
        out = LLMEngine(make_llm(settings, Store(tmp_path)), settings).extract({"id": "u1", "text": TEXT})
    assert [e["title"] for e in out.entities] == ["SAM RIVERA", "ALEX MERCER", "DULCE BASE"]
    assert [(r["source"], r["target"]) for r in out.relationships] == [("SAM RIVERA", "ALEX MERCER")]
    reasons = {r["name"]: r["reason"] for r in out.rejected}
    assert reasons["SOLEMNLY"] == "an adverb, not a name"
    assert reasons["AMIDST THE STERILITY OF THE BRIEFING ROOM"].startswith("a phrase")
    assert "SAM RIVERA -> AMIDST THE STERILITY OF THE BRIEFING ROOM" in reasons
