"""Modules across files: workspace folders -> Terraform modules (directories) -> files, open buffers
over disk. The layer between `terraform` (one file's meaning) and `features` (requests).

    Workspace            the events (settings, opens, edits, closes, watched files) and what
                         they make stale, over its parts (`workspace.py`):
      OpenDocuments      the open buffers, their revisions, the stale set (`open_documents.py`)
      ModuleMap          the folders, a module per directory, which files count (`module_map.py`)
      DeclarationIndex   who declares and refers to what, per module (`declaration_index.py`)
    Snapshot             the read-only view a feature gets for one request (`snapshot.py`)
    ModuleScope          what the analysis of one file sees of its module (`scope.py`)
    DocumentState        one open document: text, parse, analysis (`document.py`)
    Module, FileSummary  one directory's files on disk, summarized (`module.py`)
    files                URIs, paths and reading files that may not be readable (`files.py`)
"""

from .document import DocumentState
from .module import FileSummary, Module
from .module_map import ScanStep
from .snapshot import Snapshot
from .workspace import CHANGED, CREATED, DELETED, Workspace, is_ours

__all__ = [
    "CHANGED", "CREATED", "DELETED", "DocumentState", "FileSummary", "Module", "ScanStep", "Snapshot",
    "Workspace", "is_ours",
]
