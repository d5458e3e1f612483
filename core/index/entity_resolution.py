"""Entity resolution beyond exact names: "DR. JORDAN HAYES" and "JORDAN HAYES", "TAYLOR CRUS" and
"TAYLOR CRUZ". A merge needs both a name match and evidence in the graph (a shared neighbour or a
shared text unit), every merge is recorded in `entity_merges` with its reason, and a merge a user
undoes is never made again for that workspace.

Rules (conservative on purpose; a wrong merge hides a person):
- titles: names equal after removing leading titles (Dr., Agent, Mr., Captain ...) merge when
  the name left has at least two words (a bare surname is ambiguous: "MRS. CRATCHIT" is not
  "CRATCHIT"), and titles of opposite gender never merge;
- one name: a one-word name merges with the one full name ending in it ("DELGADO" and "ROSA
  DELGADO") or, failing that, starting with it ("ALEX" and "ALEX MERCER"), when one of them is
  typed a person and neither an organisation, place or event; never when several full names fit
  ("CRATCHIT": Bob, Martha, Belinda...); a full name with and without titles counts once;
- spelling: names with the same number of words (at least two), the same first letter in each
  word, words of three letters or fewer equal ("BOB" and "BOY CRATCHIT" are two children, "TOM"
  and "TIM" two names), and a similarity of at least 0.9 merge;
- all need evidence: a shared neighbour, a shared text unit, or the kept name written out in
  a text unit the other was extracted from (the model took "AGENT HAYES" from a passage that
  says "Jordan Hayes" but did not extract the full name there), except a full name of two or
  more words written with and without a title ("AGENT ALEX MERCER", "ALEX MERCER"), which is
  evidence enough. The one-name rule also takes the full name of a person written as a name
  (no word lowercase: "Jordan Hayes", not "blind man") in a passage next to one the short name
  came from (same document, the unit just before or after): writers name a person in full
  once, then by one name in the next passages. Two or more passages away, or in another
  document, is no evidence;
- evidence is judged through the merges made so far: each name counts with the names merged
  into it, and a neighbour by the name it was merged into ("TAYLOR" beside "ALEX" and "TAYLOR
  CRUZ" beside "ALEX MERCER" share a neighbour once "ALEX" joined "ALEX MERCER"); candidates are
  tried again until a pass makes no new merge, so the order of names does not matter.
"""
from __future__ import annotations

import hashlib
import re
from difflib import SequenceMatcher
from typing import Any, Callable

from core.store.db import Store, now
from core.store.access import require

MALE = {"MR", "SIR", "LORD", "MISTER", "MASTER", "UNCLE"}
FEMALE = {"MRS", "MS", "MISS", "LADY", "MADAM", "MADAME", "AUNT"}
NEUTRAL = {"DR", "DOCTOR", "PROF", "PROFESSOR", "AGENT", "CAPTAIN", "CAPT", "COUNCILLOR",
           "COUNCILOR", "MAYOR", "SENATOR", "GENERAL", "SGT", "SERGEANT", "DETECTIVE", "OFFICER",
           "JUDGE", "PRESIDENT", "MINISTER", "INSPECTOR", "LT", "LIEUTENANT", "COLONEL", "COMMANDER",
           "AGENTS", "DRS", "DOCTORS", "OLD", "YOUNG", "LITTLE"}
SIMILARITY = 0.9


def split_title(name: str) -> tuple[str, str]:
    """(gender of the leading titles: 'm', 'f' or '', the name without them)."""
    words = name.split()
    gender = ""
    while len(words) > 1:
        w = words[0].rstrip(".").upper()
        if w in MALE:
            gender = gender or "m"
        elif w in FEMALE:
            gender = gender or "f"
        elif w not in NEUTRAL:
            break
        words = words[1:]
    return gender, " ".join(words)


CONNECTORS = {"OF", "THE", "AND", "FOR", "DE", "VON", "VAN", "&"}
NOT_PERSONS = {"organization", "geo", "event"}


def _personal(group: dict[str, Any]) -> bool:
    """Could this entity be a person? (Its most frequent type is not an organisation, place or event.)"""
    types = group.get("types")
    return not types or types.most_common(1)[0][0] not in NOT_PERSONS


def _top_type(group: dict[str, Any]) -> str:
    types = group.get("types")
    return types.most_common(1)[0][0] if types else ""


