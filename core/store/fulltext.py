"""Full-text search of a workspace's tables: SQLite FTS5 (porter stemmer) for words, and a
trigram index for Chinese, Japanese and Korean text, which the word tokenizer cannot split. A
mixin of core.store.db.Store: it reads through the store's query() and count()."""
from __future__ import annotations

import math
import re
import sqlite3
from collections import Counter
from typing import Any

from core.store.schema import FTS, decode
from core.text.lexical import query_words, term_counter
from core.textutil import has_cjk


class FullTextSearch:
    def search(self, table: str, query: str, limit: int = 20) -> list[dict[str, Any]]:
        """Full-text search, best first. Query text is reduced to quoted terms, so user input
        can never be an FTS syntax error. Queries with CJK text also search the trigram index
        with the question's words (jieba segmentation), ranked by how many of them a row holds."""
        out = self._search_words(table, query, limit)
        if has_cjk(query):
            seen = {r["id"] for r in out}
            cjk = [r for r in self._search_cjk(table, query, limit) if r["id"] not in seen]
            out = sorted(cjk + out, key=lambda r: r["_rank"])[:limit]
        return out

    def units_with(self, phrase: str, limit: int = 20) -> list[dict[str, Any]]:
        """Up to `limit` text units (id, human_readable_id, text) whose full-text index holds the
        phrase: its words in order (FTS5's stemmer may match more; callers confirm the text).
        Raises sqlite3.Error where the workspace has no such index."""
        return self.query("SELECT id, human_readable_id, text FROM text_units WHERE rowid IN (SELECT rowid "
                          "FROM text_units_fts WHERE text_units_fts MATCH ? LIMIT ?)",
                          ['"' + phrase.replace('"', '""') + '"', limit])

    def unit_texts_with(self, word: str, limit: int = 50, substring: bool = False) -> list[str]:
        """The texts of up to `limit` text units that hold the word, any case: as a word (the
        word index, confirmed in the text), or with substring=True anywhere in the text (the
        trigram index for three letters or more: a Latin word against Chinese text). Callers
        confirm word bounds."""
        q = '"' + word.replace('"', '""') + '"'
        like = f"%{word.lower()}%"
        if substring:
            try:
                if len(word) >= 3:
                    return [r["text"] for r in self.query(
                        "SELECT text FROM text_units WHERE rowid IN (SELECT rowid FROM text_units_cjk "
                        "WHERE text_units_cjk MATCH ?) LIMIT ?", [q, limit])]
            except sqlite3.Error:
                return []
            return [r["text"] for r in self.query("SELECT text FROM text_units WHERE lower(text) LIKE ? LIMIT ?",
                                                  [like, limit])]
        try:  # the porter stemmer matches "chens" for "chen": the text must hold the word as written
            return [r["text"] for r in self.query(
                "SELECT text FROM text_units WHERE rowid IN (SELECT rowid FROM text_units_fts WHERE "
                "text_units_fts MATCH ? LIMIT 20) AND lower(text) LIKE ? LIMIT ?", [q, like, limit])]
        except sqlite3.Error:  # no full-text index (an old or foreign workspace): scan the units
            return [r["text"] for r in self.query("SELECT text FROM text_units WHERE lower(text) LIKE ? LIMIT ?",
                                                  [like, limit])]

    def unit_share(self, phrase: str, document_id: str | None = None) -> float:
        """The share of text units (of one document, with document_id) whose text holds the
        phrase (its words in order, by the full-text index): 0.9 for "Microsoft" in its earnings
        calls; 0 without units or words."""
        words = re.findall(r"[^\W_]+", phrase.lower())
        where = ("document_id = ?", [document_id]) if document_id else (None, None)
        total = self.count("text_units", *where)
        if not words or not total:
            return 0.0
        match = '"' + " ".join(words) + '"'
        try:
            if document_id:
                n = self.db.conn.execute(
                    "select count(*) from text_units where document_id = ? and rowid in (select rowid from "
                    "text_units_fts where text_units_fts match ?)", [document_id, match]).fetchone()[0]
            else:
                n = self.db.conn.execute("select count(*) from text_units_fts where text_units_fts match ?",
                                         [match]).fetchone()[0]
        except sqlite3.Error:
            return 0.0
        return n / total

    def fulltext_problems(self) -> list[tuple[str, str]]:
        """(index, problem) for each full-text index out of step with its table."""
        out = []
        for table in FTS:
            for fts in (f"{table}_fts", f"{table}_cjk"):
                try:
                    self.db.conn.execute(f"insert into [{fts}]([{fts}], rank) values ('integrity-check', 1)")
                except sqlite3.DatabaseError as exc:
                    out.append((fts, f"the full-text index is out of step with {table}: {exc}"))
                finally:
                    self.db.conn.rollback()  # the check writes nothing; end its implicit transaction
        return out

    def _cjk_candidates(self, table: str, terms: list[str]) -> list[dict[str, Any]]:
        """Up to 2,000 rows holding one of the terms: the trigram index for terms of three
        characters or more, LIKE for shorter ones."""
        cols = FTS[table]
        long_terms = [t for t in terms if len(t) >= 3]
        clauses, params = [], []
        if long_terms:
            clauses.append(f"[{table}].rowid in (select rowid from [{table}_cjk] where [{table}_cjk] match ?)")
            params.append(" OR ".join('"' + t.replace('"', '""') + '"' for t in long_terms))
        for t in (t for t in terms if len(t) < 3):
            clauses.append("(" + " or ".join(f"[{table}].[{c}] like ?" for c in cols) + ")")
            params += [f"%{t}%"] * len(cols)
        return self.query(f"select * from [{table}] where {' or '.join(clauses)} limit 2000", params)

    def _search_words(self, table: str, query: str, limit: int) -> list[dict[str, Any]]:
        """The backend's word index finds the rows holding any of the query's words; they are
        ranked here, by one BM25 over this module's terms, so a question ranks the same rows the
        same way on either backend (their own scorers, FTS5's bm25 and ts_rank_cd, do not)."""
        words = dict(list(query_words(query).items())[:64])
        if not words:
            return []
        chosen = list(words)
        rows = self._rows_with_any(table, chosen, CANDIDATES + 1)
        if len(rows) > CANDIDATES:  # common words: look up the rarest words that fit the budget
            counts = {w: len(self._rows_with_any(table, [w], CANDIDATES + 1, select="id")) for w in chosen}
            chosen, total = [], 0
            for w in sorted(counts, key=lambda w: (counts[w], w)):
                if chosen and total + counts[w] > CANDIDATES:
                    break
                chosen.append(w)
                total += counts[w]
            rows = self._rows_with_any(table, chosen, CANDIDATES)
        return [decode(table, r) for r in rank_bm25(rows, FTS[table], set(words.values()), self._mean_length(table),
                                                    self.count(table))[:limit]]

    def _rows_with_any(self, table: str, words: list[str], limit: int, select: str = "*") -> list[dict[str, Any]]:
        """Up to `limit` rows whose word index holds one of the words (lowercase letters and
        digits only), first rows first."""
        match = " OR ".join(f'"{w}"' for w in words)
        return self.query(f"select {select} from [{table}] where rowid in (select rowid from [{table}_fts] "
                          f"where [{table}_fts] match ?) order by human_readable_id limit ?", [match, limit])

    def _mean_length(self, table: str) -> float:
        """The mean length in characters of the text a table's word index holds."""
        total = " + ".join(f"length(coalesce([{c}], ''))" for c in FTS[table])
        row = self.query(f"select avg({total}) as mean from [{table}]")
        return float((row[0]["mean"] if row else 0) or 0.0)

    def _search_cjk(self, table: str, query: str, limit: int) -> list[dict[str, Any]]:
        terms = cjk_terms(query)
        if not terms:
            return []
        cols = FTS[table]
        rows = self._cjk_candidates(table, terms)
        for r in rows:
            hay = " ".join(str(r.get(c) or "") for c in cols)
            # more and longer question words in the row rank it higher (negative like bm25)
            r["_rank"] = -sum(len(t) * (1 + hay.count(t) ** 0.5) for t in terms if t in hay)
        rows.sort(key=lambda r: r["_rank"])
        return [decode(table, r) for r in rows[:limit]]


