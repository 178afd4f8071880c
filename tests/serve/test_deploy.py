"""The deployment files shipped in deploy/ (issue 38): their syntax checked by the tools that
read them (nginx, Caddy, systemd; each where installed: `apt-get install nginx-light caddy`),
and every `cok` command in them parsed by cok's own options, so none names one that is gone."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import typer

from cok.cli.serving import app
from tests.conftest import EXAMPLE
from tests.serve.process import answering, free_port
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
    assert "COK_PROXY=172.17.0.1" in image and 'ENTRYPOINT ["cok-entrypoint"]' in image
    entry = (DEPLOY / "entrypoint.sh").read_text(encoding="utf-8")
    assert '--forwarded-allow-ips "${COK_PROXY:-127.0.0.1}"' in entry
    assert '--host "${COK_HOST:-0.0.0.0}"' in entry  # in a container, the published port is the boundary


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
    unit = tmp_path / "cok.service"  # its program must exist: /opt/cok is this venv, made as its comments say
    unit.write_text((DEPLOY / "cok.service").read_text(encoding="utf-8").replace("/opt/cok", sys.prefix))
    checked = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True)
    said = [line for line in checked.stderr.splitlines() if str(unit) in line]
    assert checked.returncode == 0 and not said, checked.stderr


# --- issue 47, item 7: each file works on a clean Debian 12 from its own comments -------------------


def _comment_commands(name: str, needle: str) -> list[str]:
    """The shell commands a deploy file's comments give (`#   command`) that hold `needle`."""
    text = (DEPLOY / name).read_text(encoding="utf-8")
    return [line[1:].strip() for line in text.splitlines() if line.startswith("#   ") and needle in line]


def test_item7_the_unit_runs_the_cok_its_comments_install_in_a_venv() -> None:
    unit = (DEPLOY / "cok.service").read_text(encoding="utf-8")
    start = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    assert start.startswith("ExecStart=/opt/cok/bin/cok serve ") and "/usr/local/bin/cok" not in unit
    installs = " ; ".join(_comment_commands("cok.service", "/opt/cok"))
    assert "python3 -m venv /opt/cok" in installs and "/opt/cok/bin/pip install" in installs
    assert "apt-get install python3-venv git openssl" in unit and "pipx" in unit  # why not a plain pip


