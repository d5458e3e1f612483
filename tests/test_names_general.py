"""Names as any corpus writes them, not only English fiction: accented names ("Alonso Guevara
Fernández", "Sébastien Eustace"), an acronym with its number ("PEP 621", "GPT-4"; not "FY 2024"),
and no job title written after a name taken for a name of its own ("Ha Trinh, Senior Data
Scientist")."""
from __future__ import annotations

from core.offline.engine import OfflineEngine

BYLINE = """The GraphRAG team

The library was written by Alonso Guevara Fernández, Principal Software Architect, with Jonathan
Larson, Senior Principal Data Architect, and Sébastien Eustace, Senior Data Scientist. Alonso
Guevara Fernández later moved the prompts to PEP 621 metadata files encoded in UTF-8, and Jonathan
Larson compared GPT-4 with the older models. Sébastien Eustace checked the FY 2024 budget with
Jonathan Larson and Alonso Guevara Fernández."""


def _titles(text: str) -> set[str]:
    got = OfflineEngine().extract({"id": "u1", "text": text, "human_readable_id": 0})
    return {e["title"].upper() for e in got.entities if not e.get("tentative")}


def test_accented_names_numbered_names_and_no_job_titles():
    titles = _titles(BYLINE)
    assert {"ALONSO GUEVARA FERNÁNDEZ", "SÉBASTIEN EUSTACE", "JONATHAN LARSON", "PEP 621", "UTF-8", "GPT-4"} <= titles, titles
    assert not titles & {"PRINCIPAL SOFTWARE ARCHITECT", "SENIOR PRINCIPAL DATA ARCHITECT", "SENIOR DATA SCIENTIST",
                         "FY 2024", "FERN", "FY"}, titles


def test_names_listed_with_a_person_are_people():
    text = ("The report was signed by Dr. Ines Okafor <ines@example.org>, Tomas Lindqvist <tomas@example.org>, "
            "Aino Virtanen and Kwame Mensah.")
    got = OfflineEngine().extract({"id": "u1", "text": text, "human_readable_id": 0})
    types = {e["title"]: e["type"] for e in got.entities}
    assert all(types.get(n) == "person" for n in ("Tomas Lindqvist", "Aino Virtanen", "Kwame Mensah")), types
