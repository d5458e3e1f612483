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
    from core.index.replace_preview import preview_replacement
    out = []
    for new in rep.same_title:
        preview = preview_replacement(store, new["old_id"], new["text"], settings)
        res = replace_document(store, new["old_id"], new, settings)
        counts = ", ".join(f"{v} {k}" for k, v in preview.counts.items() if v) or "none"
        out.append(f"replaced {res['title']}: paragraphs changed: {counts}; {res['units_kept']} text units kept, "
                   f"{res['units_added']} new (extracted again), {res['units_removed']} gone")
    return out
