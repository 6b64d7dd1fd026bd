# Shared install steps for ./run, ./test and .ci/run. Sourced, not executed.

bootstrap_venv() {
  # $1: optional extra ("test") to install besides the runtime dependencies.
  local extra="${1:-}"
  local python="${PYTHON:-python3}"
  if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
  fi
  local stamp=".venv/.installed-${extra:-runtime}"
  if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    if [ -n "$extra" ]; then
      .venv/bin/python -m pip install --quiet -e ".[$extra]"
    else
      .venv/bin/python -m pip install --quiet -e .
    fi
    touch "$stamp"
  fi
}

bootstrap_chromium() {
  # Browser tests drive Debian's chromium; never a downloaded browser build.
  if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" = 0 ]; then
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    else
      echo "chromium is missing: run 'sudo apt-get install -y chromium'" >&2
      return 1
    fi
  fi
}

bootstrap_dovecot() {
  # The IMAP poller is tested against Debian's Dovecot: the tests start instances of their own
  # on free loopback ports with their own configuration (tests/mail/dovecot.py) and never use
  # the system service, whether or not the package started one.
  if [ ! -x /usr/sbin/dovecot ]; then
    if [ "$(id -u)" = 0 ]; then
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq dovecot-imapd >/dev/null
    else
      echo "dovecot is missing: run 'sudo apt-get install -y dovecot-imapd'" >&2
      return 1
    fi
  fi
}

bootstrap_postgres() {
  # The suite runs every database test on SQLite and again on PostgreSQL (127.0.0.1:5432, trust).
  if command -v pg_isready >/dev/null && ! pg_isready -q -h 127.0.0.1 -p 5432; then
    if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
      pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
      for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
    fi
  fi
}