def merge_id(a: str, b: str) -> str:
    x, y = sorted((a, b))
    return "mrg-" + hashlib.sha256(f"{x}\x1f{y}".encode("utf-8")).hexdigest()[:16]


def _written_in(name: str, units: list[str], unit_text: Callable[[str], str] | None,
                as_name: bool = False) -> bool:
    """Is `name` (titles aside) written, as whole words and in any case, in one of the units?
    as_name: only where written as a name, no word starting lowercase ("Blind Man", not "blind man")."""
    if unit_text is None:
        return False
    core = split_title(name)[1]
    pattern = re.compile(r"(?<!\w)" + r"[\s\-]+".join(map(re.escape, core.split())) + r"(?!\w)", re.IGNORECASE)
    named = lambda m: not as_name or not any(w[:1].islower() for w in re.split(r"[\s\-]+", m.group(0)))
    return any(named(m) for u in units[:20] for m in pattern.finditer(unit_text(u) or ""))


def adjacent_units(rows: list[dict[str, Any]]) -> Callable[[str], list[str]]:
    """nearby(id) for text unit rows (id, document_id, ordinal): the ids of the units just before
    and after that one in the same document. Units without an ordinal have no neighbours."""
    at = {(r["document_id"], r["ordinal"]): r["id"] for r in rows if r.get("ordinal") is not None}
    place = {uid: key for key, uid in at.items()}

    def nearby(uid: str) -> list[str]:
        if uid not in place:
            return []
        doc, i = place[uid]
        return [at[(doc, j)] for j in (i - 1, i + 1) if (doc, j) in at]
    return nearby


def _short_words_equal(a: str, b: str) -> bool:
    """Words of three letters or fewer must be equal in a spelling variant: "BOB" and "BOY",
    "TOM" and "TIM" are different names, not misspellings."""
    return all(x == y for x, y in zip(a.split(), b.split())
               if min(sum(ch.isalpha() for ch in x), sum(ch.isalpha() for ch in y)) <= 3)


def _evidence(a: str, b: str, ents: dict[str, dict], neighbours: dict[str, set[str]],
              joined: dict[str, list[str]] | None = None,
              unit_text: Callable[[str], str] | None = None,
              final: Callable[[str], str] | None = None,
              nearby: Callable[[str], list[str]] | None = None,
              memo: dict[tuple, bool] | None = None) -> str | None:
    """Evidence that a and b are one entity; each counts with the names already merged into it
    (joined[x]) and neighbours count by the name they were merged into (final), so "TAYLOR" next
    to "ALEX" and "TAYLOR CRUZ" next to "ALEX MERCER" share a neighbour once ALEX has joined ALEX
    MERCER. unit_text(id) gives a text unit's text, for the written-out check; nearby(id), when
    given, the units just before and after it in its document, for the written-next-door check
    (only asked by the one-name rule). memo keeps text checks across find_merges' passes."""
    final = final or (lambda k: k)
    memo = {} if memo is None else memo

    def written(name: str, units: list[str], as_name: bool = False) -> bool:
        key = (name, tuple(units[:20]), as_name)
        if key not in memo:
            memo[key] = _written_in(name, units, unit_text, as_name)
        return memo[key]

    group_a = [a, *((joined or {}).get(a, []))]
    group_b = [b, *((joined or {}).get(b, []))]
    near = lambda group: {final(n) for k in group for n in neighbours.get(k, ())}
    shared_n = (near(group_a) & near(group_b)) - {a, b, *group_a, *group_b}
    if shared_n:
        return f"{len(shared_n)} shared neighbour{'s' * (len(shared_n) > 1)} ({', '.join(sorted(shared_n)[:3])})"
    units_a = list(dict.fromkeys(u for k in group_a for u in ents[k]["units"]))
    shared_u = set(units_a) & {u for k in group_b for u in ents[k]["units"]}
    if shared_u:
        return f"{len(shared_u)} shared text unit{'s' * (len(shared_u) > 1)}"
    if len(split_title(b)[1].split()) > len(split_title(a)[1].split()):
        if written(b, units_a):
            return f"{b.title()} is written in its text unit"
        if nearby is not None and _top_type(ents[b]) == "person":
            # writers name a person in full once, then by one name in the next passages; the
            # passage must write it as a name ("Jordan Hayes"), not a phrase ("blind man")
            own = set(units_a)
            next_door = list(dict.fromkeys(n for u in units_a for n in nearby(u) if n not in own))
            if written(b, next_door, as_name=True):
                return f"{b.title()} is written in the passage next to its text unit"
    return None


