"""Modules across files: workspace folders -> Terraform modules (directories) -> files, open buffers
over disk. The layer between `terraform` (one file's meaning) and `features` (requests).

    Workspace            folders, modules, open documents, watched-file events (`workspace.py`)
    Snapshot             the read-only view a feature gets for one request (`snapshot.py`)
    ModuleScope          what the analysis of one file sees of its module (`scope.py`)
    DocumentState        one open document: text, parse, analysis (`document.py`)
    Module, FileSummary  one directory's files on disk, summarized (`module.py`)
    files                URIs, paths and reading files that may not be readable (`files.py`)
"""

from .document import DocumentState
from .module import FileSummary, Module
from .snapshot import Snapshot
from .workspace import CHANGED, CREATED, DELETED, ScanStep, Workspace, is_ours

__all__ = [
    "CHANGED", "CREATED", "DELETED", "DocumentState", "FileSummary", "Module", "ScanStep", "Snapshot",
    "Workspace", "is_ours",
]
