"""What the CLI prints of a change: the change summary of a run, and `index --replace`
replacing the documents the ingest found under an indexed title."""
from __future__ import annotations


def print_changes(summary: dict) -> None:
    from core.index.changes import describe
    if summary.get("changes"):
        print(f"changes: {describe(summary['changes'])}")


def replace_from_report(store, rep, settings) -> list[str]:
    """`index --replace`: documents the ingest found under a title already in the workspace
    replace that document (same id: unchanged units keep their extractions)."""
    from core.index.lifecycle import replace_document
    out = []
    for new in rep.same_title:
        res = replace_document(store, new["old_id"], new, settings)
        out.append(f"replaced {res['title']}: {res['units_kept']} text units kept, {res['units_added']} new, "
                   f"{res['units_removed']} gone")
    return out
