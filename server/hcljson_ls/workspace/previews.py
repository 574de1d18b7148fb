"""Read-only previews written for the editor to open (the "Show as native HCL" code action): the
only files the server writes besides the provider-schema cache, and only under the user cache dir.

    write_preview(source_uri, text, cache_dir=None) -> str | None    the path written, or None

Contract
--------
* The file is `<cache dir>/previews/<digest of source_uri>/<name>`, where `<name>` is the source
  file's name without `.json` (`main.tf.json` -> `main.tf`, `x.tofu.json` -> `x.tofu`), so an editor
  picks its native-HCL mode by the name, and two sources never share a preview. Written atomically
  (a temporary file renamed over the old preview).
* Never raises: a file system error is logged and gives None.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile

from ..cache_dir import user_cache_dir
from .files import file_name

log = logging.getLogger(__name__)

__all__ = ["default_preview_dir", "write_preview"]


def default_preview_dir() -> str:
    return user_cache_dir("previews")


def _name(source_uri: str) -> str:
    name = file_name(source_uri) or "preview.tf.json"
    base = name[: -len(".json")] if name.lower().endswith(".json") else name
    return base if base.lower().endswith((".tf", ".tofu")) else base + ".tf"


def write_preview(source_uri: str, text: str, cache_dir: str | None = None) -> str | None:
    folder = os.path.join(cache_dir or default_preview_dir(), hashlib.sha256(source_uri.encode()).hexdigest()[:16])
    path = os.path.join(folder, _name(source_uri))
    try:
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".preview-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
                f.write(text)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError as e:
        log.warning("cannot write the preview %s: %s", path, e)
        return None
    return path
