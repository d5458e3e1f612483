"""PostgreSQL's pg_trgm, which makes the substring searches fast, belongs to no workspace: it
lives where every workspace's search path reaches (public), so a workspace opened after another
was made, or after one was dropped, builds its indexes, and removing a workspace takes nothing
from the others."""
from __future__ import annotations

import pytest

from core.store.backends import drop_tables, store_at


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_the_trigram_extension_outlives_any_one_workspace(tmp_path, backend):
    first = store_at(tmp_path / "first")
    second = store_at(tmp_path / "second")  # built its trigram indexes with the extension the first made
    where = "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'"
    assert first.db.conn.run(where).fetchone()[0] == "public"
    drop_tables(tmp_path / "first")
    third = store_at(tmp_path / "third")
    assert third.db.conn.run(where).fetchone()[0] == "public"
    indexes = second.db.conn.run("SELECT count(*) FROM pg_indexes WHERE indexname LIKE '%_trgm' AND schemaname = "
                                 "current_schema()").fetchone()[0]
    assert indexes > 0  # the second workspace's trigram indexes survived the first's removal
