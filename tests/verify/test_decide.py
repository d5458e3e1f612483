"""core.verify.decide: one precedence table sets every verdict, and a workspace's `verify` setting
changes which rules run and which are trusted alone, from the judge the app and the CLI use."""
from __future__ import annotations

import json

import pytest

from core.settings import SettingsError, load_settings
from core.store.db import Store
from core.verify.decide import PRECEDENCE, Meaning, decide
from core.verify.judges import make_judge, policy_for
from core.verify.rules import Policy
from core.verify.verdict import Fact, Verdict
from tests.verify.cases import judged, text_of


def _v(facts, meaning=None, **kw):
    return decide(Verdict("supported", score=1.0), facts, meaning or Meaning(), Policy.default(), **kw)


def test_a_name_no_document_holds_outranks_a_quote_and_a_quote_outranks_a_contradiction():
    absent = Fact("name", "Fezziwig", "absent", rule="absent_names")
    other = Fact("number", "15%", "contradicted", "the source says 10%", rule="numbers")
    assert _v([absent, other], quoted=True).verdict == "fabricated"
    quoted = _v([other], quoted=True)
    assert quoted.verdict == "supported" and quoted.rule == "quoted" and not quoted.facts
    assert _v([other]).verdict == "contradicted" and _v([other]).rule == "numbers"


def test_meaning_rows_supported_partial_unsupported():
    held = Meaning(clauses=2, held=2, score=0.8)
    assert _v([], held).verdict == "supported"
    edit = Fact("meaning", "rushed", "not found", rule="edited_copy")
    v = _v([edit], held)
    assert v.verdict == "partial" and v.rule == "edited_copy" and "rushed" in v.reason
    assert _v([], Meaning(clauses=2, held=1, score=0.8)).verdict == "partial"
    assert _v([], Meaning(clauses=2, held=1, score=0.8, missing_causal=True)).verdict == "unsupported"
    lifted = _v([], Meaning(clauses=1, held=0, record=0.6))
    assert lifted.verdict == "partial" and "record" in lifted.reason


def test_every_row_of_the_table_gives_a_verdict_and_the_last_always_holds():
    assert PRECEDENCE[-1][1](None, {}) is True
    assert {row[2] for row in PRECEDENCE} <= {"fabricated", "contradicted", "unsupported", "partial", "supported"}


def test_an_untrusted_rule_is_partial_only_below_its_closeness():
    f = Fact("polarity", "not", "contradicted", rule="polarity.negation")
    f.closeness = 0.9
    assert _v([f]).verdict == "contradicted"
    f.closeness = 0.5
    v = _v([f], Meaning(clauses=1, held=1, score=0.5))
    assert v.verdict == "partial" and "not trusted alone" in v.reason and v.rule == "polarity.negation"


def test_a_doubt_lifts_nothing_the_cited_text_does_not_say():
    """A rule not trusted alone makes "check this" of a sentence the cited text says; of one it
    does not say (no clause held), the verdict stays unsupported, with the doubt's reason."""
    f = Fact("name", "Sam Rivera", "contradicted", "the source says this of Jordan Hayes", rule="doer")
    v = _v([f], Meaning(clauses=1, held=0, score=0.2))
    assert v.verdict == "unsupported" and v.rule == "doer" and "Jordan Hayes" in v.reason


def test_a_workspaces_setting_turns_a_rule_off_and_changes_trust(tmp_path):
    text = text_of("dulce")
    store = Store(tmp_path / "ws")
    unit = {"id": "u1", "text": text, "char_start": 0, "char_end": len(text)}
    claim = "Jordan and Alex worked through the encoded messages side by side [Data: Sources (1)]."
    assert make_judge("offline", policy=policy_for(store))(claim, [unit]).verdict == "contradicted"
    (tmp_path / "ws" / "settings.json").write_text(json.dumps({"verify": {"off": ["names"]}}))
    v = make_judge("offline", policy=policy_for(store))(claim, [unit])
    assert v.verdict != "contradicted" and not any(f.rule == "names" for f in v.facts)
    (tmp_path / "ws" / "settings.json").write_text(json.dumps({"verify": {"alarm_alone": {"names": False}}}))
    v = make_judge("offline", policy=policy_for(store))(claim, [unit])
    assert v.verdict == "partial" and "names rule, which is not trusted alone" in v.reason
    store.close()


def test_an_unknown_rule_in_the_setting_is_refused_with_the_rules_named(tmp_path):
    store = Store(tmp_path / "ws")
    (tmp_path / "ws" / "settings.json").write_text(json.dumps({"verify": {"off": ["negation"]}}))
    with pytest.raises(SettingsError, match="unknown verify settings: negation.*polarity.negation"):
        policy_for(store)
    (tmp_path / "ws" / "settings.json").write_text(json.dumps({"verify": {"of": ["names"]}}))
    with pytest.raises(SettingsError, match="takes off, alarm_alone and thresholds, not of"):
        load_settings(tmp_path / "ws")
    store.close()


def test_the_fixture_cases_run_without_the_corpora():
    assert judged("Office 365 now has 258 million paid seats.", "call").verdict == "supported"
