"""The `hcljson.validate` command: `terraform`/`tofu validate -json` in a document's module
(`workspace.tool_validate`), its findings kept as diagnostics beside ours.

    Validation(server)
      .run(uri) -> dict                   async: validate the module of `uri` (the command's result)
      .diagnostics(uri, state, encoding) -> list[types.Diagnostic]   what the last run found in open `uri`
      .forget(uri)                        the document was edited: its findings are stale
      .revision                           changes whenever any kept finding does (pull result ids)
      .cancel_all()

Contract
--------
* Trust: it runs only while ``providerSchemas.runTerraform`` is true (the VS Code extension sends
  false in untrusted workspaces); otherwise the request fails (`RequestFailed`) saying so. The tool
  is never one inside the workspace (`schema_fetch.find_tool`). ``validate.initIfNeeded`` (default
  false) lets it run `init -backend=false -input=false` in a module without `.terraform`.
* Engine: `tofu` first in a module OpenTofu reads (`ModuleMap.is_opentofu`), else `terraform`.
* Progress: work-done progress "Validating with terraform" (cancellable) when the client supports
  it. `$/cancelRequest` of the command, `window/workDoneProgress/cancel` of its progress, a newer run
  of the same module and shutdown kill the process. ``validate.timeoutSeconds`` (default 60) too.
* Findings in the module's JSON files (`*.json`) become LSP diagnostics with source
  "terraform validate", no code, at Terraform's subject range (bytes of the file on disk mapped to
  characters). They are shown in a document only while its text is exactly the text the tool read
  (an unsaved document or a file changed since gets none), and an edit drops them (`forget`); the
  next run of the module replaces all of them. Findings without a range, and those in native `.tf`
  files (served by terraform-ls, not us), are shown in one `window/showMessage`; so is a run that
  could not happen (no tool, timeout, garbage output).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import threading
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException

from ..diagnostic import plain
from ..workspace import tool_validate
from ..workspace.files import module_key, path_of_uri, uri_of_path
from . import convert

if TYPE_CHECKING:
    from ..workspace.document import DocumentState
    from .server import HcljsonServer

log = logging.getLogger(__name__)

COMMAND = "hcljson.validate"
SOURCE = "terraform validate"
#: LSP's `RequestFailed`.
_REQUEST_FAILED = -32803


@dataclass(frozen=True, slots=True)
class _Kept:
    module: str
    text: str  # the file's text the tool read: offsets are into it
    findings: tuple[tool_validate.Finding, ...]


class Validation:
    def __init__(self, server: HcljsonServer) -> None:
        self._server = server
        self._kept: dict[str, _Kept] = {}
        self._running: dict[str, threading.Event] = {}
        self._revision = itertools.count(1)
        self.revision = next(self._revision)

    # -- the diagnostics ----------------------------------------------------------------------

    def diagnostics(self, uri: str, state: DocumentState, encoding: str) -> list[types.Diagnostic]:
        kept = self._kept.get(uri)
        if kept is None or kept.text != state.text:
            return []
        index = state.line_index
        return [
            types.Diagnostic(
                range=convert.to_range(index, f.start, f.end, encoding),
                message=f.message,
                severity=types.DiagnosticSeverity.Warning if f.severity == "warning" else types.DiagnosticSeverity.Error,
                source=SOURCE,
            )
            for f in kept.findings
        ]

    def forget(self, uri: str) -> None:
        if self._kept.pop(uri, None) is not None:
            self.revision = next(self._revision)

    def cancel_all(self) -> None:
        for cancel in self._running.values():
            cancel.set()

    # -- running ------------------------------------------------------------------------------

    async def run(self, uri: str) -> dict[str, Any]:
        ls = self._server
        path = path_of_uri(uri) if isinstance(uri, str) and uri.startswith("file:") else None
        if path is None:
            raise JsonRpcException(f"{COMMAND}: expected the URI of a file, got {uri!r}.", code=_REQUEST_FAILED)
        if not ls.settings.provider_schemas.run_terraform:
            raise JsonRpcException(
                "Validation runs terraform, which is turned off in this workspace "
                "(providerSchemas.runTerraform is false, e.g. in an untrusted workspace).",
                code=_REQUEST_FAILED,
            )
        key = module_key(uri)
        if (previous := self._running.get(key)) is not None:
            previous.set()  # the newest run of a module wins
        cancel = self._running[key] = threading.Event()
        engine = "opentofu" if ls.store.module_map.is_opentofu(key) else "terraform"
        token = await self._begin_progress(cancel, "tofu" if engine == "opentofu" else "terraform", key)
        try:
            result = await asyncio.to_thread(
                tool_validate.validate, key, engine, float(ls.settings.validate.timeout_seconds), cancel,
                tuple(ls.store.folders), ls.settings.validate.init_if_needed,
            )
        except asyncio.CancelledError:  # `$/cancelRequest`: the thread kills the process
            cancel.set()
            raise
        finally:
            if self._running.get(key) is cancel:
                del self._running[key]
            if token is not None:
                ls.work_done_progress.end(token, types.WorkDoneProgressEnd(message="done"))
                ls.work_done_progress.tokens.pop(token, None)
        if result.cancelled:
            return {"cancelled": True}
        if result.problem is not None:
            self._show(types.MessageType.Warning, result.problem)
            return {"problem": result.problem}
        self._keep(key, result.findings)
        errors = sum(f.severity == "error" for f in result.findings)
        return {"valid": errors == 0, "errorCount": errors, "warningCount": len(result.findings) - errors}

    async def _begin_progress(self, cancel: threading.Event, tool: str, directory: str) -> str | None:
        ls = self._server
        if not ls.window_capability("work_done_progress"):
            return None
        token = str(uuid.uuid4())
        try:
            await ls.work_done_progress.create_async(token)
        except Exception:  # a client that refuses progress still gets the run
            log.info("work-done progress refused; validating without it")
            return None
        # `window/workDoneProgress/cancel`: pygls cancels the token's future.
        ls.work_done_progress.tokens[token].add_done_callback(lambda f: cancel.set() if f.cancelled() else None)
        ls.work_done_progress.begin(token, types.WorkDoneProgressBegin(
            title=f"Validating with {tool}", message=os.path.basename(directory) or directory, cancellable=True))
        return token

    def _keep(self, key: str, findings: tuple[tool_validate.Finding, ...]) -> None:
        ls = self._server
        by_uri: dict[str, list[tool_validate.Finding]] = {}
        texts: dict[str, str] = {}
        elsewhere: list[str] = []
        for f in findings:
            if f.path is not None and f.text is not None and f.path.endswith(".json"):
                uri = uri_of_path(f.path)
                by_uri.setdefault(uri, []).append(f)
                texts[uri] = f.text
            else:
                where = f"{os.path.basename(f.path)}: " if f.path else ""
                elsewhere.append(f"{f.severity}: {where}{f.message}")
        changed = {u for u, k in self._kept.items() if k.module == key} | set(by_uri)
        for uri in changed:
            self._kept.pop(uri, None)
        for uri, found in by_uri.items():
            self._kept[uri] = _Kept(key, texts[uri], tuple(found))
        self.revision = next(self._revision)
        if elsewhere:
            kind = types.MessageType.Error if any(m.startswith("error") for m in elsewhere) else types.MessageType.Warning
            self._show(kind, f"{SOURCE} in {key}:\n" + "\n".join(elsewhere))
        for uri in sorted(changed):
            if ls.store.get(uri) is not None:
                ls.diagnostics_changed(uri, immediately=True)
        if ls.client_pulls_diagnostics and ls.workspace_capability("diagnostics", "refresh_support"):
            ls.workspace_diagnostic_refresh(None)

    def _show(self, kind: types.MessageType, message: str) -> None:
        log.info("%s", message)
        self._server.window_show_message(types.ShowMessageParams(type=kind, message=plain(message)))
