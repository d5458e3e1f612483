"""Turn citation references into records, text units (with character spans) and documents.

Chains (ids in citations are human_readable_ids; joins use `id`):
- Reports (n)        -> community_reports row n -> communities row with that `community` number
                        -> its entity_ids, relationship_ids, text_unit_ids (when a community lists
                        no text units, the union of its entities' and relationships' units)
                        -> text units -> documents. The community's members (entities,
                        relationships, and claims whose subject is one of its entities) are listed
                        by human_readable_id in `members`, so the UI can drill down.
- Entities / Relationships (n) -> the row -> its text_unit_ids -> text units -> documents.
- Claims (n)          -> the row -> its text_unit_id -> text unit -> document.
- Sources (n)         -> text unit n -> its document.

An id that does not exist comes back with dangling=True, never dropped (with `removed`, the
document's title, when its row went with a removed or replaced document: "source removed"). "+more" comes back as
more=True (the model said there were more, without listing them). Documents are returned without
their `text` column (a document can be a whole book); fetch it with store.get("documents", id).

A Resolver caches everything it fetched and fetches in batches (one query per table per
prefetch), so resolving an answer with dozens of references costs a handful of queries.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable

from core.text.citations import KINDS, Ref
from core.store.schema import CITABLE, TABLES

_DOC_COLUMNS = ", ".join(f"[{c}]" for c in TABLES["documents"] if c != "text")
_UNIT_COLUMNS = "id, human_readable_id, document_id, ordinal, text, n_tokens, char_start, char_end, structure"


@dataclass
class Resolved:
    kind: str
    id: int | None
    record: dict | None = None
    dangling: bool = False
    more: bool = False
    text_units: list[dict] = field(default_factory=list)
    documents: list[dict] = field(default_factory=list)
    members: dict[str, list[int]] = field(default_factory=dict)
    removed: str | None = None  # dangling because it was removed with this document (its title)
    rewritten: bool = False  # a report no longer there since documents were removed or replaced
    successor: int | None = None  # rewritten: the report of the community that took most of its
    # entities (record, text_units and documents are then that report's)

    @property
    def text_unit_ids(self) -> list[str]:
        return [u["id"] for u in self.text_units]

    @property
    def document_ids(self) -> list[str]:
        return [d["id"] for d in self.documents]

    @property
    def title(self) -> str:
        r = self.record or {}
        if self.kind == "Relationships":
            return f"{r.get('source', '')} -> {r.get('target', '')}"
        if self.kind == "Claims":
            return " ".join(str(x) for x in (r.get("subject"), r.get("type"), r.get("object")) if x)
        if self.kind == "Sources":
            return f"text unit {r.get('human_readable_id')}"
        return str(r.get("title") or "")

    def record_texts(self) -> list[str]:
        """The record's own words (model-written), usable as secondary evidence."""
        r = self.record
        if not r:
            return []
        if self.kind == "Entities":
            return [f"{r.get('title') or ''}. {r.get('description') or ''}"]
        if self.kind == "Relationships":
            return [f"{r.get('source') or ''} {r.get('target') or ''}. {r.get('description') or ''}"]
        if self.kind == "Claims":
            return [f"{r.get('subject') or ''} {r.get('object') or ''}. {r.get('description') or ''}",
                    r.get("source_text") or ""]
        if self.kind == "Reports":
            parts = [r.get("title") or "", r.get("summary") or ""]
            for f in r.get("findings") or []:
                if isinstance(f, dict):
                    parts.append(f"{f.get('summary') or ''}. {f.get('explanation') or ''}")
            return [" ".join(parts)]
        return []


def _as_list(value) -> list:
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value else []
    return list(value)


