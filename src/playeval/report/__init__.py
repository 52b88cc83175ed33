"""Reports of a run: ``build_report`` collects the data from the store, ``write_report`` writes HTML and Markdown."""

from playeval.report.build import build_report
from playeval.report.data import ReportData
from playeval.report.render import ReportFiles, write_report

__all__ = ["ReportData", "ReportFiles", "build_report", "write_report"]