CANDIDATES = 5000  # rows ranked per search at most


def rank_bm25(rows: list[dict[str, Any]], cols: tuple[str, ...], wanted: set[str], mean_length: float, n: int,
              k1: float = 1.2, b: float = 0.75) -> list[dict[str, Any]]:
    """The rows holding one of the wanted terms, best first by Okapi BM25 (document frequencies
    counted among the rows, lengths in characters), ties by human_readable_id; each gets _rank,
    its score negated (lower is better, as FTS5's bm25)."""
    found = []
    count = term_counter(wanted)
    for r in rows:
        text = " ".join(str(r.get(c) or "") for c in cols)
        tf = count(text)
        if tf:
            found.append((r, tf, len(text)))
    df = Counter(t for _, tf, _ in found for t in tf)
    idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}
    mean = mean_length or 1.0
    for r, tf, length in found:
        r["_rank"] = -sum(idf[t] * f * (k1 + 1) / (f + k1 * (1 - b + b * length / mean)) for t, f in tf.items())
    found.sort(key=lambda x: (x[0]["_rank"], x[0].get("human_readable_id") or 0))
    return [r for r, _, _ in found]


def cjk_terms(text: str) -> list[str]:
    """The words of a CJK question worth searching for: jieba's segmentation (search mode),
    CJK words of two or more characters and Latin-script names, stop-words dropped."""
    import jieba
    jieba.setLogLevel(60)
    out = []
    for w in jieba.cut_for_search(text):
        w = w.strip()
        if len(w) >= 2 and w not in _CJK_STOP and (has_cjk(w) or w.isalnum()):
            out.append(w)
    return list(dict.fromkeys(out))[:32]


_CJK_STOP = {"什么", "哪些", "这些", "那些", "如何", "怎么", "为什么", "我们", "他们", "一个", "没有", "可以",
             "主要", "讨论", "文章", "作用", "问题", "以及", "还是", "因为", "所以", "是否"}
