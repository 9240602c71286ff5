"""Generate an example into a temp project, build it once, run it on loopback.

One build per example for the whole run: the built project lives under the pytest base
temp directory's parent (shared by xdist workers) and is guarded by a file lock; each
worker starts its own server process on a free port and stops it by its pid.
"""

from __future__ import annotations

import fcntl
import http.client
import json
import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

REPO = Path(__file__).resolve().parents[2]
RUNTIME = REPO / "runtime"
LOGIC = Path(__file__).resolve().parent / "logic"
GO_ENV = {**os.environ, "GOFLAGS": "-mod=readonly", "GOTOOLCHAIN": "local"}


def go_available() -> bool:
    return shutil.which("go") is not None and shutil.which("gofmt") is not None


DESIGNS = Path(__file__).resolve().parent / "designs"  # test-only designs, laid out like an example


def make_project(example: str, root: Path) -> Path:
    """A project root holding the example's committed files (design, go.mod with the replace
    pointed at this runtime, and its own code: logic stubs, middleware, config)."""
    src = REPO / "examples" / example
    if not src.is_dir():
        src = DESIGNS / example
    if root.exists():
        shutil.rmtree(root)
    for rel in example_files(src):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(src / rel, root / rel)
    gomod = (src / "go.mod").read_text().replace("../../runtime", str(RUNTIME))
    (root / "go.mod").write_text(gomod)
    return root


def example_files(src: Path) -> list[str]:
    """The files of an example (or test design) folder that are not generated: what git
    tracks (or would, for new files); every file but built binaries where git is not
    available."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "."],
            cwd=src,
            capture_output=True,
            check=True,
        ).stdout.decode()
    except (OSError, subprocess.CalledProcessError):
        files = (p.relative_to(src) for p in src.rglob("*") if p.is_file())
        return sorted(p.as_posix() for p in files if "bin" not in p.parts)
    return sorted(p for p in listed.split("\0") if p and (src / p).is_file())


def generate(root: Path) -> Any:
    """`kit gen` through the program API; returns the writer's report (or the file list)."""
    from kit_core import program

    design = program.load_design(root / "design", project_root=root)
    for f in design.files:
        assert not f.parse_diagnostics, f.parse_diagnostics
    analysis = _analysis(design)
    targets: tuple[str, ...] = ("go", "docs")
    try:
        result = program.generate(design, analysis, targets)
    except ImportError:  # the OpenAPI generator is not complete yet: Go only, a stand-in document
        targets = ("go",)
        result = program.generate(design, analysis, targets)
        spec = root / "docs" / "openapi.yaml"
        spec.parent.mkdir(parents=True, exist_ok=True)
        spec.write_text("openapi: 3.1.0\ninfo: {title: stand-in, version: 0.0.0}\npaths: {}\n")
    from kit_core.writer import write_outputs

    report = write_outputs(root, result.files, design.manifest, targets=targets)
    assert report.ok, report.errors
    return report


def generate_files(design_dir: Path, module: str = "example.com/app") -> dict[str, str]:
    """Generate the Go side in memory (nothing written): project-relative path -> text."""
    from kit_core import program
    from kit_core.generators import go

    design = program.load_design(design_dir, project_root=design_dir.parent)
    design.module = module
    files, _ = go.generate(program.gen_context(design, _analysis(design)))
    return {f.path: f.content for f in files}


def _analysis(design: Any) -> Any:
    try:
        checked = __import__("kit_core.program", fromlist=["check"]).check(design)
    except ImportError:  # analyzer not there yet: the symbol table is enough to generate
        from kit_core.symbols import SymbolTable

        return SimpleNamespace(symbols=SymbolTable.build(design.files), diagnostics=[])
    errors = [d for d in checked.diagnostics if d.is_error]
    assert not errors, "\n".join(f"{d.span.display()}: {d.code}: {d.message}" for d in errors)
    return checked.analysis


MAIN_ANCHOR = "\tconfigureServer(srv, cfg)\n"


def overlay_logic(example: str, root: Path) -> None:
    """Replace GEN-ONCE stubs and scaffolds (user-owned files) with the tests' implementations.

    An example whose logic holds `e2e_hooks.go` (package main) also gets the edit a user
    would make to the GEN-ONCE main.go: one `e2eConfigure(srv)` call after configureServer.
    """
    src = LOGIC / example
    for path in src.rglob("*.go"):
        dest = root / path.relative_to(src)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, dest)
    if (src / "e2e_hooks.go").is_file():
        main = root / "main.go"
        text = main.read_text()
        assert text.count(MAIN_ANCHOR) == 1, "main.go no longer calls configureServer(srv, cfg) once"
        main.write_text(text.replace(MAIN_ANCHOR, MAIN_ANCHOR + "\te2eConfigure(srv)\n"))
    if (src / "events.go").is_file():
        wire_events(root)


