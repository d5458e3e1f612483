"""Ranking text units and picking the passage a relevance test reads."""
from __future__ import annotations

from core.query.unit_rank import UnitIndex, passage
from core.tokens import count_tokens
from tests.test_lazy_search import lazy_store

TEXT = ("The harbour was quiet that night. Gulls slept on the pier. At two the lamplighter saw smoke "
        "over Berth 2 and rang the fire bell. The fire crew came by boat. By dawn the warehouse was ash.")


def test_passage_is_the_best_sentence_with_neighbours_within_the_cap():
    p = passage(TEXT, "Who saw the fire at Berth 2?", 40)
    assert "the lamplighter saw smoke over Berth 2 and rang the fire bell" in p
    assert count_tokens(p) <= 40 and " ".join(p.split()) in " ".join(TEXT.split())
    assert passage(TEXT, "fire", 8) and count_tokens(passage(TEXT, "fire", 8)) <= 8
    assert passage(TEXT, "zebra", 12).startswith("The harbour was quiet")  # no match: the start


def test_ranking_follows_the_units_as_they_change(tmp_path):
    store = lazy_store(tmp_path)
    first = UnitIndex(store).rank("genuine harbour fire")
    assert {int(r.unit["human_readable_id"]) for r in first[:2]} == {13, 21}
    store.db.execute("update text_units set text = 'zebras', id = 'tu-new' where human_readable_id = 13")
    store.db.conn.commit()
    index = UnitIndex(store)  # a new version of the units: indexed again, not the remembered one
    assert index.by_id["tu-new"]["text"] == "zebras"
    again = index.rank("genuine harbour fire")
    assert int(again[0].unit["human_readable_id"]) == 21 and 13 not in {int(r.unit["human_readable_id"]) for r in again}