def find_merges(ents: dict[str, dict[str, Any]], rels: dict[tuple[str, str], dict[str, Any]],
                undone: set[str], unit_text: Callable[[str], str] | None = None,
                nearby: Callable[[str], list[str]] | None = None) -> list[dict[str, Any]]:
    """Pairs to merge: [{from, into, reason}], `into` the better-attested name. unit_text(id), when
    given, reads a text unit for the written-out evidence (only for candidates the graph does not
    link); nearby(id), when given, lists the units just before and after one in its document (see
    adjacent_units), for the one-name rule's written-next-door evidence. Candidates are tried
    until a pass makes no new merge, each seeing the merges made so far, so order does not matter."""
    neighbours: dict[str, set[str]] = {}
    for a, b in rels:
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    weight = lambda k: (len(ents[k]["units"]), -len(k), k)
    candidates: list[tuple[str, str, str]] = []
    by_core: dict[str, list[tuple[str, str]]] = {}
    for key in ents:
        gender, core = split_title(key)
        if len(core.split()) >= 2:
            by_core.setdefault(core, []).append((key, gender))
    for core, group in by_core.items():
        if len(group) < 2:
            continue
        genders = {g for _, g in group if g}
        if len(genders) > 1:
            continue
        names = [k for k, _ in group]
        for k in names:
            if k != core:
                candidates.append((k, core if core in ents else max(names, key=weight), "same name without titles", False))
    # a bare surname ("DELGADO") or first name ("ALEX") and the one full name ending or starting
    # with it ("ROSA DELGADO", "ALEX MERCER"): writers name a person in full once, then by one
    # name. Only when exactly one full name (titles aside) fits.
    by_end: dict[tuple[str, str], dict[str, str]] = {}  # (position, word) -> core -> key to keep
    for key in ents:
        gender, core = split_title(key)
        words = core.split()
        if 2 <= len(words) <= 3 and not CONNECTORS & set(words) and _personal(ents[key]) \
                and not any("\u3000" <= ch <= "\u9fff" for ch in core):
            for pos, word in (("last", words[-1]), ("first", words[0])):
                keep = by_end.setdefault((pos, word), {})
                if core not in keep or key == core:
                    keep[core] = key
    titled_genders: dict[str, set[str]] = {}
    for key in ents:
        gender, core = split_title(key)
        if len(core.split()) == 1:
            titled_genders.setdefault(core, set()).add(gender)
    for key in ents:
        gender, core = split_title(key)
        if len(core.split()) != 1 or not _personal(ents[key]):
            continue
        for pos, why in (("last", "surname"), ("first", "first name")):
            # "MISS BELINDA", "MASTER PETER": a title and a first name name one person; "MRS.
            # CRATCHIT" names a person the full names may not ("MR. SCROOGE" may, when no
            # woman of that surname is named with a title)
            if gender and pos == "last" and (gender == "f" or "f" in titled_genders.get(core, set())):
                continue
            fits = by_end.get((pos, core), {})
            if len(fits) != 1:
                continue
            full = next(iter(fits.values()))
            if full != key and "person" in (_top_type(ents[key]), _top_type(ents[full])):
                # the full name is the more informative title to keep ("CRUZ", "AGENT CRUZ" ->
                # "TAYLOR CRUZ"; "ALEX" -> "ALEX MERCER")
                candidates.append((key, full, f"{why} of the only full name {'ending' if pos == 'last' else 'starting'} with it",
                                   True))
                break
    # spelling variants, blocked by word count and initials so the comparison stays near-linear
    blocks: dict[tuple, list[str]] = {}
    for key in ents:
        _, core = split_title(key)
        words = core.split()
        if len(words) >= 2 and all(w[:1].isalpha() for w in words):
            blocks.setdefault((len(words), tuple(w[0] for w in words)), []).append(key)
    for keys in blocks.values():
        if len(keys) > 400:  # a huge block is a list of unrelated names, not variants
            continue
        keys.sort()
        for i, a in enumerate(keys):
            for b in keys[i + 1:]:
                if abs(len(a) - len(b)) > 2:
                    continue
                ca, cb = split_title(a)[1], split_title(b)[1]
                if ca == cb or not _short_words_equal(ca, cb):
                    continue
                ratio = SequenceMatcher(None, ca, cb).ratio()
                if ratio >= SIMILARITY:
                    into, frm = sorted((a, b), key=weight, reverse=True)
                    candidates.append((frm, into, f"spelling variant (similarity {ratio:.2f})", False))
    merges: list[dict[str, Any]] = []
    taken: dict[str, str] = {}
    joined: dict[str, list[str]] = {}
    memo: dict[tuple, bool] = {}

    final = lambda k: _follow(taken, k)
    progress = True
    while progress:  # until a pass merges nothing new: a merge can give a later candidate its evidence
        progress = False
        for frm, into, why, one_name in candidates:
            into = final(into)
            if frm == into or frm in taken or merge_id(frm, into) in undone:
                continue
            ev = _evidence(frm, into, ents, neighbours, joined, unit_text, final, nearby if one_name else None, memo)
            if ev is None:
                if not why.startswith("same name without titles"):
                    continue
                # a full name of two or more words written with and without a title ("AGENT ALEX
                # MERCER", "ALEX MERCER") is one person even where the graph has not linked them yet
                ev = "the full name is the same"
            taken[frm] = into
            joined.setdefault(into, []).extend([frm, *joined.pop(frm, [])])
            merges.append({"from": frm, "into": into, "reason": f"{why}; {ev}"})
            progress = True
    return merges


