"""Is a grounded name shaped like a name? Small models type sentence openers as entities: an
adverb ("SOLEMNLY", from "Solemnly, yet unmistakably together, they moved ...") or a
prepositional phrase ("AMIDST THE STERILITY OF THE BRIEFING ROOM"). Both occur in the source,
so grounding keeps them; the offline engine's own filters (core/offline/engine.py) never see a
model's names. The same two shapes are rejected here, with a reason, for the LLM engine."""
from __future__ import annotations

import re

from core.offline.mentions import ly_adverb

# prepositions that open a scene-setting phrase; a name of three or more words that starts with
# one is a phrase ("Amidst the sterility of the briefing room"), not a name
_PHRASE_OPENERS = frozenset("""amid amidst among amongst during within upon beneath despite throughout
towards toward across beside besides without through into onto behind between beyond underneath
against""".split())


def not_a_name(name: str, text: str) -> str | None:
    """Why `name` is not a name (None when it may be one); `text` is the unit it came from."""
    words = name.split()
    if not words:
        return None
    first = words[0].lower().strip(",.;:")
    if len(words) == 1 and _adverb(first, text):
        return "an adverb, not a name"
    if len(words) >= 3 and first in _PHRASE_OPENERS:
        return "a phrase that opens a sentence, not a name"
    return None


def _adverb(word: str, text: str) -> bool:
    """A word in -ly (not a first name) that the text never capitalises after a sentence's start:
    "Solemnly, they moved" is an adverb; "Italy" or "Kelly" mid-sentence is a name."""
    if not (word.isalpha() and ly_adverb(word)):
        return False
    cap = word[:1].upper() + word[1:]
    return not re.search(r"[\w,;:] +" + re.escape(cap) + r"\b", text)
