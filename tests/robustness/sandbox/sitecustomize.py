"""Loaded at start-up by the server processes of the robustness tests (first on PYTHONPATH): every
network connection and every subprocess fails, and each attempt is appended to the file named by
`HCLJSON_SANDBOX_LOG` (the test asserts that file stays empty). Without that variable: no effect."""

import os

_LOG = os.environ.get("HCLJSON_SANDBOX_LOG")

if _LOG:
    import socket
    import subprocess
    import traceback

    def _safe(value) -> str:
        try:
            return repr(value)[:200]
        except Exception:  # a half-made object (Popen refused in __init__)
            return type(value).__name__

    def _refuse(what: str):
        def refuse(*args, **kwargs):
            with open(_LOG, "a", encoding="utf-8") as f:
                f.write(f"{what} {', '.join(map(_safe, args))}\n{''.join(traceback.format_stack(limit=8))}\n")
            raise PermissionError(f"robustness sandbox: {what} refused")

        return refuse

    socket.socket.connect = _refuse("socket.connect")  # type: ignore[method-assign]
    socket.socket.connect_ex = _refuse("socket.connect_ex")  # type: ignore[method-assign]
    socket.socket.sendto = _refuse("socket.sendto")  # type: ignore[method-assign]
    socket.create_connection = _refuse("socket.create_connection")  # type: ignore[assignment]
    socket.getaddrinfo = _refuse("socket.getaddrinfo")  # type: ignore[assignment]
    subprocess.Popen.__init__ = _refuse("subprocess.Popen")  # type: ignore[method-assign]
    os.system = _refuse("os.system")  # type: ignore[assignment]
    for _name in ("execv", "execve", "execvp", "execvpe", "posix_spawn", "posix_spawnp", "fork"):
        if hasattr(os, _name):
            setattr(os, _name, _refuse(f"os.{_name}"))
