"""A private Dovecot IMAP server for the poller's tests: Debian's ``dovecot-imapd``, started in the
foreground with a configuration of its own (nothing of ``/etc/dovecot`` is read, nothing of the
system's Dovecot is touched), on free loopback ports: plain IMAP and implicit TLS with a
self-signed certificate. One passwd-file user with a maildir in a temporary directory.

Run as root (CI), Dovecot drops privileges: logins run as ``dovenull``, its internal processes as
``dovecot`` (both created by the package) and the mail user as ``nobody``, so the directory is
made traversable for them. Run as anyone else, every one of those is the current user
(Dovecot's rootless mode).
"""

from __future__ import annotations

import grp
import imaplib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from imap_tools import MailBoxUnencrypted

DOVECOT = shutil.which("dovecot", path="/usr/sbin:/usr/bin:/sbin:/bin") or "/usr/sbin/dovecot"
DOVEADM = shutil.which("doveadm", path="/usr/bin:/usr/sbin:/bin:/sbin") or "/usr/bin/doveadm"
USER = "poller"
PASSWORD = "poller-secret"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Dovecot:
    """One Dovecot instance; :meth:`start` and :meth:`stop` may be called again (same ports)."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="corrmail-dovecot-"))
        # Dovecot's unprivileged processes must reach the sockets, the passwd file and the maildir.
        self.root.chmod(0o755)
        self.port = free_port()
        self.tls_port = free_port()
        self.cert = self.root / "cert.pem"
        self.key = self.root / "key.pem"
        self.config = self.root / "dovecot.conf"
        self.log = self.root / "dovecot.log"
        self.process: subprocess.Popen[bytes] | None = None
        self._write_certificate()
        self._write_config()

    # -- set-up ---------------------------------------------------------------------------------

    def _write_certificate(self) -> None:
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
             "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
             "-keyout", str(self.key), "-out", str(self.cert)],
            check=True, capture_output=True,
        )
        self.cert.chmod(0o644)

    def _write_config(self) -> None:
        if os.geteuid() == 0:
            login_user, internal_user, internal_group = "dovenull", "dovecot", "dovecot"
            mail_user = pwd.getpwnam("nobody")
        else:
            mail_user = pwd.getpwuid(os.geteuid())
            login_user = internal_user = mail_user.pw_name
            internal_group = grp.getgrgid(os.getegid()).gr_name
        home = self.root / "home"
        home.mkdir()
        for directory in (self.root / "run", self.root / "state"):
            directory.mkdir()
        if os.geteuid() == 0:
            os.chown(home, mail_user.pw_uid, mail_user.pw_gid)
        passwd = self.root / "passwd"
        passwd.write_text(
            f"{USER}:{{PLAIN}}{PASSWORD}:{mail_user.pw_uid}:{mail_user.pw_gid}::{home}\n"
        )
        passwd.chmod(0o644)  # the auth process runs as the internal user
        self.config.write_text(f"""\
# corrmail tests: a private instance, nothing read from /etc/dovecot
base_dir = {self.root}/run
state_dir = {self.root}/state
instance_name = corrmail-test-{self.root.name}
log_path = {self.log}
protocols = imap
listen = 127.0.0.1
default_login_user = {login_user}
default_internal_user = {internal_user}
default_internal_group = {internal_group}
first_valid_uid = 1
last_valid_uid = 0
mail_location = maildir:~/Maildir
# Plain-text LOGIN over the loopback listener is what the unencrypted settings test.
disable_plaintext_auth = no
auth_mechanisms = plain login
# A refused login is answered at once (the default waits 2 s against password guessing).
auth_failure_delay = 0
ssl = yes
ssl_cert = <{self.cert}
ssl_key = <{self.key}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN {passwd}
}}
userdb {{
  driver = passwd-file
  args = {passwd}
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {self.port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {self.tls_port}
    ssl = yes
  }}
  chroot =
}}
service anvil {{
  chroot =
  # No auth penalty (the next login from an address that failed one waits 2 s and more): the
  # tests refuse a login on purpose, then log in again at once.
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
""")

    # -- running --------------------------------------------------------------------------------

    def start(self) -> None:
        assert self.process is None, "already running"
        self.process = subprocess.Popen(
            [DOVECOT, "-F", "-c", str(self.config)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                stderr = self.process.stderr.read().decode() if self.process.stderr else ""
                self.process = None
                raise RuntimeError(f"dovecot exited: {stderr}\n{self.log_text()}")
            try:
                with imaplib.IMAP4("127.0.0.1", self.port, timeout=5) as probe:
                    probe.noop()
                return
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"dovecot did not answer on {self.port}\n{self.log_text()}") from None
                time.sleep(0.05)

    def stop(self) -> None:
        """The server goes away: SIGTERM to its whole process group, not only the master.

        Dovecot's master leaves its children (a logged-in client's ``imap`` process among
        them) running for a while when it is terminated; a server that "goes away" must drop
        the connection there and then. The group is the master's own (``start_new_session``),
        so nothing else is signalled.
        """
        if self.process is None:
            return
        group = self.process.pid
        try:
            os.killpg(group, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(group, signal.SIGKILL)
            self.process.wait(timeout=20)
        if self.process.stderr:
            self.process.stderr.close()
        self.process = None
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                os.killpg(group, 0)
            except ProcessLookupError:
                return  # every process of the group has exited: the ports are free again
            time.sleep(0.05)
        os.killpg(group, signal.SIGKILL)

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    # -- the mailbox, as another client (the players' provider) sees it -------------------------

    def client(self) -> imaplib.IMAP4:
        client = imaplib.IMAP4("127.0.0.1", self.port, timeout=10)
        client.login(USER, PASSWORD)
        return client

    def create_folder(self, folder: str) -> None:
        with self.client() as client:
            status, data = client.create(folder)
            assert status == "OK", data

    def append(self, folder: str, raw: bytes) -> None:
        with self.client() as client:
            status, data = client.append(folder, None, None, raw)
            assert status == "OK", data

    def status(self, folder: str) -> dict[str, int]:
        """``UIDVALIDITY``, ``UIDNEXT``, ``MESSAGES``, ``UNSEEN`` of a folder."""
        with MailBoxUnencrypted("127.0.0.1", self.port, timeout=10).login(
            USER, PASSWORD, initial_folder=None
        ) as box:
            return dict(box.folder.status(folder, ["UIDVALIDITY", "UIDNEXT", "MESSAGES", "UNSEEN"]))

    def renumber(self, folder: str, uidvalidity: int) -> None:
        """Give the folder a new UIDVALIDITY, as a server does after rebuilding its indexes."""
        subprocess.run(
            [DOVEADM, "-c", str(self.config), "mailbox", "update", "-u", USER,
             "--uid-validity", str(uidvalidity), folder],
            check=True, capture_output=True, timeout=60,
        )


def start_dovecot(attempts: int = 3) -> Dovecot:
    """A started instance; fresh ports on a retry, in case another process took one meanwhile."""
    for attempt in range(attempts):
        server = Dovecot()
        try:
            server.start()
            return server
        except RuntimeError:
            server.close()
            if attempt == attempts - 1:
                raise
    raise AssertionError("unreachable")