# The edits a user makes to the GEN-ONCE config, service context and main.go to run an
# events bus (logic/showcase/events.go starts it): (file, anchor, replacement).
EVENTS_EDITS = [
    ("config/config.go", "type Config struct {\n", 'type Config struct {\n\tEvents EventsConfig `yaml:"events"`\n'),
    ("svccontext/svccontext.go", "\tMiddlewares\n}", "\tMiddlewares\n\tEvents\n}"),
    (
        "main.go",
        "\tsvcCtx := svccontext.NewServiceContext(cfg)\n",
        "\tsvcCtx := svccontext.NewServiceContext(cfg)\n"
        "\tstopEvents, err := startEvents(ctx, cfg, svcCtx)\n\tif err != nil {\n\t\treturn err\n\t}\n"
        "\tdefer stopEvents()\n",
    ),
]


def wire_events(root: Path) -> None:
    for rel, anchor, replacement in EVENTS_EDITS:
        path = root / rel
        text = path.read_text()
        assert text.count(anchor) == 1, f"{rel} no longer holds {anchor!r} once"
        path.write_text(text.replace(anchor, replacement))
    subprocess.run(["gofmt", "-w", *(rel for rel, _, _ in EVENTS_EDITS)], cwd=root, check=True)


def run(cmd: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(cmd, cwd=cwd, env=GO_ENV, capture_output=True, text=True, timeout=timeout, check=False)
    assert proc.returncode == 0, f"{' '.join(cmd)} failed:\n{proc.stdout}\n{proc.stderr}"
    return proc


def go_fuzz(target: str, package: str, cwd: Path) -> None:
    """A short Go fuzzing run of ``target`` in ``package``: KIT_FUZZ_EXECS executions (5,000
    unless set; set it higher to fuzz longer), one worker."""
    execs = os.environ.get("KIT_FUZZ_EXECS", "5000")
    cmd = ["go", "test", "-run", "^$", "-fuzz", f"^{target}$", "-fuzztime", f"{execs}x", "-parallel", "1"]
    run([*cmd, package], cwd, timeout=600)


@dataclass
class Built:
    root: Path
    binary: Path
    gofmt: str  # output of `gofmt -l .` on the generated project (before the logic overlay)
    vet: str


def shared_tmp(factory: Any) -> Path:
    """The directory builds are shared in: the pytest base temp directory, or under xdist
    (where every worker has its own) their parent, shared by the run."""
    base: Path = factory.getbasetemp()
    return base.parent if base.name.startswith("popen-gw") else base


def build_once(example: str, shared_tmp: Path) -> Built:
    shared_tmp.mkdir(parents=True, exist_ok=True)
    root = shared_tmp / f"e2e-{example}"
    marker = shared_tmp / f"e2e-{example}.json"
    with open(shared_tmp / f"e2e-{example}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if marker.exists():
            return Built(
                **{k: Path(v) if k in ("root", "binary") else v for k, v in json.loads(marker.read_text()).items()}
            )
        make_project(example, root)
        generate(root)
        fmt = subprocess.run(["gofmt", "-l", "."], cwd=root, capture_output=True, text=True, check=False).stdout
        overlay_logic(example, root)
        vet = run(["go", "vet", "./..."], root).stdout
        binary = root / "bin" / example
        run(["go", "build", "-o", str(binary), "."], root)
        if (root / "internal/e2eclient").is_dir():  # the Go client of the gRPC tests
            run(["go", "test", "-c", "-o", str(root / "bin" / "e2eclient"), "./internal/e2eclient"], root)
        if (root / "internal/e2ehttp").is_dir():  # the tests of the generated HTTP client (output.client)
            run(["go", "test", "-c", "-o", str(root / "bin" / "e2ehttp"), "./internal/e2ehttp"], root)
        built = Built(root, binary, fmt, vet)
        marker.write_text(json.dumps({"root": str(root), "binary": str(binary), "gofmt": fmt, "vet": vet}))
        return built


TEST_CONFIG = """\
server:
  addr: "127.0.0.1:0"
  strictJSON: true
grpc:
  addr: "127.0.0.1:0"
  reflection: true
logging:
  level: error
serviceName: e2e
otel:
  enabled: false
metrics:
  enabled: false
  adminAddr: ""
docs:
  enabled: true
  ui: redoc
  path: /docs
  specPath: /openapi.yaml
"""


@dataclass
class Service:
    base: str  # http://host:port of the HTTP listener ("" for a gRPC-only service)
    proc: subprocess.Popen[str]
    log: Path
    grpc: str = ""  # host:port of the gRPC listener, when the service has one

    def mark(self) -> int:
        """The current end of the service's output (stdout and stderr), for log_since."""
        return self.log.stat().st_size

    def log_since(self, mark: int) -> list[dict[str, Any]]:
        """The structured (JSON) log lines the service wrote after mark."""
        with open(self.log, "rb") as f:
            f.seek(mark)
            text = f.read().decode(errors="replace")
        lines = []
        for line in text.splitlines():
            if line.startswith("{"):
                try:
                    lines.append(json.loads(line))
                except ValueError:  # a line still being written
                    pass
        return lines

    def wait_log(self, mark: int, match: Any, timeout: float = 5) -> dict[str, Any]:
        """The first JSON log line after mark for which match(line) holds, waiting for it."""
        deadline = time.monotonic() + timeout
        while True:
            for line in self.log_since(mark):
                if match(line):
                    return line
            if time.monotonic() > deadline:
                raise AssertionError(f"no matching log line after {mark}:\n{self.log_since(mark)}")
            time.sleep(0.02)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def start(built: Built, workdir: Path, config: str = TEST_CONFIG, env: dict[str, str] | None = None) -> Service:
    workdir.mkdir(parents=True, exist_ok=True)
    cfg = workdir / "config.yaml"
    cfg.write_text(config)
    log = workdir / "service.log"
    out = open(log, "w")  # noqa: SIM115 - kept open for the process's lifetime
    proc = subprocess.Popen(
        [str(built.binary), "-config", str(cfg)],
        cwd=built.root,
        stdout=out,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, **(env or {})},
    )
    # config.go sits beside config.yaml, in the directory `output.config` names
    candidates = [built.root / "config" / "config.go", *sorted(built.root.glob("*/config.go"))]
    config_go = next(p for p in candidates if p.is_file()).read_text()
    wants = [s for s, key in (("http://", 'yaml:"server"'), ("grpc://", 'yaml:"grpc"')) if key in config_go]
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        text = log.read_text()
        found = {s: text.split(f"listening on {s}", 1)[1].split()[0] for s in wants if f"listening on {s}" in text}
        if len(found) == len(wants):
            base = "http://" + found["http://"] if "http://" in found else ""
            return Service(base, proc, log, found.get("grpc://", ""))
        if proc.poll() is not None:
            raise AssertionError(f"service exited with {proc.returncode}:\n{text}")
        time.sleep(0.05)
    proc.kill()
    raise AssertionError(f"service did not start:\n{log.read_text()}")


@dataclass
class Response:
    status: int
    headers: Any
    body: bytes
    cookies: list[str] = field(default_factory=list)

    @property
    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode()


def json_type(data: bytes | None, headers: dict[str, str] | None) -> dict[str, str]:
    """The headers, with `Content-Type: application/json` for a body that names no type (as a
    JSON client sends it; urllib would otherwise send a form type)."""
    out = dict(headers or {})
    if data is not None and not any(k.lower() == "content-type" for k in out):
        out["Content-Type"] = "application/json"
    return out


def request(
    base: str,
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
    raw: bytes | None = None,
    timeout: float = 10,
) -> Response:
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(base + path, data=data, method=method, headers=json_type(data, headers))
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return Response(resp.status, resp.headers, resp.read(), resp.headers.get_all("Set-Cookie") or [])
    except urllib.error.HTTPError as err:
        return Response(err.code, err.headers, err.read(), err.headers.get_all("Set-Cookie") or [])


def chunked(base: str, method: str, path: str, chunks: list[bytes], headers: dict[str, str] | None = None) -> Response:
    """A request whose body is sent with Transfer-Encoding: chunked (no Content-Length)."""
    url = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port, timeout=10)
    try:
        conn.request(method, path, body=iter(chunks), headers=json_type(b"x", headers), encode_chunked=True)
        resp = conn.getresponse()
        return Response(resp.status, resp.headers, resp.read(), resp.headers.get_all("Set-Cookie") or [])
    finally:
        conn.close()


def connect(base: str, timeout: float = 10) -> socket.socket:
    """A raw TCP connection to the service, for requests urllib cannot make."""
    url = urllib.parse.urlsplit(base)
    return socket.create_connection((url.hostname or "127.0.0.1", url.port or 80), timeout=timeout)


def multipart(fields: dict[str, str], files: list[tuple[str, str, str, bytes]]) -> tuple[bytes, str]:
    """A multipart/form-data body: text fields and (field, filename, content type, data) files."""
    boundary = "kit-e2e-boundary"
    parts: list[bytes] = []
    for name, value in fields.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    for name, filename, ctype, data in files:
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
            f"Content-Type: {ctype}\r\n\r\n"
        )
        parts.append(head.encode() + data + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"
