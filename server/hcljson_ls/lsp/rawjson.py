"""JSON already written as text, sent as it is (`lsp.protocol`, "Sending").

    RawJSON(text)     a response's result or a notification's params that is ASCII JSON text

No pygls or lsprotocol here: `lsp.first_open` writes such texts before either is imported.
"""

from __future__ import annotations


class RawJSON:
    """A JSON value already written as (ASCII) text: spliced into the message as it is."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"RawJSON({len(self.text)} characters)"
