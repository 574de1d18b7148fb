"""The text layer: document text, line index and position encodings.

The only place in the project that knows about line ends and position encodings (UTF-16 code
units, UTF-8 bytes, UTF-32 code points). Inside the core every position is an absolute offset into
the text (a Python `str` index); conversion to LSP ``(line, character)`` happens through `LineIndex`.
Pure Python; imports nothing else from the project.
"""

from .buffer import TextBuffer
from .document import Document, Edit, merge_edits
from .encodings import ENCODINGS, UTF8, UTF16, UTF32, check_encoding, negotiate_encoding
from .line_index import LineIndex

__all__ = [
    "ENCODINGS",
    "UTF8",
    "UTF16",
    "UTF32",
    "Document",
    "Edit",
    "LineIndex",
    "TextBuffer",
    "check_encoding",
    "merge_edits",
    "negotiate_encoding",
]