def test_item7_the_units_campaign_and_links_made_from_its_comments_are_served(tmp_path: Path) -> None:
    """The unit's comments followed (the campaign made, put in git, the organiser's link made) with
    /var/lib/cok a folder of the test's and /opt/cok this venv; then its ExecStart serves it."""
    if shutil.which("git") is None:
        missing("git", "apt-get install git")
    home = tmp_path / "var-lib-cok"
    home.mkdir()

    def mapped(command: str) -> str:
        command = command.replace("sudo -u cok ", "").replace("/opt/cok", sys.prefix)
        return command.replace("/var/lib/cok", str(home))

    env = {**os.environ, "COK_DATA_DIR": str(home / "data"), "COK_CACHE_DIR": str(home / "cache")}
    for needle in ("cok init", "git -C", "invite --organiser"):
        for command in _comment_commands("cok.service", needle):
            done = subprocess.run(mapped(command), shell=True, capture_output=True, text=True, env=env)
            assert done.returncode == 0, (command, done.stderr)
            said = done.stdout
    link = re.search(r"https://club\.example/cok/join/(\S+)", said)
    assert link, said
    unit = (DEPLOY / "cok.service").read_text(encoding="utf-8")
    start = mapped(next(line for line in unit.splitlines() if line.startswith("ExecStart=")).split("=", 1)[1])
    port = free_port()
    process = subprocess.Popen(shlex.split(start.replace("--port 8000", f"--port {port}")), env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    try:
        answering(f"http://127.0.0.1:{port}/cok/api/standings", process)
        with httpx.Client() as phone:  # the proxy's address, as the proxy forwards it: the prefix kept
            signed = phone.get(f"http://127.0.0.1:{port}/cok/join/{link[1]}", follow_redirects=False)
            assert signed.status_code == 303 and signed.headers["location"] == "/cok/"
    finally:
        process.terminate()
        process.wait(10)


def _entrypoint(volume: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """The image's entrypoint, run as the image runs it, with `volume` standing for /data."""
    return subprocess.run(["sh", str(DEPLOY / "entrypoint.sh"), *args], capture_output=True, text=True,
                          env=_entry_env(volume, **env), timeout=120)  # fmt: skip


def _entry_env(volume: Path, **more: str) -> dict[str, str]:
    bin_dir = str(Path(sys.executable).parent)
    kept = {k: v for k, v in os.environ.items() if not k.startswith("COK_")}
    return {**kept, "PATH": f"{bin_dir}:{os.environ['PATH']}", "COK_VOLUME": str(volume),
            "COK_CACHE_DIR": str(volume / "cache"), **more}  # fmt: skip


def test_item7_the_container_on_an_empty_volume_says_how_to_put_a_campaign_and_links_in_it(tmp_path: Path) -> None:
    volume = tmp_path / "data"
    volume.mkdir()
    empty = _entrypoint(volume)
    assert empty.returncode == 1 and "Traceback" not in empty.stderr
    said = empty.stderr
    assert "no campaign in the volume yet" in said, said
    for shown in ("cok init", "git clone", "cp -r", "cok invite tim", "docker exec cok cok invite"):
        assert shown in said, shown
    assert list(volume.iterdir()) == []  # nothing written


def test_item7_the_container_serves_a_volume_filled_with_the_commands_it_gives(tmp_path: Path) -> None:
    volume = tmp_path / "data"
    volume.mkdir()
    said = _entrypoint(volume).stderr
    for line in said.splitlines():  # each `docker run --rm -v cok-data:/data cok ARGS` shown, for a new campaign
        words = shlex.split(line.strip()) if line.strip().startswith("docker run --rm -v cok-data:/data cok ") else []
        if words and words[6] in ("init", "join"):
            done = _entrypoint(volume, *words[6:])
            assert done.returncode == 0, (line, done.stderr)
    invited = _entrypoint(volume, "invite", "tim", "--url", "https://club.example/cok")
    link = re.search(r"https://club\.example/cok/join/(\S+)", invited.stdout)
    assert invited.returncode == 0 and link, invited.stderr
    assert (volume / "campaign" / "campaign.yaml").is_file() and list((volume / "cok-data").rglob("*.json"))
    port = free_port()
    process = subprocess.Popen(["sh", str(DEPLOY / "entrypoint.sh")], text=True, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=_entry_env(volume, COK_HOST="127.0.0.1",
                                                                      COK_PORT=str(port)))  # fmt: skip
    try:
        answering(f"http://127.0.0.1:{port}/cok/api/standings", process)
        signed = httpx.get(f"http://127.0.0.1:{port}/cok/join/{link[1]}", follow_redirects=False)
        assert signed.status_code == 303  # tim's link, made in the volume, signs in
    finally:
        process.terminate()
        process.wait(10)


def test_item7_the_container_copies_a_campaign_folder_into_its_volume_as_it_says(tmp_path: Path) -> None:
    volume = tmp_path / "data"
    volume.mkdir()
    copied = _entrypoint(volume, "cp", "-r", str(EXAMPLE), str(volume / "campaign"))
    assert copied.returncode == 0, copied.stderr
    checked = _entrypoint(volume, "check")  # a cok command finds the volume's campaign
    assert checked.returncode == 0, checked.stderr


def test_item7_the_readmes_caddy_block_is_the_shipped_caddyfiles(tmp_path: Path) -> None:
    readme = (DEPLOY.parent / "README.md").read_text(encoding="utf-8")
    block = readme.split("with Caddy", 1)[1].split("```", 2)[1].strip()
    shipped = "\n".join(
        line
        for line in (DEPLOY / "Caddyfile").read_text(encoding="utf-8").splitlines()
        if not line.strip().startswith("#")
    ).strip()
    assert block == shipped and "handle_path" not in block
    caddy = shutil.which("caddy")
    if caddy is None:
        missing("caddy", "apt-get install caddy")
    (tmp_path / "Caddyfile").write_text(block + "\n")
    adapted = subprocess.run([caddy, "adapt", "--config", str(tmp_path / "Caddyfile")], capture_output=True, text=True)
    assert adapted.returncode == 0, adapted.stderr
