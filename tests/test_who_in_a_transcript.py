"""Who is someone who speaks in a transcript: the label line that says only a greeting
("HEATHER BELLINI, Goldman Sachs: Great, thank you.") gives their firm; what they came to ask is
the rest of their turn, quoted after it, and the next speaker's turn is not theirs."""
from __future__ import annotations

from conftest import build_workspace
from core.query.methods import run_method
from core.store.db import Store

CALL = """CHRIS SUH:  We'll go to the next question, please.
HEATHER BELLINI, Goldman Sachs:  Great, thank you.
Again, I had a follow-up on Azure, as well.  I was just wondering, Satya, if you could share any qualitative commentary about PaaS adoption on Azure.
SATYA NADELLA:  Sure, Heather.  Thanks for the question.  Overall, adoption of Azure services keeps growing with our customers in every region.
KIRK MATERNE, Evercore ISI:  Thanks very much and congrats on the quarter.
Amy, I want to follow up on your last point around investment in the Intelligent Cloud and the return on it.
AMY HOOD:  Thanks, Kirk.  We saw Intelligent Cloud operating profit get back to growth this quarter.
"""


def test_who_is_a_caller_quotes_what_they_asked(tmp_path):
    store = Store(build_workspace(tmp_path, "ws", [("TranscriptFY17Q3.txt", CALL.encode())]))
    heather = run_method("local", store, "Who is Heather Bellini?").answer
    assert "Goldman Sachs" in heather and "PaaS adoption" in heather, heather
    assert "Sure, Heather" not in heather.split("\n\n")[0], heather  # Satya's turn is his
    kirk = run_method("local", store, "Who is Kirk Materne?").answer
    assert "Evercore" in kirk and "Intelligent Cloud" in kirk.split("\n\n")[0], kirk
