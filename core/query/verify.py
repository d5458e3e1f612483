"""Kept for its callers: the report verification moved to core.verify.reports (issue 16)."""
from core.verify.reports import ReportTrust, VerifyResult, report_findings, report_trust, verify_reports  # noqa: F401
