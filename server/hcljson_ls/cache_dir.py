"""Where hcljson-ls may write: the user's cache directory (`~/.cache/hcljson-ls` on Linux).

    user_cache_dir(*parts) -> str         `parts` under it (`platformdirs`)

A module of its own, outside the layers, so that `entry` can name the cache before it imports any
layer (`compiled_methods`); the layers that write there (`workspace.previews`,
`workspace.schema_fetch`, `lsp`, `cli`) import it from here too.
"""

from __future__ import annotations

import os

import platformdirs


def user_cache_dir(*parts: str) -> str:
    """`parts` under the user's cache directory for hcljson-ls (`~/.cache/hcljson-ls` on Linux): the
    only place the server writes (provider-schema cache, previews, parser tables, compiled methods)."""
    return os.path.join(platformdirs.user_cache_dir("hcljson-ls", appauthor=False), *parts)
