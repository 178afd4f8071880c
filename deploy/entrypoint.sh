#!/bin/sh
# The container's entrypoint (deploy/Dockerfile): with no command, serves the campaign in the
# volume (/data/campaign: one campaign, or a folder of them); with one, runs it there:
#   a cok command:  docker run --rm -v cok-data:/data cok invite tim --url https://club.example/cok
#   git, cp, sh:    docker run --rm -v cok-data:/data cok git clone URL /data/campaign
# On an empty volume it says how to put a campaign in it, and exits 1.
# Settings (docker run -e): COK_PROXY (trusted for forwarded headers), COK_PUBLIC_URL, COK_ROOT_PATH
# (default /cok), COK_PORT (default 8000), COK_HOST (default 0.0.0.0: the published port is the boundary).
set -eu
DATA="${COK_VOLUME:-/data}"
CAMPAIGN="${COK_CAMPAIGN:-$DATA/campaign}"
export COK_CAMPAIGN="$CAMPAIGN" COK_DATA_DIR="${COK_DATA_DIR:-$DATA/cok-data}"

empty() {
	cat >&2 <<SAID
cok: no campaign in the volume yet ($CAMPAIGN holds no campaign.yaml, nor folders with one).
Put one there, then start the container again. With the volume cok-data:
  a new campaign, and its players joined at the terminal (or from their phones, once served):
    docker run --rm -v cok-data:/data cok init $CAMPAIGN --name "Our season"
    docker run --rm -v cok-data:/data cok join tim --faction stark
  your campaign's git repository:
    docker run --rm -v cok-data:/data cok git clone https://example.org/club/campaign.git $CAMPAIGN
  a campaign folder on this machine:
    docker run --rm -v cok-data:/data -v "\$PWD/campaign:/in:ro" cok cp -r /in $CAMPAIGN
Then make each player's link (kept in the volume, under $COK_DATA_DIR):
    docker run --rm -v cok-data:/data cok invite tim --url https://club.example/cok
  or, once the container runs: docker exec cok cok invite tim --url https://club.example/cok
SAID
}

case "${1:-serve}" in
serve)
	[ "$#" -gt 0 ] && shift
	if [ ! -f "$CAMPAIGN/campaign.yaml" ] && ! ls "$CAMPAIGN"/*/campaign.yaml >/dev/null 2>&1; then
		empty
		exit 1
	fi
	set -- --host "${COK_HOST:-0.0.0.0}" --port "${COK_PORT:-8000}" --root-path "${COK_ROOT_PATH-/cok}" \
		--forwarded-allow-ips "${COK_PROXY:-127.0.0.1}" ${COK_PUBLIC_URL:+--public-url "$COK_PUBLIC_URL"} "$@"
	exec cok serve --campaign "$CAMPAIGN" "$@"
	;;
cok)
	shift
	exec cok "$@"
	;;
git | cp | sh | ls | cat | tar)
	exec "$@"
	;;
*)
	exec cok "$@"
	;;
esac
