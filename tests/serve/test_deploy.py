"""The deployment files shipped in deploy/ (issue 38): their syntax checked by the tools that
read them (nginx, Caddy, systemd; each where installed: `apt-get install nginx-light caddy`),
and every `cok` command in them parsed by cok's own options, so none names one that is gone."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import typer

from cok.cli.serving import app
from tests.tools import missing

DEPLOY = Path(__file__).parents[2] / "deploy"
FILES = ["Caddyfile", "nginx-cok.conf", "cok.service", "Dockerfile"]


def _commands(text: str) -> list[list[str]]:
    """Every `cok serve` / `cok invite` command line a file holds (comments included)."""
    found = []
    for line in text.splitlines():
        line = line.replace('\\"$COK_PROXY\\"', "172.17.0.1")  # the Dockerfile's, as its shell expands it
        for match in re.finditer(r"\bcok ((?:serve|invite [\w-]+) --[^\"#]*)", line):
            found.append(shlex.split(match[1]))
    return found


def test_every_deploy_file_is_shipped_and_says_where_it_goes() -> None:
    for name in FILES:
        text = (DEPLOY / name).read_text(encoding="utf-8")
        assert re.search(r"(Goes in|build from)", text), name


def test_every_cok_command_in_the_deploy_files_parses_with_cok_s_options() -> None:
    group: Any = typer.main.get_command(app)
    seen = 0
    for name in FILES:
        for words in _commands((DEPLOY / name).read_text(encoding="utf-8")):
            command = group.commands[words[0]]
            command.make_context(words[0], words[1:])  # raises on an unknown option or a bad value
            seen += 1
    assert seen >= 5


def test_the_proxies_redirect_the_bare_prefix_and_keep_it_for_root_path() -> None:
    caddy = (DEPLOY / "Caddyfile").read_text(encoding="utf-8")
    assert "redir /cok /cok/" in caddy and "handle /cok/*" in caddy and "handle_path" not in caddy.split("#")[0]
    nginx = (DEPLOY / "nginx-cok.conf").read_text(encoding="utf-8")
    assert "location = /cok" in nginx and "return 308 /cok/" in nginx
    assert re.search(r"proxy_pass http://127\.0\.0\.1:8000;", nginx)  # no path after it: the prefix kept
    for text in (caddy, nginx):
        assert "--root-path /cok" in text


def test_the_service_and_the_image_keep_data_apart_and_trust_their_proxy() -> None:
    unit = (DEPLOY / "cok.service").read_text(encoding="utf-8")
    for key in ("User=cok", "Environment=COK_DATA_DIR=", "Restart=on-failure", "WantedBy=multi-user.target"):
        assert key in unit, key
    image = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    assert "VOLUME /data" in image and "COK_DATA_DIR=/data/" in image and "USER cok" in image
    assert '--forwarded-allow-ips \\"$COK_PROXY\\"' in image and "COK_PROXY=172.17.0.1" in image
    assert "--host 0.0.0.0" in image  # in a container, the published port is the boundary


def test_nginx_reads_the_shipped_config(tmp_path: Path) -> None:
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)
    if nginx is None:
        missing("nginx", "apt-get install nginx-light")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-days", "1", "-subj", "/CN=club.example", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    site = (DEPLOY / "nginx-cok.conf").read_text(encoding="utf-8")
    site = site.replace("/etc/letsencrypt/live/club.example/fullchain.pem", str(cert))
    site = site.replace("/etc/letsencrypt/live/club.example/privkey.pem", str(key))
    (tmp_path / "cok.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\naccess_log off;\nclient_body_temp_path {tmp_path};\ninclude {tmp_path}/cok.conf;\n}}\n"
    )
    checked = subprocess.run(
        [nginx, "-t", "-c", str(tmp_path / "nginx.conf"), "-p", str(tmp_path)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr


def test_caddy_reads_the_shipped_caddyfile() -> None:
    caddy = shutil.which("caddy")
    if caddy is None:
        missing("caddy", "apt-get install caddy")
    adapted = subprocess.run(
        [caddy, "adapt", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"],
        capture_output=True,
        text=True,
    )
    assert adapted.returncode == 0 and '"reverse_proxy"' in adapted.stdout, adapted.stderr


def test_systemd_reads_the_shipped_unit(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        missing("systemd-analyze", "apt-get install systemd")
    unit = tmp_path / "cok.service"  # its program must exist to be verified: /bin/true stands in
    unit.write_text((DEPLOY / "cok.service").read_text(encoding="utf-8").replace("/usr/local/bin/cok", "/bin/true"))
    checked = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True)
    said = [line for line in checked.stderr.splitlines() if str(unit) in line]
    assert checked.returncode == 0 and not said, checked.stderr