def _follow(merged_into: dict[str, str], k: str) -> str:
    """The name k ends up as through a chain of merges (a cycle stops where it repeats)."""
    seen = set()
    while k in merged_into and k not in seen:
        seen.add(k)
        k = merged_into[k]
    return k


def apply_merges(ents: dict, rels: dict, merges: list[dict[str, Any]]) -> tuple[dict, dict]:
    """Fold each merged entity into its target: descriptions, units, aliases, relationships."""
    target = {m["from"]: m["into"] for m in merges}
    final = lambda k: _follow(target, k)

    for frm in target:
        into = final(frm)
        src, dst = ents.pop(frm), ents[into]
        dst["types"].update(src["types"])
        dst["descriptions"] += src["descriptions"]
        dst["aliases"].update(src["aliases"])
        dst["units"] += [u for u in src["units"] if u not in dst["units"]]
    out: dict[tuple[str, str], dict] = {}
    for (a, b), g in rels.items():
        a2, b2 = final(a), final(b)
        if a2 == b2:
            continue
        key = tuple(sorted((a2, b2)))
        if key in out:
            out[key]["descriptions"] += g["descriptions"]
            out[key]["weight"] += g["weight"]
            out[key]["stated"] = out[key].get("stated", True) or g.get("stated", True)
            out[key]["units"] += [u for u in g["units"] if u not in out[key]["units"]]
        else:
            out[key] = {**g, "source": final(g["source"]), "target": final(g["target"])}
    return ents, out


def record_merges(store: Store, merges: list[dict[str, Any]]) -> None:
    """Keep undone merges; replace the rest with this run's merges."""
    undone = store.rows("entity_merges", "status = 'undone'")
    rows = [{"id": merge_id(m["from"], m["into"]), "merged": m["from"], "into": m["into"],
             "reason": m["reason"], "status": "merged", "updated_at": now()} for m in merges]
    store.replace_table("entity_merges", undone + [r for r in rows if r["id"] not in {u["id"] for u in undone}])


def undone_merges(store: Store) -> set[str]:
    return {r["id"] for r in store.rows("entity_merges", "status = 'undone'", select="id")}


def undo_merge(store: Store, merge: str) -> dict[str, Any]:
    """Mark a merge undone (by id or by the merged name). The next index run, which only redoes
    the graph and what depends on it, keeps the two entities apart."""
    require(store, "index")
    rows = store.rows("entity_merges", "id = ? or merged = ?", [merge, merge])
    if not rows:
        from core.errors import UserError
        raise UserError(f"no merge {merge!r} in this workspace")
    store.update("entity_merges", rows[0]["id"], status="undone", updated_at=now())
    return rows[0]
