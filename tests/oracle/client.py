"""Client for the test-only HCL reference oracle (``tests/oracle/hclref``).

The oracle is a small Go program built against hashicorp/hcl v2.14.1 as
packaged by Debian (``golang-github-hashicorp-hcl-v2-dev``). This module builds
it once (the binary is cached under a directory keyed by a hash of the Go
source, the Go toolchain version and the hcl sources), runs it as one
long-lived process and sends it one JSON request per line.

Contract:
- :func:`get_oracle` returns a shared, started :class:`HclOracle`, or raises
  :class:`OracleUnavailable` with a human-readable reason (no Go, no hcl
  sources, build failure). The outcome is remembered for the process.
- Every :class:`HclOracle` method returns the decoded JSON answer (a ``dict``)
  whose shape is documented in ``tests/oracle/README.md``. Positions carry
  ``line``/``column`` (1-based, as HCL counts them), ``byte`` (UTF-8) and
  ``char`` (code point offset into the ``src`` you passed: a Python str index).
- A malformed request, or a panic inside hcl, raises :class:`OracleError`
  (``.panic`` tells which); the process keeps serving afterwards.

Nothing here imports the project under test.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = [
    "HclOracle",
    "OracleError",
    "OracleUnavailable",
    "get_oracle",
    "oracle_unavailable_reason",
    "summaries",
    "spans",
]

SOURCE_DIR = Path(__file__).resolve().parent / "hclref"
DEFAULT_GOPATH = "/usr/share/gocode"
HCL_IMPORT_DIR = "src/github.com/hashicorp/hcl/v2"
DEFAULT_FILENAME = "main.tf.json"
BUILD_TIMEOUT_S = 600


class OracleUnavailable(RuntimeError):
    """The oracle cannot be built or started here (the message says why)."""


class OracleError(RuntimeError):
    """The oracle rejected a request or hcl panicked on it."""

    def __init__(self, message: str, *, panic: bool = False, request: Mapping[str, Any] | None = None):
        super().__init__(message)
        self.panic = panic
        self.request = dict(request or {})


def _gopath() -> str:
    return os.environ.get("HCLREF_GOPATH", DEFAULT_GOPATH)


def _cache_root() -> Path:
    explicit = os.environ.get("HCLREF_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    try:
        base.mkdir(parents=True, exist_ok=True)
        if os.access(base, os.W_OK):
            return base / "hcljson-ls" / "hclref"
    except OSError:
        pass
    return Path(tempfile.gettempdir()) / f"hcljson-ls-hclref-{os.getuid()}"


def _build_env(cache_root: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["GOPATH"] = _gopath()
    env["GO111MODULE"] = "off"
    env["GOFLAGS"] = ""
    env["CGO_ENABLED"] = "0"
    env.setdefault("GOCACHE", str(cache_root / "gocache"))
    return env


def _source_key(go: str, env: Mapping[str, str]) -> str:
    h = hashlib.sha256()
    for path in sorted(SOURCE_DIR.glob("*.go")):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    version = subprocess.run(
        [go, "version"], env=dict(env), capture_output=True, text=True, timeout=60, check=False
    )
    h.update(version.stdout.encode())
    hcl_dir = Path(_gopath()) / HCL_IMPORT_DIR
    for rel in ("go.mod", "json/parser.go", "json/structure.go", "hclsyntax/parser.go"):
        p = hcl_dir / rel
        if p.exists():
            h.update(p.read_bytes())
    return h.hexdigest()[:20]


def _build() -> Path:
    go = shutil.which("go")
    if go is None:
        raise OracleUnavailable(
            "Go toolchain not found (install with .ci/install-oracle.sh: golang-go + golang-github-hashicorp-hcl-v2-dev)"
        )
    hcl_dir = Path(_gopath()) / HCL_IMPORT_DIR
    if not (hcl_dir / "json").is_dir():
        raise OracleUnavailable(
            f"hashicorp/hcl v2 sources not found under {hcl_dir} (install golang-github-hashicorp-hcl-v2-dev "
            "with .ci/install-oracle.sh)"
        )
    cache_root = _cache_root()
    env = _build_env(cache_root)
    key = _source_key(go, env)
    target = cache_root / key / "hclref"
    if target.is_file() and os.access(target, os.X_OK):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.parent / f"hclref.tmp.{os.getpid()}.{threading.get_ident()}"
    proc = subprocess.run(
        [go, "build", "-trimpath", "-o", str(tmp), "."],
        cwd=SOURCE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT_S,
        check=False,
    )
    if proc.returncode != 0 or not tmp.is_file():
        tmp.unlink(missing_ok=True)
        raise OracleUnavailable(f"building the hcl oracle failed:\n{proc.stderr.strip()}")
    os.replace(tmp, target)  # atomic: concurrent builders race harmlessly
    return target


class HclOracle:
    """One running oracle process. Thread-safe; use as a context manager or call :meth:`close`."""

    def __init__(self, binary: Path | str):
        self.binary = Path(binary)
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[str] | None = None
        self._start()

    # -- process management -------------------------------------------------

    def _start(self) -> None:
        self._proc = subprocess.Popen(
            [str(self.binary)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=sys.stderr,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )

    def close(self) -> None:
        with self._lock:
            proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.stdin:
                proc.stdin.close()
            proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        finally:
            if proc.stdout:
                proc.stdout.close()

    def __enter__(self) -> HclOracle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def request(self, req: Mapping[str, Any]) -> dict[str, Any]:
        """Send one raw request (see README) and return the answer; raises OracleError on "error"."""
        src = req.get("src")
        if isinstance(src, str):
            try:
                src.encode("utf-8")
            except UnicodeEncodeError as e:
                raise ValueError("src must be valid Unicode text (no lone surrogates)") from e
        line = json.dumps(req, ensure_ascii=True) + "\n"
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                self._start()
            proc = self._proc
            assert proc is not None and proc.stdin is not None and proc.stdout is not None
            try:
                proc.stdin.write(line)
                proc.stdin.flush()
                out = proc.stdout.readline()
            except (BrokenPipeError, OSError) as e:
                self._proc = None
                raise OracleError(f"oracle process died: {e}", request=req) from e
            if not out:
                self._proc = None
                raise OracleError(f"oracle process exited (code {proc.poll()})", request=req)
        answer = json.loads(out)
        if "error" in answer:
            raise OracleError(answer["error"], panic=bool(answer.get("panic")), request=req)
        return answer

    # -- operations -----------------------------------------------------------

    def json_parse(self, src: str, *, filename: str = DEFAULT_FILENAME) -> dict[str, Any]:
        """hcl/json.Parse -> {"diagnostics": [...]}."""
        return self.request({"op": "json_parse", "src": src, "filename": filename})

    def json_expression(
        self,
        src: str,
        *,
        eval: bool = False,
        vars: Mapping[str, Any] | None = None,
        filename: str = DEFAULT_FILENAME,
    ) -> dict[str, Any]:
        """hcl/json.ParseExpression (+ optional Value with an EvalContext) -> diagnostics, range, variables, value."""
        req: dict[str, Any] = {"op": "json_expression", "src": src, "filename": filename, "eval": eval}
        if vars is not None:
            req["vars"] = dict(vars)
        return self.request(req)

    def json_body(
        self,
        src: str,
        schema: Mapping[str, Any] | None = None,
        mode: str = "content",
        *,
        filename: str = DEFAULT_FILENAME,
    ) -> dict[str, Any]:
        """hcl/json.Parse then Body.Content / PartialContent / JustAttributes -> diagnostics, attributes, blocks."""
        return self.request(
            {"op": "json_body", "src": src, "schema": dict(schema or {}), "mode": mode, "filename": filename}
        )

    def template(self, src: str, *, filename: str = DEFAULT_FILENAME) -> dict[str, Any]:
        """hclsyntax.ParseTemplate -> diagnostics, range, variables."""
        return self.request({"op": "template", "src": src, "filename": filename})

    def expression(self, src: str, *, filename: str = DEFAULT_FILENAME) -> dict[str, Any]:
        """hclsyntax.ParseExpression -> diagnostics, range, variables."""
        return self.request({"op": "expression", "src": src, "filename": filename})

    def traversal(self, src: str, *, syntax: str = "native", filename: str = DEFAULT_FILENAME) -> dict[str, Any]:
        """hclsyntax.ParseTraversalAbs (syntax="native") or json.ParseExpression + hcl.AbsTraversalForExpr
        (syntax="json", src is JSON text such as '"aws_instance.a"') -> diagnostics, traversal."""
        return self.request({"op": "traversal", "src": src, "syntax": syntax, "filename": filename})

    def type_constraint(
        self, src: str, *, syntax: str = "native", filename: str = DEFAULT_FILENAME
    ) -> dict[str, Any]:
        """ext/typeexpr.TypeConstraintWithDefaults on src parsed as a native expression (syntax="native")
        or as a JSON expression (syntax="json", as Terraform reads `"type": "list(string)"`)."""
        return self.request({"op": "type", "src": src, "syntax": syntax, "filename": filename})

    type = type_constraint  # the op's name; alias for callers who follow the protocol names


_state_lock = threading.Lock()
_shared: HclOracle | None = None
_unavailable: str | None = None


def get_oracle() -> HclOracle:
    """Return the process-wide oracle, building and starting it on first use."""
    global _shared, _unavailable
    with _state_lock:
        if _shared is not None:
            return _shared
        if _unavailable is not None:
            raise OracleUnavailable(_unavailable)
        try:
            _shared = HclOracle(_build())
            atexit.register(_shared.close)
        except OracleUnavailable as e:
            _unavailable = str(e)
            raise
        except (OSError, subprocess.SubprocessError) as e:
            _unavailable = f"could not build or start the hcl oracle: {e}"
            raise OracleUnavailable(_unavailable) from e
        return _shared


def oracle_unavailable_reason() -> str | None:
    """None when the oracle works here, else why not (builds it if needed)."""
    try:
        get_oracle()
    except OracleUnavailable as e:
        return str(e)
    return None


def summaries(answer: Mapping[str, Any]) -> list[str]:
    """The diagnostic summaries of an answer, in hcl's order."""
    return [d["summary"] for d in answer["diagnostics"]]


def spans(answer: Mapping[str, Any]) -> list[tuple[str, int, int] | tuple[str, None, None]]:
    """(summary, start char, end char) for each diagnostic; (summary, None, None) when it has no range."""
    out: list[tuple[str, int, int] | tuple[str, None, None]] = []
    for d in answer["diagnostics"]:
        if d.get("range") is None:
            out.append((d["summary"], None, None))
        else:
            out.append((d["summary"], d["range"]["start"]["char"], d["range"]["end"]["char"]))
    return out
