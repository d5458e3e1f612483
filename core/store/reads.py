"""Reads beyond a table's rows: one column, rows by a list of values, tallies, and the joins,
written once for every backend (portable SQL): a mixin of core.store.db.Store, reading through
its query() and rows()."""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from core.store.schema import check_table, decode


class Reads:
    if TYPE_CHECKING:  # provided by core.store.db.Store
        db: Any

        def query(self, sql: str, params: Iterable[Any] | dict | None = None) -> list[dict[str, Any]]: ...

        def rows(self, table: str, where: str | None = None, params: Iterable[Any] | dict | None = None,
                 order_by: str | None = "human_readable_id", limit: int | None = None,
                 select: str = "*") -> list[dict[str, Any]]: ...

    def column(self, table: str, col: str, where: str | None = None, params: Iterable[Any] | None = None,
               order_by: str | None = None) -> list[Any]:
        """The values of one column, in order_by's order (any order without it)."""
        return [r[col] for r in self.rows(table, where, params, order_by=order_by, select=f"[{col}]")]

    def rows_in(self, table: str, col: str, values: Iterable[Any], select: str = "*",
                order_by: str | None = "human_readable_id") -> list[dict[str, Any]]:
        """The rows whose column holds one of the values (read 500 values at a time; order_by
        orders each part)."""
        values = list(dict.fromkeys(values))
        out: list[dict[str, Any]] = []
        for i in range(0, len(values), 500):
            part = values[i:i + 500]
            out += self.rows(table, f"[{col}] in ({','.join('?' * len(part))})", part, order_by=order_by,
                             select=select)
        return out

    def tuples(self, table: str, cols: list[str]) -> Iterator[tuple]:
        """Every row of the table as a tuple of these columns, in human_readable_id order,
        read as they are consumed (an export of a large table)."""
        check_table(table)
        cur = self.db.conn.execute(f"select {', '.join(f'[{c}]' for c in cols)} from [{table}] "
                                   "order by human_readable_id")
        yield from cur

    def tally(self, table: str, col: str) -> dict[Any, int]:
        """How many rows hold each value of the column (None for NULL)."""
        check_table(table)
        return {r["v"]: r["n"] for r in self.query(f"select [{col}] as v, count(*) as n from [{table}] group by [{col}]")}

    def distinct(self, table: str, col: str) -> list[Any]:
        """The column's values, each once, sorted (NULL left out)."""
        check_table(table)
        return [r["v"] for r in self.query(f"select distinct [{col}] as v from [{table}] where [{col}] is not null "
                                           f"order by [{col}]")]

    def newest(self, table: str, col: str) -> Any:
        """The column's largest value (None in an empty table)."""
        check_table(table)
        rows = self.query(f"select max([{col}]) as m from [{table}]")
        return rows[0]["m"] if rows else None

    def leaf_communities(self) -> set[int]:
        """Communities no other community names as its parent: not split further."""
        return {int(r["community"]) for r in self.query(
            "select c.community from communities c where not exists "
            "(select 1 from communities k where k.parent = c.community)")}

    def unit_order(self) -> dict[str, tuple[int, int, int]]:
        """text unit id -> (its document's number, its ordinal, its own number): document order,
        then unit order."""
        return {r["id"]: (r["doc"], r["ordinal"], r["human_readable_id"]) for r in self.query(
            "select t.id, coalesce(d.human_readable_id, 0) as doc, t.ordinal, t.human_readable_id "
            "from text_units t left join documents d on d.id = t.document_id")}

    def units_with_documents(self, ids: Iterable[str]) -> list[dict[str, Any]]:
        """(id, text, document: its document's title) of these text units."""
        ids = list(dict.fromkeys(ids))
        out: list[dict[str, Any]] = []
        for i in range(0, len(ids), 500):
            part = ids[i:i + 500]
            out += self.query("select t.id, t.text, d.title as document from text_units t left join documents d "
                              f"on d.id = t.document_id where t.id in ({','.join('?' * len(part))})", part)
        return out

    def units_of_titles(self, titles: list[str], limit: int = 120) -> list[dict[str, Any]]:
        """The text units of the documents holding these titles, in document order (at most limit)."""
        if not titles:
            return []
        rows = self.query("select u.* from text_units u join documents d on d.id = u.document_id where d.title in "
                          f"({','.join('?' * len(titles))}) order by u.document_id, u.ordinal limit ?",
                          [*titles, int(limit)])
        return [decode("text_units", r) for r in rows]

    def document_progress(self) -> list[dict[str, Any]]:
        """Each document (number, title, mime, n_tokens, status, created_at, replaced: when its
        text was last replaced) with its chunks, the chunks extracted and those that failed."""
        rows = self.query("""
            select d.human_readable_id, d.title, d.mime, d.n_tokens, d.status, d.created_at, d.metadata,
                   count(distinct t.id) as chunks,
                   count(distinct case when e.status = 'ok' then t.id end) as extracted,
                   count(distinct case when e.status = 'failed' then t.id end) as failed
            from documents d
            left join text_units t on t.document_id = d.id
            left join extractions e on e.text_unit_id = t.id
            group by d.id order by d.human_readable_id""")
        for r in rows:
            try:
                meta = json.loads(r.pop("metadata") or "{}")
            except ValueError:
                meta = {}
            r["replaced"] = meta.get("replaced_at") if isinstance(meta, dict) else None
        return rows
