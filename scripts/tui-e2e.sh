#!/usr/bin/env bash
# tui-e2e.sh drives the real wopkit binary in a real terminal (tmux, 80x24):
#   (a) `wopkit edit` on a copy of a registry source pack.json: change one field, save, and check with
#       diff that exactly that line changed;
#   (b) `wopkit new`: create a mixed pack (one node, one agent with an eval suite, one tool manifest),
#       pack and sign it, then `wopkit verify` the result.
# Usage: scripts/tui-e2e.sh [WOPKIT_BINARY]   (builds ./cmd/wopkit when no binary is given)
# Env: FIXTURES (default: ../shared/fixtures beside the repository), E2E_ONLY=edit|new, E2E_KEEP=1 keeps the work dir.
# Exit: 0 pass, 1 a check failed, 3 a tool or fixture is missing.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
fixtures=${FIXTURES:-$repo/../shared/fixtures}
command -v tmux >/dev/null || { echo "tui-e2e: tmux is not installed" >&2; exit 3; }
[ -d "$fixtures/source-packs" ] || { echo "tui-e2e: fixtures not found at $fixtures" >&2; exit 3; }

work=$(mktemp -d "${TMPDIR:-/tmp}/wopkit-e2e.XXXXXX")
sock="wopkit-e2e-$$-0"
runs=0
cleanup() {
	tmux -L "$sock" kill-server 2>/dev/null || true
	if [ "${E2E_KEEP:-}" = 1 ]; then echo "tui-e2e: work dir kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

wopkit=${1:-}
if [ -z "$wopkit" ]; then
	wopkit=$work/wopkit
	(cd "$repo" && go build -o "$wopkit" ./cmd/wopkit)
fi
wopkit=$(cd "$(dirname "$wopkit")" && pwd)/$(basename "$wopkit")

fail() {
	echo "tui-e2e: FAIL: $*" >&2
	echo "---- screen ----" >&2
	tmux -L "$sock" capture-pane -p -t e2e >&2 2>/dev/null || true
	exit 1
}

# start CMD...: run a command in a fresh 80x24 session; the pane prints EXIT=<status> when it ends.
start() {
	tmux -L "$sock" kill-server 2>/dev/null || true
	runs=$((runs + 1))
	sock="wopkit-e2e-$$-$runs" # a fresh server each time: no race with the one being killed
	tmux -L "$sock" -f /dev/null new-session -d -s e2e -x 80 -y 24 \
		"cd '$work' && $* ; echo EXIT=\$?; sleep 600"
}
keys() { tmux -L "$sock" send-keys -t e2e "$@"; }
type_text() { tmux -L "$sock" send-keys -t e2e -l "$1"; }
screen() { tmux -L "$sock" capture-pane -p -t e2e; }
# wait_for REGEX [SECONDS]: wait until the screen matches.
wait_for() {
	local re=$1 secs=${2:-10} i
	for ((i = 0; i < secs * 20; i++)); do
		if screen | grep -Eq -- "$re"; then return 0; fi
		sleep 0.05
	done
	fail "timed out waiting for /$re/"
}

e2e_edit() {
	echo "tui-e2e: edit"
	local src=$fixtures/source-packs/core.openwop.agents.react
	cp -R "$src" "$work/react"
	chmod -R u+w "$work/react"
	start "'$wopkit' edit react/pack.json"
	wait_for 'Problems: [0-9]+ errors'
	keys /
	wait_for '^find:'
	type_text version
	keys Enter
	wait_for '^> +version: "1\.0\.3"'
	keys Enter
	wait_for '^version: 1\.0\.3'
	keys C-u
	type_text 1.0.4
	wait_for '^ok'
	keys Enter
	wait_for 'modified'
	keys C-s
	wait_for 'saved'
	keys q
	wait_for '^EXIT=0'
	local d
	d=$(diff "$src/pack.json" "$work/react/pack.json" || true)
	[ "$d" = $'3c3\n<   "version": "1.0.3",\n---\n>   "version": "1.0.4",' ] || fail "diff is not exactly the version line:
$d"
	# undo and the quit prompt: change, undo, change again, quit without saving
	start "'$wopkit' edit react"
	wait_for 'Problems: '
	keys /
	type_text /license
	keys Enter
	wait_for '^> +license:'
	keys Enter
	keys C-u
	type_text MIT
	keys Enter
	wait_for 'modified'
	keys q
	wait_for 'before quitting'
	keys n
	wait_for '^EXIT=0'
	d=$(diff "$src/pack.json" "$work/react/pack.json" | grep -c '^[<>]' || true)
	[ "$d" = 2 ] || fail "quitting without saving changed the file ($d lines differ)"
	echo "tui-e2e: edit ok"
}

# answer WAIT_REGEX TEXT: wait for a focused field, replace its value with TEXT, press enter.
answer() {
	wait_for "$1"
	keys C-u
	type_text "$2"
	keys Enter
}

# enter_until REGEX: press enter until the screen matches (after each enter, wait for the screen to
# change, so that no enter lands on the next page by accident).
enter_until() {
	local i j prev cur
	prev=$(screen)
	for ((i = 0; i < 80; i++)); do
		if grep -Eq -- "$1" <<<"$prev"; then return 0; fi
		keys Enter
		for ((j = 0; j < 40; j++)); do
			sleep 0.05
			cur=$(screen)
			[ "$cur" != "$prev" ] && break
		done
		prev=$cur
	done
	fail "enter did not reach /$1/"
}

e2e_new() {
	echo "tui-e2e: new"
	mkdir -p "$work/new"
	start "cd new && '$wopkit' new"
	wait_for 'What do you want to create'
	keys Enter # a pack with a node, an agent with an eval suite, and a tool manifest
	wait_for '^┃ Scope'
	keys Enter # community
	answer '^┃ Organisation' acme
	answer '^┃ Pack name' e2e-demo
	wait_for 'community\.acme\.e2e-demo'
	# every other answer keeps its default: enter until the sign page
	enter_until '^┃ Pack and sign now'
	keys Enter # v2 Ed25519 (the default)
	wait_for '^┃ Key$'
	keys Enter # a new key pair
	answer '^┃ Key file' e2e-key
	answer '^┃ Key id' e2e-1
	wait_for 'files will be written' 30
	screen | grep -q 'no problems' || fail "the review lists problems"
	keys Enter
	wait_for 'signed \(v2' 30
	screen | grep -q 'wopkit verify' || fail "the summary does not give the next commands"
	keys q
	wait_for '^EXIT=0'
	local n=$work/new tgz=$work/new/community.acme.e2e-demo-0.1.0.tgz
	[ -f "$tgz" ] || fail "no tarball at $tgz"
	[ "$(stat -c %a "$n/e2e-key.key")" = 600 ] || fail "private key is not mode 0600"
	"$wopkit" verify "$tgz" --key "$n/e2e-key.pub" || fail "wopkit verify refused the wizard's tarball"
	tar xzOf "$tgz" pack.json | grep -q '"signing":{"keyId":"e2e-1","scheme":"ed25519-canonical-json"}' ||
		fail "the wizard's tarball does not carry the v2 signing block"
	"$wopkit" validate --spec v2 "$tgz" || fail "the wizard's tarball is not a valid v2 pack"
	if command -v openssl >/dev/null 2>&1; then
		mkdir -p "$work/x" && tar xzf "$tgz" -C "$work/x" pack.json keys/pack.json.sig &&
			openssl pkeyutl -verify -pubin -inkey "$n/e2e-key.pub" -rawin -in "$work/x/pack.json" \
				-sigfile "$work/x/keys/pack.json.sig" >/dev/null || fail "openssl does not verify the wizard's v2 signature"
	fi
	"$wopkit" validate "$n/e2e-demo" "$n/e2e-demo/tools/my-tool.tool.json" ||
		fail "the written pack or tool manifest does not validate"
	local list
	list=$(tar tzf "$tgz")
	for f in pack.json keys/pack.json.sig evals/assistant.json prompts/assistant.md tools/my-tool.tool.json; do
		grep -qx "$f" <<<"$list" || fail "$f missing from the tarball: $list"
	done
	grep -q '"typeId": "community.acme.e2e-demo.hello"' "$n/e2e-demo/pack.json" || fail "no node in pack.json"
	grep -q '"agentId": "community.acme.e2e-demo.assistant"' "$n/e2e-demo/pack.json" || fail "no agent in pack.json"
	if tar xzOf "$tgz" pack.json | grep -q 'BEGIN PRIVATE'; then fail "a private key was packed"; fi
	echo "tui-e2e: new ok"
}

case "${E2E_ONLY:-}" in
edit) e2e_edit ;;
new) e2e_new ;;
*) e2e_edit; e2e_new ;;
esac
echo "tui-e2e: PASS"