class Resolver:
    """Resolves references against one store, caching every row it fetched."""

    def __init__(self, store):
        self.store = store
        self._changed_memo: bool | None = None  # _changed(), asked once
        self._records: dict[str, dict[int, dict | None]] = {k: {} for k in KINDS}
        self._communities: dict[int, dict | None] = {}
        self._units: dict[str, dict | None] = {}
        self._docs: dict[str, dict | None] = {}
        self._member_rows: dict[str, dict[str, dict]] = {"entities": {}, "relationships": {}}
        self._done: dict[Ref, Resolved] = {}

    # batch fetching ----------------------------------------------------------------------
    def _fetch(self, table: str, column: str, values: Iterable, select: str = "*") -> list[dict]:
        values = list(dict.fromkeys(values))
        out: list[dict] = []
        for i in range(0, len(values), 500):
            part = values[i:i + 500]
            out += self.store.rows(table, f"[{column}] in ({','.join('?' * len(part))})", part,
                                   order_by=None, select=select)
        return out

    def prefetch(self, refs: Iterable[Ref]) -> None:
        """Fetch everything these references need, in a few batched queries."""
        want: dict[str, set[int]] = {k: set() for k in KINDS}
        for r in refs:
            if r.id is not None and r.kind in want and r.id not in self._records[r.kind]:
                want[r.kind].add(r.id)
        for kind, ids in want.items():
            if not ids:
                continue
            table = CITABLE[kind]
            select = _UNIT_COLUMNS if kind == "Sources" else "*"
            rows = self._fetch(table, "human_readable_id", sorted(ids), select)
            cache = self._records[kind]
            for row in rows:
                cache[row["human_readable_id"]] = row
                if kind == "Sources":
                    self._units[row["id"]] = row
            for i in ids:
                cache.setdefault(i, None)
        self._prefetch_communities([r for r in self._records["Reports"].values() if r])
        unit_ids: set[str] = set()
        for kind in ("Entities", "Relationships", "Claims"):
            for row in self._records[kind].values():
                if row:
                    unit_ids.update(self._record_unit_ids(kind, row))
        for com in self._communities.values():
            if com:
                unit_ids.update(com["_unit_ids"])
        self._prefetch_units(unit_ids)

    def _prefetch_communities(self, reports: list[dict]) -> None:
        numbers = {self._community_number(r) for r in reports} - set(self._communities)
        numbers.discard(None)
        if not numbers:
            return
        rows = self._fetch("communities", "community", sorted(numbers))
        for row in rows:
            self._communities.setdefault(row["community"], row)
        for n in numbers:
            self._communities.setdefault(n, None)
        # members: entities and relationships of these communities (their text unit lists only
        # when a community lists no text units of its own: a large community has thousands)
        coms = [self._communities[n] for n in numbers if self._communities[n]]
        need_units = any(not _as_list(c.get("text_unit_ids")) for c in coms)
        for table, col in (("entities", "entity_ids"), ("relationships", "relationship_ids")):
            have = self._member_rows[table]
            ids = {i for c in coms for i in _as_list(c.get(col))
                   if i not in have or (need_units and "text_unit_ids" not in have[i])}
            cols = "id, human_readable_id" + (", title" if table == "entities" else "") + \
                (", text_unit_ids" if need_units else "")
            for row in self._fetch(table, "id", ids, cols):
                have[row["id"]] = row
        titles = {self._member_rows["entities"][i]["title"] for c in coms
                  for i in _as_list(c.get("entity_ids")) if i in self._member_rows["entities"]}
        claims_by_subject: dict[str, list[int]] = {}
        for row in self._fetch("claims", "subject", titles, "human_readable_id, subject"):
            claims_by_subject.setdefault(row["subject"], []).append(row["human_readable_id"])
        for c in coms:
            ents = [self._member_rows["entities"][i] for i in _as_list(c.get("entity_ids"))
                    if i in self._member_rows["entities"]]
            rels = [self._member_rows["relationships"][i] for i in _as_list(c.get("relationship_ids"))
                    if i in self._member_rows["relationships"]]
            units = _as_list(c.get("text_unit_ids"))
            if not units:
                units = list(dict.fromkeys(u for m in ents + rels for u in _as_list(m.get("text_unit_ids"))))
            c["_unit_ids"] = units
            c["_members"] = {
                "Entities": sorted(e["human_readable_id"] for e in ents),
                "Relationships": sorted(r["human_readable_id"] for r in rels),
                "Claims": sorted({h for e in ents for h in claims_by_subject.get(e["title"], [])}),
            }

    def _prefetch_units(self, unit_ids: set[str]) -> None:
        missing = unit_ids - set(self._units)
        if missing:
            for row in self._fetch("text_units", "id", sorted(missing), _UNIT_COLUMNS):
                self._units[row["id"]] = row
            for i in missing:
                self._units.setdefault(i, None)
        doc_ids = {u["document_id"] for u in self._units.values() if u} - set(self._docs)
        if doc_ids:
            for row in self._fetch("documents", "id", sorted(doc_ids), _DOC_COLUMNS):
                self._docs[row["id"]] = row
            for i in doc_ids:
                self._docs.setdefault(i, None)

    @staticmethod
    def _community_number(report: dict) -> int | None:
        n = report.get("community")
        return int(n) if n is not None else report.get("human_readable_id")

    @staticmethod
    def _record_unit_ids(kind: str, row: dict) -> list[str]:
        if kind == "Claims":
            return _as_list(row.get("text_unit_id"))
        return _as_list(row.get("text_unit_ids"))

    # resolving ---------------------------------------------------------------------------
    def resolve(self, ref: Ref) -> Resolved:
        if ref in self._done:
            return self._done[ref]
        if ref.id is None:
            res = Resolved(ref.kind, None, more=True)
        else:
            if ref.id not in self._records.get(ref.kind, {}):
                self.prefetch([ref])
            row = self._records.get(ref.kind, {}).get(ref.id)
            if row is None:
                removed = self._removed(ref)
                rewritten = removed is None and ref.kind == "Reports" and self._changed()
                succ = self._successor(ref.id) if rewritten else None
                if succ is not None:  # led to the report that now stands for its community
                    res = replace(self.resolve(Ref("Reports", succ)), id=ref.id, dangling=True,
                                  more=ref.more, rewritten=True, successor=succ)
                else:
                    res = Resolved(ref.kind, ref.id, dangling=True, more=ref.more, removed=removed,
                                   rewritten=rewritten)
            else:
                res = self._chain(ref, row)
        self._done[ref] = res
        return res

    def _changed(self) -> bool:
        """Were documents removed or replaced in this workspace (so communities were recomputed
        and a report a stored answer cites may have been rewritten under another number)?"""
        if self._changed_memo is None:
            self._changed_memo = any(
                isinstance(r["changes"], dict) and r["changes"].get("operation") in ("remove", "replace")
                for r in self.store.rows("runs", "changes is not null", select="changes", order_by=None))
        return self._changed_memo

    def _successor(self, number: int) -> int | None:
        """The report number that stands now for community `number`, gone since a change: the
        community_successors chain followed (each change adds a link) to a report that exists."""
        seen = {number}
        while True:
            row = self.store.by_hrid("community_successors", number)
            if row is None or row["successor"] in seen:
                return None
            number = row["successor"]
            seen.add(number)
            self.prefetch([Ref("Reports", number)])
            if self._records["Reports"].get(number) is not None:
                return number

    def _removed(self, ref: Ref) -> str | None:
        """The title of the document a dangling reference's row was removed with, if it was."""
        row = self.store.get("removed", f"{CITABLE[ref.kind]}|{ref.id}")
        return None if row is None else (row["document_title"] or "a removed document")

    def _chain(self, ref: Ref, row: dict) -> Resolved:
        members: dict[str, list[int]] = {}
        if ref.kind == "Sources":
            unit_ids = [row["id"]]
        elif ref.kind == "Reports":
            com = self._communities.get(self._community_number(row))
            unit_ids = com["_unit_ids"] if com else []
            members = com["_members"] if com else {}
        else:
            unit_ids = self._record_unit_ids(ref.kind, row)
        self._prefetch_units(set(unit_ids))
        units = [self._units[i] for i in dict.fromkeys(unit_ids) if self._units.get(i)]
        units.sort(key=lambda u: (u.get("document_id") or "", u.get("ordinal") or 0,
                                  u.get("human_readable_id") or 0))
        docs = [self._docs[d] for d in dict.fromkeys(u["document_id"] for u in units)
                if self._docs.get(d)]
        return Resolved(ref.kind, ref.id, record=row, more=ref.more, text_units=units,
                        documents=docs, members=members)


def resolve(store, ref: Ref) -> Resolved:
    """Resolve one reference (see the module docstring)."""
    return Resolver(store).resolve(ref)
