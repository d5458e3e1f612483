"""Microsoft GraphRAG's table and column names, for graphrag 1.x to 3.x, defined once.

Import reads any of the accepted names; export writes the current ones (graphrag 2.x/3.x,
`graphrag/data_model/schemas.py`), so graphrag's own query code and graphrag-visualizer read
what we write.
"""
from __future__ import annotations

# Our table -> graphrag output file stems, newest first (1.x wrote `create_final_<name>`).
FILES: dict[str, tuple[str, ...]] = {
    "documents": ("documents", "create_final_documents"),
    "text_units": ("text_units", "create_final_text_units"),
    "entities": ("entities", "create_final_entities"),
    "relationships": ("relationships", "create_final_relationships"),
    "communities": ("communities", "create_final_communities"),
    "community_reports": ("community_reports", "create_final_community_reports"),
    "claims": ("covariates", "create_final_covariates"),
}
REQUIRED = ("entities", "relationships", "communities", "community_reports", "text_units")
OPTIONAL = ("documents", "claims")
EXTENSIONS = (".parquet", ".jsonl")  # parquet is graphrag's output; jsonl twins are accepted

# Our column -> graphrag column names that may hold it, preferred first.
ALIASES: dict[str, dict[str, tuple[str, ...]]] = {
    "documents": {
        "id": ("id",), "human_readable_id": ("human_readable_id",), "title": ("title",),
        "text": ("text", "raw_content"), "text_unit_ids": ("text_unit_ids",),
        "created_at": ("creation_date",), "metadata": ("metadata", "raw_data", "attributes"),
    },
    "text_units": {
        "id": ("id",), "human_readable_id": ("human_readable_id",), "text": ("text", "chunk"),
        "n_tokens": ("n_tokens",), "document_id": ("document_id", "document_ids"),
    },
    "entities": {
        "id": ("id",), "human_readable_id": ("human_readable_id",), "title": ("title", "name"),
        "type": ("type",), "description": ("description",), "text_unit_ids": ("text_unit_ids",),
        "frequency": ("frequency",), "degree": ("degree",),
    },
    "relationships": {
        "id": ("id",), "human_readable_id": ("human_readable_id",), "source": ("source",),
        "target": ("target",), "description": ("description",), "weight": ("weight",),
        "combined_degree": ("combined_degree", "rank"), "text_unit_ids": ("text_unit_ids",),
    },
    "communities": {
        "id": ("id",), "human_readable_id": ("human_readable_id",),
        "community": ("community", "id"), "level": ("level",), "parent": ("parent",),
        "children": ("children",), "title": ("title",), "entity_ids": ("entity_ids",),
        "relationship_ids": ("relationship_ids",), "text_unit_ids": ("text_unit_ids",),
        "size": ("size",),
    },
    "community_reports": {
        "id": ("id",), "human_readable_id": ("human_readable_id",), "community": ("community",),
        "level": ("level",), "title": ("title",), "summary": ("summary",),
        "rating": ("rating", "rank"), "rating_explanation": ("rating_explanation", "rank_explanation"),
        "findings": ("findings",), "full_content": ("full_content",), "rank": ("rank", "rating"),
    },
    "claims": {
        "id": ("id",), "human_readable_id": ("human_readable_id",), "subject": ("subject_id",),
        "object": ("object_id",), "type": ("type",), "status": ("status",),
        "description": ("description",), "source_text": ("source_text",),
        "text_unit_id": ("text_unit_id",), "start_date": ("start_date",), "end_date": ("end_date",),
    },
}

# Columns an input table must have (after aliases) to be usable at all.
NEEDED: dict[str, tuple[str, ...]] = {
    "documents": ("id",),
    "text_units": ("id", "text"),
    "entities": ("id", "title"),
    "relationships": ("source", "target"),
    "communities": ("community", "level"),
    "community_reports": ("community",),
    "claims": ("subject",),
}

# graphrag writes this placeholder where a claim has no object or date.
NONE_MARKER = "NONE"

# Export: graphrag file stem -> its final columns in order (graphrag 2.x/3.x schemas.py).
EXPORT_COLUMNS: dict[str, tuple[str, ...]] = {
    "documents": ("id", "human_readable_id", "title", "text", "text_unit_ids", "creation_date",
                  "raw_data"),
    "text_units": ("id", "human_readable_id", "text", "n_tokens", "document_id", "entity_ids",
                   "relationship_ids", "covariate_ids"),
    "entities": ("id", "human_readable_id", "title", "type", "description", "text_unit_ids",
                 "frequency", "degree"),
    "relationships": ("id", "human_readable_id", "source", "target", "description", "weight",
                      "combined_degree", "text_unit_ids"),
    "communities": ("id", "human_readable_id", "community", "level", "parent", "children", "title",
                    "entity_ids", "relationship_ids", "text_unit_ids", "period", "size"),
    "community_reports": ("id", "human_readable_id", "community", "level", "parent", "children",
                          "title", "summary", "full_content", "rank", "rating_explanation",
                          "findings", "full_content_json", "period", "size"),
    "covariates": ("id", "human_readable_id", "covariate_type", "type", "description",
                   "subject_id", "object_id", "status", "start_date", "end_date", "source_text",
                   "text_unit_id"),
}

# Export: arrow type names of non-string columns ("int", "float", "list<str>", "list<int>",
# "findings"); every other column is a nullable string.
EXPORT_TYPES: dict[str, dict[str, str]] = {
    "documents": {"human_readable_id": "int", "text_unit_ids": "list<str>"},
    "text_units": {"human_readable_id": "int", "n_tokens": "int", "entity_ids": "list<str>",
                   "relationship_ids": "list<str>", "covariate_ids": "list<str>"},
    "entities": {"human_readable_id": "int", "text_unit_ids": "list<str>", "frequency": "int",
                 "degree": "int"},
    "relationships": {"human_readable_id": "int", "weight": "float", "combined_degree": "int",
                      "text_unit_ids": "list<str>"},
    "communities": {"human_readable_id": "int", "community": "int", "level": "int",
                    "parent": "int", "children": "list<int>", "entity_ids": "list<str>",
                    "relationship_ids": "list<str>", "text_unit_ids": "list<str>", "size": "int"},
    "community_reports": {"human_readable_id": "int", "community": "int", "level": "int",
                          "parent": "int", "children": "list<int>", "rank": "float",
                          "findings": "findings", "size": "int"},
    "covariates": {"human_readable_id": "int"},
}
