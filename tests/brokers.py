"""Real brokers for the events transports: a nats-server with JetStream and a one-node Kafka
in KRaft mode with share groups, each on free loopback ports, stopped by whoever started them.

    python3 tests/brokers.py serve nats kafka [--env-file F]

starts them, prints `KIT_NATS_URL=...` and `KIT_KAFKA_BROKERS=...` lines then `READY` (also
written to F), and stops them when its standard input closes or it is terminated.
`scripts/test` starts one of each for the whole run; the Go tests of the transport modules
and the end-to-end tests use the ones named in the environment and start their own otherwise.
The binaries come from scripts/test-tools/nats.sh and scripts/test-tools/kafka.sh.
"""

from __future__ import annotations

import base64
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

KAFKA_VERSION = "4.2.1"

LOG4J2 = """\
status = error
appender.console.type = Console
appender.console.name = console
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = warn
rootLogger.appenderRef.console.ref = console
logger.started.name = kafka.server.KafkaRaftServer
logger.started.level = info
"""


@dataclass
class Broker:
    name: str
    address: str
    proc: subprocess.Popen[bytes]
    workdir: Path
    log: Path
    extra: list[Path] = field(default_factory=list)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.workdir, ignore_errors=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for(log: Path, proc: subprocess.Popen[bytes], marker: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace") if log.exists() else ""
        if marker in text:
            return
        if proc.poll() is not None:
            raise RuntimeError(f"broker exited with {proc.returncode}:\n{text[-4000:]}")
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"broker not ready after {timeout}s:\n{log.read_text(errors='replace')[-4000:]}")


def nats_binary() -> str:
    found = shutil.which("nats-server")
    if found:
        return found
    gopath = subprocess.run(["go", "env", "GOPATH"], capture_output=True, text=True, check=False).stdout.strip()
    candidate = Path(gopath or Path.home() / "go") / "bin" / "nats-server"
    if candidate.is_file():
        return str(candidate)
    raise RuntimeError("nats-server not found: run scripts/test-tools/nats.sh")


def start_nats() -> Broker:
    work = Path(tempfile.mkdtemp(prefix="kit-nats-"))
    port = free_port()
    cmd = [nats_binary(), "-js", "-a", "127.0.0.1", "-p", str(port), "-sd", str(work / "store")]
    return _launch("nats", f"nats://127.0.0.1:{port}", cmd, work, "Server is ready", 20)


def _launch(name: str, address: str, cmd: list[str], work: Path, ready: str, timeout: float) -> Broker:
    """Start cmd (its output in work/<name>.log) and wait for the ready line."""
    log = work / f"{name}.log"
    out = open(log, "wb")  # noqa: SIM115 - the broker writes to it while it runs
    proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    broker = Broker(name, address, proc, work, log)
    try:
        _wait_for(log, proc, ready, timeout)
    except BaseException:
        broker.stop()
        raise
    return broker


def kafka_home() -> Path:
    return Path(os.environ.get("KIT_KAFKA_HOME") or Path.home() / ".cache" / "kit" / f"kafka-{KAFKA_VERSION}")


def start_kafka() -> Broker:
    libs = kafka_home() / "libs"
    if not (libs / f"kafka_2.13-{KAFKA_VERSION}.jar").is_file():
        raise RuntimeError(f"Kafka jars not found in {libs}: run scripts/test-tools/kafka.sh")
    work = Path(tempfile.mkdtemp(prefix="kit-kafka-"))
    port, controller = free_port(), free_port()
    props = work / "server.properties"
    props.write_text(_kafka_properties(work, port, controller))
    (work / "log4j2.properties").write_text(LOG4J2)
    java = ["java", f"-Dlog4j2.configurationFile={work / 'log4j2.properties'}", "-cp", f"{libs}/*"]
    cluster = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
    fmt = [*java, "kafka.tools.StorageTool", "format", "-t", cluster, "-c", str(props), "--feature", "share.version=1"]
    done = subprocess.run(fmt, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        shutil.rmtree(work, ignore_errors=True)
        raise RuntimeError(f"kafka storage format failed:\n{done.stdout}\n{done.stderr}")
    heap = ["-Xms256m", "-Xmx1g", "-XX:+UseSerialGC"]
    cmd = [java[0], *heap, *java[1:], "kafka.Kafka", str(props)]
    return _launch("kafka", f"127.0.0.1:{port}", cmd, work, "Kafka Server started", 120)


def _kafka_properties(work: Path, port: int, controller: int) -> str:
    settings = {
        "process.roles": "broker,controller",
        "node.id": "1",
        "controller.quorum.voters": f"1@127.0.0.1:{controller}",
        "listeners": f"PLAINTEXT://127.0.0.1:{port},CONTROLLER://127.0.0.1:{controller}",
        "advertised.listeners": f"PLAINTEXT://127.0.0.1:{port}",
        "controller.listener.names": "CONTROLLER",
        "inter.broker.listener.name": "PLAINTEXT",
        "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
        "log.dirs": str(work / "data"),
        "num.partitions": "4",
        "auto.create.topics.enable": "true",
        "offsets.topic.replication.factor": "1",
        "offsets.topic.num.partitions": "4",
        "transaction.state.log.replication.factor": "1",
        "transaction.state.log.min.isr": "1",
        "share.coordinator.state.topic.replication.factor": "1",
        "share.coordinator.state.topic.min.isr": "1",
        "group.initial.rebalance.delay.ms": "0",
        "group.share.min.record.lock.duration.ms": "1000",
        "group.coordinator.rebalance.protocols": "classic,consumer,share",
        "log.flush.interval.messages": "1000000",
    }
    return "".join(f"{k}={v}\n" for k, v in settings.items())


STARTERS = {"nats": (start_nats, "KIT_NATS_URL"), "kafka": (start_kafka, "KIT_KAFKA_BROKERS")}


def _stop_at_eof(stop: threading.Event) -> None:
    sys.stdin.read()
    stop.set()


def serve(names: list[str], env_file: Path | None) -> int:
    brokers: list[Broker] = []
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    try:
        lines = []
        for name in names:
            start, var = STARTERS[name]
            broker = start()
            brokers.append(broker)
            lines.append(f"{var}={broker.address}")
        text = "\n".join([*lines, "READY"]) + "\n"
        if env_file:
            env_file.write_text(text)
        sys.stdout.write(text)
        sys.stdout.flush()
        threading.Thread(target=_stop_at_eof, args=(stop,), daemon=True).start()
        while not stop.wait(0.5):
            if any(b.proc.poll() is not None for b in brokers):
                sys.stderr.write("brokers: a broker exited\n")
                return 1
        return 0
    finally:
        for b in brokers:
            b.stop()


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] != "serve":
        sys.stderr.write(__doc__ or "")
        return 2
    names, env_file = [], None
    args = iter(argv[1:])
    for a in args:
        if a == "--env-file":
            env_file = Path(next(args))
        elif a in STARTERS:
            names.append(a)
        else:
            sys.stderr.write(f"brokers: unknown broker {a!r}\n")
            return 2
    return serve(names, env_file)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
