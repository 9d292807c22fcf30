"""The reverse proxy's example configuration in docs/web.md ("Behind a reverse proxy",
issue 36 item 9) is one nginx accepts: ``nginx -t`` on it, inside a minimal ``http {}``
block, with a throw-away certificate in place of Let's Encrypt's. Skipped, saying why,
without nginx (``scripts/system-deps.sh`` installs Debian's ``nginx-light``; it needs
root) or openssl."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "web.md"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists()
                                  else None)
OPENSSL = shutil.which("openssl")

pytestmark = pytest.mark.skipif(
    NGINX is None or OPENSSL is None,
    reason="needs nginx and openssl (scripts/system-deps.sh installs nginx-light, as root)")


def example() -> str:
    """The ```nginx block of docs/web.md."""
    found = re.search(r"```nginx\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert found, "docs/web.md has no nginx example"
    return found.group(1)


def test_the_documented_nginx_example_passes_nginx_t(tmp_path: Path) -> None:
    """Issue 36 item 9: the example, as documented, is valid nginx configuration, and it
    carries what the proxy must do: per-client connection and request limits, the
    slow-client timeouts, the client's own address as the forwarded one, WebSockets."""
    text = example()
    for directive in ("limit_conn ", "limit_req ", "client_header_timeout",
                      "client_body_timeout", "X-Forwarded-For $remote_addr",
                      "proxy_set_header Upgrade", "client_max_body_size"):
        assert directive in text, directive
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run([str(OPENSSL), "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days",
                    "1", "-subj", "/CN=camelot.example.org", "-keyout", str(key), "-out",
                    str(cert)], check=True, capture_output=True)
    text = text.replace("/etc/letsencrypt/live/camelot.example.org/fullchain.pem", str(cert))
    text = text.replace("/etc/letsencrypt/live/camelot.example.org/privkey.pem", str(key))
    temp = "\n".join(f"    {kind}_temp_path {tmp_path / kind};"
                     for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path / 'nginx.pid'};\nerror_log stderr;\nevents {{}}\nhttp {{\n"
        f"    access_log off;\n{temp}\n{text}\n}}\n", encoding="utf-8")
    checked = subprocess.run([str(NGINX), "-t", "-q", "-e", "stderr", "-p", str(tmp_path),
                              "-c", str(tmp_path / "nginx.conf")],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
