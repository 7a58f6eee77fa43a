#!/usr/bin/env bash
# tui-e2e.sh drives the real wopkit binary in a real terminal (tmux, 80x24 unless said):
#   (a) `wopkit edit` on a copy of a registry source pack.json: change one field, save, and check with
#       diff that exactly that line changed;
#   (b) `wopkit new`: create a mixed pack (one node, one agent with an eval suite, one tool manifest),
#       pack and sign it with a new key, then `wopkit verify` the result; then again in the same folder:
#       the key the folder holds is the default, the review lists three problems (the folder, the signed
#       release already there, a kill switch the schema refuses) before anything is written, each fixed
#       from the review, then back from the review and forward again; the release made before is left
#       as it was and the new one verifies with the same public key;
#   (c) `wopkit new tool` with NO_COLOR=1: three environment variables (the one named like an API key
#       offered as a secret, its prompt naming it), two scopes, two actions, the action-call smoke test,
#       back across sections with shift+tab;
#   (c3) `wopkit new` with every default in a git checkout (the README's first command): the new
#       private key goes to the user's config folder, not into the checkout, as the review and the
#       summary say; git status lists no key;
#   (c2) a workflow-chain pack (a chain of two steps), packed and signed;
#   (c4) `new pack --set kind=connection`: the connection's pages (provider, sign-in, scope groups, reach)
#       to a signed tarball (E2E_ONLY=connection; in the default run, beside the sizes runs);
#   (d) a draft kept with esc (exit 0) and resumed on the page it was left on; accessible mode offering
#       a draft: from a pipe it starts afresh and keeps the draft as it is, on a terminal y resumes it;
#   (e) `wopkit new tool --accessible` fed from a pipe;
#   (f) exit status: a write that fails after the review, then quit (exit 3, draft kept, nothing
#       written); accessible mode fed a pipe that ends early (exit 1);
#   (g) (b) again at 60x20 and at 120x40;
#   (h) issue 17's choices and suggestions, with NO_COLOR=1 at 80x24, 60x20 and 120x40: an artifact type's
#       required properties offered from the properties typed (not the suggested ones), space not ticking,
#       x ticking; a card's two-line template suggestion shown whole, marked "(suggested)", taken into the
#       field with → and edited; a tool action's "Scopes it uses" listing both scopes, x ticking one, the
#       field showing what is ticked once left.
#   (i) issue 17: accessible mode from a pipe with a refused answer (exit 1); Sigstore keyless with no
#       network, fixed from the review, n to "Keep a draft?" (E2E_ONLY=offline).
#   (j) issue 25: an encrypted key's passphrase asked on the sign page, and a read-only folder refused at
#       the review with its draft kept in wopkit's state folder and resumed (E2E_ONLY=secrets, 80x24).
#   (k) issue 35: at 40x10 and 60x20, "more below ↓" on a page taller than the screen, a choice's options
#       and "esc quit" on the screen, no token wrapped inside (E2E_ONLY=small); (b) checks the review's
#       and the summary's whole paths, the summary left on the terminal after exit, and its next steps
#       run as printed.
# Every wizard screen waited on is checked for what a small terminal cuts off (check_layout): no line
# wider than the terminal, the key help whole on the last line, the focused field, the selected problem.
# Every run ends with `wopkit validate --strict` of the files (and `wopkit verify` of a signed tarball),
# and checks the process's exit status.
# Usage: scripts/tui-e2e.sh [WOPKIT_BINARY]   (builds ./cmd/wopkit when no binary is given)
# Env: FIXTURES (default: ../shared/fixtures beside the repository),
#      E2E_ONLY=edit|new|chain|connection|tool|git|resume|pipe|exit|sizes|choices|offline|words|contract|secrets|small, E2E_SIZES (the sizes
#      sizes, choices and words run at; by default 60x20 120x40, 80x24 60x20 120x40 and 80x24 60x20), E2E_KEEP=1 keeps
#      the work dir.
# Exit: 0 pass, 1 a check failed, 3 a tool or fixture is missing.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
fixtures=${FIXTURES:-$repo/../shared/fixtures}
command -v tmux >/dev/null || { echo "tui-e2e: tmux is not installed" >&2; exit 3; }
[ -d "$fixtures/source-packs" ] || { echo "tui-e2e: fixtures not found at $fixtures" >&2; exit 3; }

work=$(mktemp -d "${TMPDIR:-/tmp}/wopkit-e2e.XXXXXX")
export XDG_STATE_HOME=$work/state # wopkit's own state (drafts), out of the folders the runs write
# draft_of DIR: the file wopkit keeps DIR's wizard draft in (a hash of DIR's real path, docs/SECURITY.md).
draft_of() { echo "$XDG_STATE_HOME/wopkit/drafts/$(printf %s "$(realpath "$1")" | sha256sum | cut -c1-32).json"; }
sock="wopkit-e2e-$$-0"
sizes_pid= # the runs at other sizes, in the background beside the 80x24 ones
runs=0
cleanup() {
	if [ -n "$sizes_pid" ]; then kill "$sizes_pid" 2>/dev/null && wait "$sizes_pid" 2>/dev/null; fi
	tmux -L "$sock" kill-server 2>/dev/null || true
	ctl_close
	if [ "${E2E_KEEP:-}" = 1 ]; then echo "tui-e2e: work dir kept: $work"; else rm -rf "$work"; fi
	if [ -n "$nobody_dir" ]; then rm -rf "$nobody_dir"; fi
}
layout_why= # what check_layout found cut off
nobody_dir= # e2e_secrets' folder for the run as another user (root only)
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

# strict_valid PATH...: `wopkit validate --strict`, whose only problems may be the placeholders the wizard
# writes for the author to replace when a run keeps the suggestions (PH001; cmd/wopkit
# TestNewStrictNamesPlaceholders checks that --strict names them).
strict_valid() {
	local out
	out=$("$wopkit" validate --strict "$@" 2>&1) && return 0
	if grep -q ' 0 error(s)' <<<"$out" && ! grep -E '^\S.*:[0-9]+:[0-9]+: .*\[[A-Za-z0-9/_-]+\]$' <<<"$out" | grep -qv 'warning: .*\[PH001\]$'; then
		return 0
	fi
	echo "$out" >&2
	return 1
}

cols=80 rows=24 nd=new # the terminal size of the runs, and the folder of the mixed packs (see at_size)

# start CMD...: run a command in a fresh cols x rows session; the pane prints EXIT=<status> when it ends.
# HOME is the work dir: the review and the summary name paths whole, ~/… under it (issue 35, item 3).
start() {
	tmux -L "$sock" kill-server 2>/dev/null || true
	ctl_close
	layout_ok=
	runs=$((runs + 1))
	sock="wopkit-e2e-$BASHPID-$runs" # a fresh server each time: no race with the one being killed
	tmux -L "$sock" -f /dev/null new-session -d -s e2e -x "$cols" -y "$rows" \
		"cd '$work' && export XDG_STATE_HOME='$XDG_STATE_HOME' HOME='$work' && $* ; echo EXIT=\$?; sleep 600"
	ctl_open
}

# The run's tmux server is talked to through one control-mode client (tmux -C), attached to a silent
# session of its own ("ctl"), not by starting a tmux client for each look and key: the waits look
# thousands of times a run, and a process each time (a subshell, then tmux) took most of the CPU the
# lanes share. Its answers go to a file, not a pipe: bash reads a pipe a byte at a time (a system call
# for each), a file a buffer at a time. ctl_run CMD sends one tmux command and reads its answer into
# ctl_lines.
ctl_in= ctl_out= ctl_pid= ctl_lines=()
ctl_open() {
	tmux -L "$sock" new-session -d -s ctl -x 20 -y 5 'sleep 600'
	local out=$work/ctl-$BASHPID-$runs.out
	: >"$out"
	exec {ctl_in}> >(exec tmux -L "$sock" -C attach-session -t ctl >>"$out" 2>/dev/null)
	ctl_pid=$!
	exec {ctl_out}<"$out"
}
ctl_close() {
	[ -n "$ctl_pid" ] || return 0
	exec {ctl_in}>&- {ctl_out}<&-
	kill "$ctl_pid" 2>/dev/null || true
	ctl_pid=
}
# ctl_run CMD: the answer is the block "%begin TIME N 1" ... "%end TIME N 1" (or %error), 1 marking a
# command of this client; the lines outside a block, and the blocks marked 0 (tmux's own attach), are
# notifications, skipped. A read that meets the end of the file before tmux wrote the rest keeps what
# it read of the line and tries again.
ctl_run() {
	local l part= n= end=
	printf '%s\n' "$1" >&"$ctl_in"
	ctl_lines=()
	while :; do
		if ! IFS= read -r -u "$ctl_out" l; then
			part+=$l
			if [ -z "$end" ]; then until_us end 20; elif ! before_us "$end"; then break; fi
			nap 0.002
			continue
		fi
		l=$part$l part=
		if [ -z "$n" ]; then
			if [[ $l =~ ^%begin\ [0-9]+\ ([0-9]+)\ 1$ ]]; then n=${BASH_REMATCH[1]}; fi
			continue
		fi
		if [[ $l == "%end "*" $n 1" || $l == "%error "*" $n 1" ]]; then return 0; fi
		ctl_lines+=("$l")
	done
	fail "tmux's control client did not answer '$1' within 20 s"
}
keys() { ctl_run "send-keys -t e2e $*"; }
# type_text TEXT: the text typed as it is (single-quoted for tmux's parser, a ' as '\''); a text with a
# control character (a newline would end the command) is sent by a tmux client of its own.
type_text() {
	if [[ $1 == *[[:cntrl:]]* ]]; then
		tmux -L "$sock" send-keys -t e2e -l "$1"
		return
	fi
	ctl_run "send-keys -t e2e -l '${1//\'/\'\\\'\'}'"
}
# screen: print the screen (for the checks that grep it: `screen | grep -q` stops reading at its first
# match, which must not fail the pipeline: the printing ignores SIGPIPE).
screen() {
	look
	(
		trap '' PIPE
		printf '%s\n' "$seen"
	) 2>/dev/null || true
}

# look [-J]: read the screen (-J: lines the terminal wrapped joined) into seen_lines and seen (its lines
# joined by newlines), in this shell, through the control client (see ctl_run).
look() {
	ctl_run "capture-pane -p ${1:-} -t e2e"
	seen_lines=("${ctl_lines[@]}")
	local IFS=$'\n'
	seen="${seen_lines[*]}"
}
seen= seen_lines=()
# look_after N: the pause before the next look at the screen, the N-th (from 0) of a wait: short at first,
# when a redraw is due, then every 100 ms (each look costs the script a few hundred commands: looking
# often takes the CPU the wopkit runs need, the more so the more lanes run side by side).
look_after() {
	local d=(0.015 0.025 0.04 0.06 0.08)
	nap "${d[$1]:-0.1}"
}
# nap SECONDS: sleep without starting a process (a read that times out on a pipe nobody writes): the waits
# nap thousands of times a run, and a process each time took a tenth of the CPU the lanes share.
exec {nap_fd}<> <(:)
nap() { read -rt "$1" -u "$nap_fd" || true; }
# matches REGEX: whether a line of the screen last looked at matches the extended regular expression
# (grep -E's), without starting a process.
matches() {
	local l
	for l in "${seen_lines[@]}"; do [[ $l =~ $1 ]] && return 0; done
	return 1
}
# until_us VAR SECONDS: set VAR to the time, in microseconds, SECONDS from now (a wait's deadline).
until_us() { printf -v "$1" '%s' $((${EPOCHREALTIME/./} + $2 * 1000000)); }
# before_us DEADLINE: whether the deadline is still ahead.
before_us() { ((${EPOCHREALTIME/./} < $1)); }

# wait_for REGEX [SECONDS]: wait until the screen matches, then check its layout.
wait_for() {
	local re=$1 end i
	until_us end "${2:-30}"
	for ((i = 0; ; i++)); do
		look
		if matches "$re"; then
			check_layout
			return 0
		fi
		before_us "$end" || break
		look_after "$i"
	done
	fail "timed out waiting for /$re/"
}

# as_read: set read_text to the screen's lines joined by spaces, each without its indent and border ("┃", ">") and its
# trailing blanks (a line wrapped by the UI then reads on into the next).
as_read() {
	local l out=""
	look
	for l in "${seen_lines[@]}"; do
		l=${l#"${l%%[!┃ >]*}"}
		out+="${l%"${l##*[! ]}"} "
	done
	read_text=$out
}
read_text=

# wait_text TEXT: wait until the screen holds TEXT, read as a person reads it: a line wrapped by the UI
# (its indent and border included) is joined to the next.
wait_text() {
	local i end
	until_us end 30
	for ((i = 0; ; i++)); do
		as_read
		if [[ $read_text == *"$1"* ]]; then return 0; fi
		before_us "$end" || break
		look_after "$i"
	done
	fail "timed out waiting for the text '$1'"
}

# check_layout: nothing the author needs is cut off at this size. On a wizard screen (its title on the
# first line): no line wider than the terminal (capture-pane -J joins the lines the terminal wrapped),
# the key help whole on the last line (it ends with quit), on a page of questions the focused field (huh
# marks it with ┃), and on a review with problems the selected one. A frame caught while it is drawn is
# looked at again before failing. (Plain bash: it runs after every key the runs wait on.)
check_layout() {
	local i
	# the screen last found whole, looked at again (enter_until and the waits look at the screen more
	# often than it changes): nothing to check
	[[ -n $layout_ok && $seen == "$layout_ok" ]] && return 0
	for ((i = 0; i < 5; i++)); do
		if ! layout_problem; then
			layout_ok=$seen
			return 0
		fi
		nap 0.1
	done
	fail "$layout_why (at ${cols}x$rows)"
}
layout_ok=

# layout_problem: set layout_why to what is cut off on the screen and return 0, or return 1 when nothing
# is (no subshell: it runs after every wait).
layout_problem() {
	local -a ls seen_lines
	local l last sel=0 field=0 problems=0 seen
	look -J
	ls=("${seen_lines[@]}")
	[[ ${ls[0]} == "wopkit new · "* ]] || return 1 # not the wizard's screen (a dialog, the shell after it)
	for l in "${ls[@]}"; do
		l=${l%"${l##*[! ]}"}
		((${#l} <= cols)) || { layout_why="a line is ${#l} columns wide: $l"; return 0; }
		[[ $l == "┃"* ]] && field=1
		[[ $l == "> "* ]] && sel=1
		[[ $l == *" the files from being written"* ]] && problems=1
	done
	((${#ls[@]} == rows)) || { layout_why="the key help is not on the last line"; return 0; }
	last=${ls[rows - 1]}
	last=${last%"${last##*[! ]}"}
	[[ $last == *"esc quit" || $last == *"q quit" ]] || { layout_why="the key help is cut: $last"; return 0; }
	[[ $last == "enter next"* && $field == 0 ]] && { layout_why="the focused field is not on the screen"; return 0; }
	[[ $problems == 1 && $sel == 0 ]] && { layout_why="the selected problem is not on the screen"; return 0; }
	return 1
}

e2e_edit() {
	echo "tui-e2e: edit"
	local src=$fixtures/source-packs/core.openwop.agents.react
	cp -R "$src" "$work/react"
	chmod -R u+w "$work/react"
	start "'$wopkit' edit react/pack.json"
	wait_for 'Problems: [0-9]+ errors?'
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

# write_from_review DONE: on a review with no problems, enter writes (and packs and signs); wait until the
# screen matches DONE, then q ends wopkit with status 0.
write_from_review() {
	screen | grep -q 'no problems' || fail "the review lists problems"
	keys Enter
	wait_for "$1" 30
	keys q
	wait_for '^EXIT=0'
}

# enter_until REGEX: press enter until the screen matches (after each enter, wait for the screen to
# change, so that no enter lands on the next page by accident).
enter_until() {
	local i j still prev cur end unfocused
	look
	prev=$seen
	for ((i = 0; i < 80; i++)); do
		if matches "$1"; then return 0; fi # seen_lines are prev's
		[ -n "${E2E_DEBUG:-}" ] && head -4 <<<"$prev" >&2
		keys Enter
		# every enter changes the screen; wait for it (and past "checking the files…"), so that no
		# enter lands on the next page by accident
		until_us end 20
		for ((j = 0; ; j++)); do
			look_after "$j"
			look
			[ "$seen" != "$prev" ] && [[ $seen != *'checking the files'* ]] && break
			before_us "$end" || break
		done
		cur=$seen
		# a loaded machine can show a frame half drawn, or one between two pages (huh moves the focus
		# and the wizard the page in steps, each drawn): wait until a field is focused again (a page of
		# questions marks it with ┃; a screen of another kind is given 1 s) and the screen holds still
		# for two looks 25 ms apart, so that the next enter is not sent past the page looked for
		until_us end 20
		until_us unfocused 1
		for ((still = 0; still < 2; )); do
			nap 0.025
			look
			if [ "$seen" = "$cur" ] && { [[ $seen == '┃'* || $seen == *$'\n┃'* || $seen == *$'\nEXIT='* ]] || ! before_us "$unfocused"; }; then
				still=$((still + 1))
			else
				still=0
			fi
			cur=$seen
			before_us "$end" || break
		done
		[ -n "${E2E_DEBUG:-}" ] && ! before_us "$unfocused" && echo "enter_until: no focused field for 1 s: $(head -1 <<<"$cur")" >&2
		[[ $cur == *$'\nEXIT='* || $cur == 'EXIT='* ]] && fail "wopkit ended before the screen showed /$1/"
		check_layout # it looks with seen and seen_lines of its own: these stay cur's
		prev=$cur
	done
	fail "enter did not reach /$1/"
}

e2e_new() {
	echo "tui-e2e: new (${cols}x$rows)"
	mkdir -p "$work/$nd"
	start "cd $nd && '$wopkit' new" # the review and the summary name the folder and the key whole, ~/… (see start)
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
	wait_for '^┃ New key passphrase' # issue 44, item 5: asked for a new key, as keygen asks
	keys Enter Enter             # empty, twice: the key unencrypted, which the review says
	wait_for 'will be written' 30
	screen | grep -q 'no problems' || fail "the review lists problems"
	wait_text "will be written in ~/$nd/e2e-demo: pack.json"
	wait_text "a new key pair: ~/$nd/e2e-key.key (keep it secret) and ~/$nd/e2e-key.pub"
	wait_text "unencrypted (no passphrase)"
	wait_text "packed to ~/$nd/community.acme.e2e-demo-0.1.0.tgz"
	keys Enter
	wait_for 'signed \(v2' 30
	screen | grep -q 'wopkit verify' || fail "the summary does not give the next commands"
	# the tarball's hash is one token, never wrapped at its hyphen (issue 35, item 7)
	screen | grep -Eq '\(sha256-[A-Za-z0-9+/]+=*\)' || fail "the summary wraps the tarball's hash"
	keys q
	wait_for '^EXIT=0'
	# the summary stays in the terminal once the full screen closes (issue 35, item 2), and its
	# next steps run as printed from the folder the author is in (item 3)
	local kept step
	kept=$(tmux -L "$sock" capture-pane -p -J -S -200 -t e2e)
	for want in "wrote 15 files in ~/$nd/e2e-demo: pack.json" "packed ~/$nd/community.acme.e2e-demo-0.1.0.tgz (sha256-" \
		"signed (v2, key id e2e-1)" "next:" "wopkit verify community.acme.e2e-demo-0.1.0.tgz --key e2e-key.pub" \
		"run the scaffolded tests with: cd e2e-demo && node --test"; do
		grep -qF -- "$want" <<<"$kept" || fail "the summary left on the terminal lacks '$want':
$kept"
	done
	if command -v node >/dev/null; then
		step=$(sed -n 's/^ *run the scaffolded tests with: //p' <<<"$kept" | head -1)
		local ran
		ran=$(cd "$work/$nd" && sh -c "$step" 2>&1) || fail "'$step' from the author's folder fails: $ran"
		grep -Eq '^# pass [1-9]' <<<"$ran" || fail "'$step' from the author's folder runs no test: $ran"
	fi
	local n=$work/$nd tgz=$work/$nd/community.acme.e2e-demo-0.1.0.tgz
	[ -f "$tgz" ] || fail "no tarball at $tgz"
	[ "$(stat -c %a "$n/e2e-key.key")" = 600 ] || fail "private key is not mode 0600"
	"$wopkit" verify "$tgz" --key "$n/e2e-key.pub" || fail "wopkit verify refused the wizard's tarball"
	tar xzOf "$tgz" pack.json | grep -q '"signing":{"keyId":"e2e-1","scheme":"ed25519-canonical-json"}' ||
		fail "the wizard's tarball does not carry the v2 signing block"
	"$wopkit" validate --spec v2 "$tgz" || fail "the wizard's tarball is not a valid v2 pack"
	if command -v openssl >/dev/null 2>&1; then
		mkdir -p "$work/x-$nd" && tar xzf "$tgz" -C "$work/x-$nd" pack.json keys/pack.json.sig &&
			openssl pkeyutl -verify -pubin -inkey "$n/e2e-key.pub" -rawin -in "$work/x-$nd/pack.json" \
				-sigfile "$work/x-$nd/keys/pack.json.sig" >/dev/null || fail "openssl does not verify the wizard's v2 signature"
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


# e2e_twice: a second mixed pack in the same folder, where the first one's folder and signed release
# (.tgz, .sig, .json) still are: the key the folder holds is the default (no new key), and the review
# lists three problems before anything is written (a kill switch chosen against the secret, the folder,
# the release), each fixed from the review; the first release is left as it was, and the second one is
# signed with the same key.
e2e_twice() {
	echo "tui-e2e: new, twice in the same folder (${cols}x$rows)"
	local n=$work/$nd key_sum rel_sum
	key_sum=$(cat "$n/e2e-key.key" "$n/e2e-key.pub" | sha256sum)
	rel_sum=$(cat "$n"/community.acme.e2e-demo-0.1.0.* | sha256sum)
	start "cd $nd && '$wopkit' new"
	wait_for 'What do you want to create'
	keys Enter
	wait_for '^┃ Scope'
	keys Enter
	answer '^┃ Organisation' acme
	answer '^┃ Pack name' e2e-demo
	enter_until 'Environment variables: none'
	keys Down Enter # add a new environment variable: API_KEY, a secret
	wait_for '^┃ Environment variable'
	enter_until '1 environment variable: API_KEY \(secret\)'
	keys Enter # continue
	enter_until '^┃ Kill switch'
	keys Down Enter # none, although the tool holds a secret
	wait_for '^┃ Pack and sign now'
	keys Enter
	wait_for '^┃ Key$'
	wait_text 'this folder has a key already: e2e-key.key'
	wait_for '> use an existing private key file'
	keys Enter
	wait_for '^┃ Key file'
	wait_text 'e2e-key.key'
	keys Enter # the key in the folder, suggested
	answer '^┃ Key id' e2e-1
	wait_for '3 problems stop the files from being written' 30
	keys Down Down # the release
	wait_text 'already exist: packing would replace a release made before' # the .tgz, .sig and .json
	wait_text 'choose another version'
	keys Up Up
	keys Enter # the kill switch
	wait_for '^┃ Kill switch'
	keys Up Enter # from the answers: manual
	wait_for '2 problems stop' 30
	wait_for 'e2e-demo already holds'
	keys Enter # the folder is named after the pack name's last part: that field is focused
	answer '^┃ Pack name' e2e-two
	enter_until 'will be written'
	screen | grep -q 'no problems' || fail "the review lists problems"
	wait_text '/e2e-key.key (key id e2e-1)' # the paths are whole (issue 35, item 3)
	wait_text '/community.acme.e2e-two-0.1.0.tgz, with its .sig and .json beside it'
	keys b # back from the review: the sign page, then forward again
	wait_for '^┃ Pack and sign now'
	enter_until 'will be written'
	write_from_review 'signed \(v2'
	local tgz=$n/community.acme.e2e-two-0.1.0.tgz
	[ "$(cat "$n/e2e-key.key" "$n/e2e-key.pub" | sha256sum)" = "$key_sum" ] || fail "the existing key was changed"
	[ "$(cat "$n"/community.acme.e2e-demo-0.1.0.* | sha256sum)" = "$rel_sum" ] || fail "the first release was changed"
	[ -z "$(find "$n" -maxdepth 1 -name '*.key' -not -name e2e-key.key)" ] || fail "a new key was made: $(ls "$n")"
	"$wopkit" verify "$tgz" --key "$n/e2e-key.pub" || fail "wopkit verify refused the second tarball"
	strict_valid "$n/e2e-two" "$n/e2e-two/tools/my-tool.tool.json" || fail "the second pack does not validate"
	tar tzf "$tgz" | grep -qx tools/my-tool.tool.json || fail "the tool manifest is not packed"
	grep -q '"kind": "manual"' "$n/e2e-two/tools/my-tool.tool.json" || fail "the kill switch is not manual"
	echo "tui-e2e: new twice ok"
}

# e2e_chain: a workflow-chain pack (a chain of two steps), packed and signed v2 with a new key.
e2e_chain() {
	echo "tui-e2e: new workflow-chain pack"
	mkdir -p "$work/chain"
	start "cd chain && '$wopkit' new"
	wait_for 'What do you want to create'
	keys Down Down Down Down Down Down
	wait_for '> A workflow-chain pack'
	keys Enter
	wait_for '^┃ Scope'
	keys Enter
	answer '^┃ Organisation' acme
	answer '^┃ Pack name' chains
	enter_until '1 chain: summarize-page'
	enter_until '^┃ Pack and sign now'
	keys Enter
	wait_for '^┃ Key$'
	keys Enter
	answer '^┃ Key file' chain-key
	answer '^┃ Key id' chain-1
	wait_for '^┃ New key passphrase' # issue 44, item 5: asked for a new key, as keygen asks
	keys Enter Enter             # empty, twice: the key unencrypted, which the review says
	wait_for 'will be written' 30
	write_from_review 'signed \(v2'
	local c=$work/chain tgz=$work/chain/community.acme.chains-0.1.0.tgz
	"$wopkit" verify "$tgz" --key "$c/chain-key.pub" || fail "wopkit verify refused the chain pack"
	strict_valid "$c/chains" || fail "the chain pack does not validate"
	grep -q '"kind": "workflow-chain"' "$c/chains/pack.json" || fail "not a workflow-chain pack"
	echo "tui-e2e: new chain ok"
}

# e2e_connection: `wopkit new pack --set kind=connection` on a terminal asks what a connection needs (issue 17,
# item 12): the provider, how connectors sign in (OAuth endpoints, issuer, read and write scope groups) and
# how hosts reach it; the pack written holds the answers (no .example address left), validates strictly,
# its tarball verifies, and the summary ends with the next steps (the OAuth client to register).
e2e_connection() {
	echo "tui-e2e: new connection pack (${cols}x$rows)"
	local c=$work/conn-${cols}x$rows
	mkdir -p "$c"
	start "cd '$c' && '$wopkit' new pack --set kind=connection"
	wait_for '^┃ Scope'
	keys Enter
	answer '^┃ Organisation' acme
	answer '^┃ Pack name' conns
	enter_until '^┃ Provider id'
	answer '^┃ Provider id' github
	answer '^┃ Display name' GitHub
	wait_for '^┃ Category'
	keys Enter
	answer '^┃ Vendor' GitHub
	answer '^┃ Documentation address' https://docs.github.com
	wait_for '^┃ How connectors sign in'
	keys Enter
	enter_until '^┃ Authorization address'
	answer '^┃ Authorization address' https://github.com/login/oauth/authorize
	answer '^┃ Token address' https://github.com/login/oauth/access_token
	wait_for '^┃ Revocation address'
	keys Enter
	answer '^┃ Issuer' https://github.com
	wait_for '^┃ PKCE'
	keys Enter
	answer '^┃ Group key' repo-read
	answer '^┃ Label' 'Read your repositories'
	answer '^┃ Provider scopes' 'repo, read:org'
	wait_for '1 read scope group: repo-read'
	keys Enter
	answer '^┃ Group key' repo-write
	answer '^┃ Label' 'Change your repositories'
	answer '^┃ Provider scopes' repo
	wait_for '1 write scope group: repo-write'
	keys Enter
	wait_for '^┃ Reached through'
	keys Enter
	answer '^┃ MCP server address' https://api.githubcopilot.com/mcp/
	enter_until '^┃ Pack and sign now'
	keys Enter
	wait_for '^┃ Key$'
	keys Enter
	answer '^┃ Key file' conn-key
	answer '^┃ Key id' conn-1
	wait_for '^┃ New key passphrase' # issue 44, item 5: asked for a new key, as keygen asks
	keys Enter Enter             # empty, twice: the key unencrypted, which the review says
	wait_for 'will be written' 30
	screen | grep -q 'no problems' || fail "the review lists problems"
	keys Enter
	wait_for 'signed \(v2' 30
	wait_text 'register an OAuth client with GitHub'
	keys q
	wait_for '^EXIT=0'
	"$wopkit" verify "$c/community.acme.conns-0.1.0.tgz" --key "$c/conn-key.pub" || fail "wopkit verify refused the connection pack"
	strict_valid "$c/conns" || fail "the connection pack does not validate"
	grep -q '"issuer": "https://github.com"' "$c/conns/pack.json" || fail "the issuer typed is not in pack.json"
	grep -q '"key": "repo-write"' "$c/conns/pack.json" || fail "the write scope group typed is not in pack.json"
	! grep -q '\.example' "$c/conns/pack.json" || fail "a placeholder address is left in pack.json"
	echo "tui-e2e: new connection ok (${cols}x$rows)"
}

# e2e_tool: a tool manifest with two environment variables (one secret), two scopes and two actions,
# with NO_COLOR=1 (the chosen button is marked), going back across sections with shift+tab.
e2e_tool() {
	echo "tui-e2e: new tool (NO_COLOR=1)"
	mkdir -p "$work/tool"
	start "cd tool && NO_COLOR=1 '$wopkit' new tool"
	wait_for '^┃ Tool id'
	enter_until 'Environment variables: none'
	keys BTab # back across sections: the tool page, on its last field (shift+tab goes back a field)
	wait_for '^┃ Package'
	enter_until 'Environment variables: none'
	keys Down Enter
	answer '^┃ Environment variable' ACME_API_KEY
	answer '^┃ Prompt' 'Your Acme API key, from acme.example/settings'
	wait_for '^┃ Is it a secret'
	screen | grep -q '\[Yes\]' || fail "NO_COLOR: the chosen button is not marked"
	keys y
	wait_for '^┃ Is it required'
	keys Enter
	wait_for '1 environment variable: ACME_API_KEY \(secret\)'
	keys Down Enter
	answer '^┃ Environment variable' ACME_REGION
	answer '^┃ Prompt' 'The region to call'
	wait_for '^┃ Is it a secret'
	keys n
	wait_for '^┃ Is it required'
	keys Enter
	wait_for '2 environment variables: ACME_API_KEY \(secret\), ACME_REGION'
	keys Down Enter # a third, named like an API key, enter for the rest
	answer '^┃ Environment variable' WEATHER_API_KEY
	wait_for '^┃ Prompt'
	wait_text 'The value of WEATHER_API_KEY'
	keys Enter
	wait_for '^┃ Is it a secret'
	screen | grep -q '\[Yes\]' || fail "an API key is not offered as a secret"
	keys Enter
	wait_for '^┃ Is it required'
	keys Enter
	wait_text '3 environment variables: ACME_API_KEY (secret), ACME_REGION, WEATHER_API_KEY (secret)'
	keys Enter
	wait_for 'Scopes: none'
	keys Down Enter
	wait_for '^┃ Resource'
	enter_until '1 scope: net.outbound'
	keys Down Enter
	answer '^┃ Resource' gmail.messages
	enter_until '2 scopes: net.outbound, gmail.messages'
	keys Enter
	enter_until '1 action: hello'
	keys Down Enter
	answer '^┃ Action name' list_mail
	enter_until '2 actions: hello, list_mail'
	keys Enter
	wait_for '^┃ Smoke test'
	wait_text 'action-call: call the action hello (no side effects)'
	keys Down Enter # the action-call smoke test
	wait_for '> from the answers: manual'
	keys Enter
	wait_for 'will be written' 30
	write_from_review 'wrote 1 file'
	local f=$work/tool/my-tool.tool.json
	strict_valid "$f" || fail "the tool manifest does not validate"
	for want in ACME_REGION 'Your Acme API key' gmail.messages list_mail '"manual"' '"action": "hello"'; do
		grep -q "$want" "$f" || fail "$want missing from the tool manifest"
	done
	tr -d '\n' <"$f" | sed 's/  */ /g' | grep -q '"name": "WEATHER_API_KEY", "prompt": "The value of WEATHER_API_KEY: [^"]*", "secret": true' ||
		fail "WEATHER_API_KEY is not a secret with its own prompt"
	echo "tui-e2e: new tool ok"
}

# e2e_git: the README's first command in a git checkout, every answer its default: the new private key
# goes to the user's config folder (XDG_CONFIG_HOME here, 0700, the key 0600), not into the checkout,
# as the sign page, the review and the summary say; git status lists no key; the tarball verifies.
e2e_git() {
	echo "tui-e2e: new in a git checkout"
	command -v git >/dev/null || { echo "tui-e2e: git is not installed: skipping the checkout run"; return 0; }
	local g=$work/git cfg=$work/config st
	mkdir -p "$g" "$cfg"
	git -C "$g" init -q
	start "cd git && XDG_CONFIG_HOME='$cfg' '$wopkit' new"
	wait_for 'What do you want to create'
	enter_until '^┃ Key$'
	wait_text "a new key pair goes to your config folder, outside the git checkout"
	enter_until 'will be written'
	screen | grep -q 'no problems' || fail "the review lists problems"
	wait_text "config/wopkit/keys/example.key (keep it secret)"
	wait_text "kept in your config folder, not in the git checkout"
	keys Enter
	wait_for 'signed \(v2' 30
	wait_text "config/wopkit/keys/example.key (keep it secret)"
	wait_text "kept in your config folder, not in the git checkout"
	keys q
	wait_for '^EXIT=0'
	st=$(git -C "$g" status --porcelain --untracked-files=all)
	grep -q 'my-pack/pack.json' <<<"$st" || fail "git status does not list the pack: $st"
	if grep -q '\.key' <<<"$st"; then fail "a key in the checkout: $st"; fi
	[ "$(stat -c %a "$cfg/wopkit/keys/example.key")" = 600 ] || fail "private key is not mode 0600"
	[ "$(stat -c %a "$cfg/wopkit/keys")" = 700 ] || fail "the key folder is not mode 0700"
	"$wopkit" verify "$g/community.example.my-pack-0.1.0.tgz" --key "$cfg/wopkit/keys/example.pub" ||
		fail "wopkit verify refused the tarball signed with the key kept outside the checkout"
	echo "tui-e2e: git ok"
}

# e2e_resume: esc keeps a draft (and says so); the next start resumes it on the page it was left on.
e2e_resume() {
	echo "tui-e2e: resume a draft"
	mkdir -p "$work/resume"
	start "cd resume && '$wopkit' new"
	wait_for 'What do you want to create'
	keys Enter
	wait_for '^┃ Scope'
	keys Enter
	answer '^┃ Organisation' acme
	answer '^┃ Pack name' resumed
	enter_until '^┃ Runtime language'
	keys Escape
	wait_for 'Keep a draft'
	keys y
	wait_for 'kept a draft of your answers'
	wait_for '^EXIT=0'
	start "cd resume && '$wopkit' new"
	wait_for 'A draft from an earlier run is here \(community.acme.resumed\)'
	keys y
	wait_for '^┃ Runtime language'
	screen | grep -q 'wopkit new · runtime · community.acme.resumed' || fail "not resumed on the runtime page"
	enter_until '^┃ Pack and sign now'
	keys Down Down Down Down Down Enter # only write the files
	wait_for 'will be written' 30
	keys Enter
	wait_for 'wrote' 30
	keys q
	wait_for '^EXIT=0'
	strict_valid "$work/resume/resumed" || fail "the resumed pack does not validate"
	[ ! -e "$(draft_of "$work/resume")" ] || fail "the draft was not removed"
	[ -z "$(find "$work/resume" -name '.wopkit-new-draft*')" ] || fail "a draft was written into the folder"

	# accessible mode offers a draft too (issue 25): from a pipe it starts afresh and leaves the draft as it
	# is; on a terminal, y resumes it, each question offering the draft's answer
	mkdir -p "$work/resume-acc"
	start "cd resume-acc && printf '\\n\\nacme\\nspoken\\n' | '$wopkit' new --accessible"
	wait_for '^EXIT=1'
	local d before
	d=$(draft_of "$work/resume-acc")
	[ -e "$d" ] || fail "accessible mode fed a pipe that ended early kept no draft"
	before=$(sha256sum <"$d")
	start "cd resume-acc && printf '\\n' | '$wopkit' new --accessible >'$work/resume-acc.log' 2>&1"
	wait_for '^EXIT=1'
	grep -Fq 'A draft from an earlier run is here (community.acme.spoken): answers read from a pipe start afresh' "$work/resume-acc.log" ||
		fail "a run fed from a pipe does not say it leaves the draft: $(head -3 "$work/resume-acc.log")"
	[ "$(sha256sum <"$d")" = "$before" ] || fail "a run fed from a pipe replaced the draft it did not resume"
	start "cd resume-acc && '$wopkit' new --accessible"
	wait_for 'community.acme.spoken\). Resume it\? \[Y/n\]'
	keys y Enter
	wait_for '^Enter a number 1-12 or a name \[default 1: mixed\]'
	keys Enter
	wait_for '^Enter a number 1-4 or a name \[default 1: community\]'
	keys Enter
	wait_for '^Organisation or author \[acme\]'
	keys Enter
	wait_for '^Pack name \[spoken\]'
	keys C-d C-d # the input ends: the draft is kept
	wait_for '^EXIT=1'
	[ -e "$d" ] || fail "the draft resumed in accessible mode is gone"

	# issue 44, item 1: a draft is offered where the files were going too, listed with its pack name and
	# age, and resumed by name from any folder
	mkdir -p "$work/resume-name" "$work/resume-else"
	start "cd resume-name && '$wopkit' new"
	wait_for 'What do you want to create'
	keys Enter
	wait_for '^┃ Scope'
	keys Enter
	answer '^┃ Organisation' acme
	answer '^┃ Pack name' named
	enter_until '^┃ Runtime language'
	keys Escape
	wait_for 'Keep a draft'
	keys y
	wait_for 'kept a draft of your answers'
	wait_for '^EXIT=0'
	[ -e "$(draft_of "$work/resume-name/named")" ] || fail "the draft is not kept for the folder the files go to"
	(cd "$work" && "$wopkit" new --list-drafts) >"$work/drafts.txt" 2>&1 || fail "--list-drafts failed: $(cat "$work/drafts.txt")"
	grep -Eq '^[0-9a-f]+  community\.acme\.named  kept (just now|1 minute ago)$' "$work/drafts.txt" ||
		fail "--list-drafts does not list the draft with its pack name and age: $(cat "$work/drafts.txt")"
	start "cd resume-else && '$wopkit' new --resume community.acme.named"
	wait_for '^┃ Runtime language'
	screen | grep -q 'wopkit new · runtime · community.acme.named' || fail "--resume NAME did not resume the draft"
	keys Escape
	wait_for 'Keep a draft'
	keys n
	wait_for '^EXIT=0'
	[ ! -e "$(draft_of "$work/resume-name")" ] || fail "the draft resumed by name and dropped is still offered where it was kept"
	echo "tui-e2e: resume ok"
}

# e2e_pipe: accessible mode reads the answers piped to it (two variables, two scopes, two actions).
e2e_pipe() {
	echo "tui-e2e: accessible mode from a pipe"
	mkdir -p "$work/pipe"
	# one line per question; an empty line keeps the suggestion; a choice is answered by its number or
	# by its name (issue 25: "add" is the environment list's "add a new environment variable", "Continue" its first)
	printf '%s\n' '' '' '' '' '' '' '' '' '' \
		add ACME_API_KEY 'Your Acme API key' y '' 2 ACME_REGION 'The region' n '' Continue \
		2 net.outbound '' '' 2 gmail.messages read 'reads the inbox' 3 1 \
		'' '' '' '' net.outbound 2 list_mail 'Lists mail.' 2 '' gmail.messages 1 '' '' >"$work/pipe/answers.txt"
	start "cd pipe && cat answers.txt | '$wopkit' new tool --accessible"
	wait_for '^EXIT=0' 30
	local f=$work/pipe/my-tool.tool.json
	strict_valid "$f" || fail "the piped tool manifest does not validate"
	grep -q ACME_REGION "$f" && grep -q list_mail "$f" || fail "the piped answers are not in the manifest"
	local joined
	joined=$(tmux -L "$sock" capture-pane -p -J -S - -t e2e)
	grep -Fq '2. add a new environment variable' <<<"$joined" && grep -Fq '(default)' <<<"$joined" ||
		fail "an accessible choice does not list its options with the default marked"
	grep -Eq 'or a name \[default 1: continue\]: add$' <<<"$joined" || fail "a choice answered by its name is not echoed"
	echo "tui-e2e: pipe ok"
}

# e2e_exit: the process's exit status when a run cannot finish (every other run checks that a finished
# run, and a draft kept with esc, exit 0). A folder that was free when the review was shown is taken
# before enter: the write fails, nothing is written, the review says so; the author quits from it, keeps
# the draft, and `wopkit new` exits 3 (an I/O failure). Accessible mode fed a pipe that ends before the
# questions exits 1, writing nothing but the draft.
e2e_exit() {
	echo "tui-e2e: exit status after a failure"
	local x=$work/exit
	mkdir -p "$x"
	start "cd exit && '$wopkit' new"
	wait_for 'What do you want to create'
	keys Enter
	wait_for '^┃ Scope'
	keys Enter
	answer '^┃ Organisation' acme
	answer '^┃ Pack name' taken
	enter_until '^┃ Pack and sign now'
	keys Down Down Down Down Down Enter # only write the files
	wait_for 'will be written' 30
	echo "not a folder" >"$x/taken" # the pack's folder, taken after the review
	keys Enter
	wait_for 'could not finish' 30
	wait_text 'nothing was written and your answers are kept as a draft'
	keys q
	wait_for 'Keep a draft'
	keys y
	wait_for '^EXIT=' 30
	screen | grep -q '^EXIT=3' || fail "a run that could not write does not exit 3"
	[ "$(cat "$x/taken")" = "not a folder" ] || fail "the file in the pack's place was changed"
	[ -z "$(find "$x" -mindepth 1 -not -name taken)" ] ||
		fail "a failed run left files: $(ls -A "$x")"
	[ -f "$(draft_of "$x")" ] || fail "no draft kept after the failure"
	mkdir -p "$x/pipe"
	start "cd exit/pipe && printf '\\n\\n\\n' | '$wopkit' new tool --accessible"
	wait_for '^EXIT=' 30
	screen | grep -q '^EXIT=1' || fail "accessible mode fed a pipe that ends early does not exit 1"
	screen | grep -q 'the answers ended before the questions' || fail "no word on the answers that ended"
	[ -z "$(find "$x/pipe" -mindepth 1)" ] || fail "a pipe that ended early wrote files"
	[ -f "$(draft_of "$x/pipe")" ] || fail "no draft kept for the pipe that ended early"
	echo "tui-e2e: exit ok"
}

# e2e_choices: issue 17's multi-selects and suggestions under NO_COLOR=1 at the current size, each pack
# or manifest then written and validated.
e2e_choices() {
	echo "tui-e2e: choices and suggestions (NO_COLOR=1, ${cols}x$rows)"
	local c=$work/choices-${cols}x$rows
	mkdir -p "$c/art" "$c/card" "$c/tool"
	# an artifact type: the required properties are the properties as typed
	start "cd '$c/art' && NO_COLOR=1 '$wopkit' new pack --set kind=artifact-type"
	enter_until '^┃ Properties'
	wait_text '(suggested) title, summary, body'
	keys C-u
	type_text 'title, body'
	keys Enter
	wait_for '^┃ Required properties'
	wait_for '^┃ > \[•\] title'
	screen | grep -q '^┃   \[•\] body' || fail "body is not offered, ticked"
	if screen | grep -q summary; then fail "summary offered after title, body was typed"; fi
	keys Down Space
	wait_text 'x ticks or unticks the option under the cursor'
	screen | grep -q '^┃ > \[•\] body' || fail "space unticked body"
	keys x
	wait_for '^┃ > \[ \] body'
	keys Enter
	enter_until 'will be written'
	write_from_review 'signed \(v2'
	strict_valid "$c/art/my-pack" || fail "the artifact-type pack does not validate"
	grep -rqz '"required": \[[[:space:]]*"title"[[:space:]]*\]' "$c/art/my-pack" || fail "the schema does not require title alone"
	# a card: the two-line template suggestion, whole, marked, taken with → and edited
	start "cd '$c/card' && NO_COLOR=1 '$wopkit' new pack --set kind=card"
	enter_until '^┃ Template'
	wait_text '(suggested) Summarize this text in a {{length}} form.'
	screen | grep -q '{{source}}' || fail "the template suggestion's second line is hidden"
	screen | tail -1 | grep -q '→ edit suggestion' || fail "the help does not name →"
	keys Right
	wait_for '^┃ Summarize this text in a \{\{length\}\} form\.'
	type_text ' Keep it short.'
	wait_text '{{source}} Keep it short.'
	screen | tail -1 | grep -q '\^u clear' || fail "the help of a field with text does not name ctrl+u"
	enter_until 'will be written'
	write_from_review 'signed \(v2'
	strict_valid "$c/card/my-pack" || fail "the card pack does not validate"
	grep -q '{{source}} Keep it short.' "$c/card/my-pack/pack.json" || fail "the edited template is not written"
	# a tool: the action's scopes are the tool's two scopes, shown; once left, what is ticked
	start "cd '$c/tool' && NO_COLOR=1 '$wopkit' new tool"
	enter_until 'Environment variables: none'
	keys Enter
	wait_for 'Scopes: none'
	keys Down Enter
	wait_for '^┃ Resource'
	enter_until '1 scope: net.outbound'
	keys Down Enter
	answer '^┃ Resource' gmail.messages
	enter_until '2 scopes: net.outbound, gmail.messages'
	keys Enter
	wait_for '^┃ Action name'
	enter_until '^┃ Scopes it uses'
	wait_for '^┃ > \[ \] net.outbound'
	screen | grep -q '^┃   \[ \] gmail.messages' || fail "the second scope is not shown"
	keys x
	wait_for '^┃ > \[•\] net.outbound'
	keys BTab
	wait_for '^┃ Inputs'
	wait_text 'ticked: net.outbound'
	enter_until 'will be written'
	write_from_review 'wrote 1 file'
	strict_valid "$c/tool/my-tool.tool.json" || fail "the tool manifest does not validate"
	tr -d '\n' <"$c/tool/my-tool.tool.json" | grep -q '"scopes_used": \[ *"net.outbound" *\]' || fail "the action does not use net.outbound"
	echo "tui-e2e: choices ok (${cols}x$rows)"
}

# e2e_offline: issue 17's accessible mode from a pipe with one bad answer (exit 1, the question, the
# answer and why, the answers echoed, nothing written, the next line not taken), and Sigstore keyless
# signing with no network at 80x24: a token Fulcio would take but an unreachable Fulcio (a closed port,
# as the CLI's tests do with a closed server); the failure is the sign page's, "fix it" opens the
# sign page on the signing method, choosing it again retries, and n to "Keep a draft?" leaves no draft.
e2e_offline() {
	echo "tui-e2e: a bad answer from a pipe, Sigstore with no network"
	local o=$work/offline joined
	mkdir -p "$o/pipe" "$o/keyless"
	# a pack of nodes, the organisation refused; the lines after it answer later questions
	printf '%s\n' 2 '' 'Not An Org!' piped '' '' '' '' '' '' '' '' '' '' '' '' '' '' '' '' '' 6 >"$o/pipe/answers.txt"
	start "cd offline/pipe && cat answers.txt | '$wopkit' new --accessible"
	wait_for '^EXIT=' 30
	joined=$(tmux -L "$sock" capture-pane -p -J -S - -t e2e)
	grep -q '^EXIT=1' <<<"$joined" || fail "a refused answer from a pipe does not exit 1"
	grep -Fq 'identity, "Organisation or author [example]": the answer "Not An Org!" was refused: ' <<<"$joined" ||
		fail "the error does not name the question, the answer and why"
	grep -Fq 'Organisation or author [example] Not An Org!' <<<"$joined" || fail "the answer is not echoed after its question"
	if grep -q '^Pack name' <<<"$joined"; then fail "the next question was asked after a refused answer"; fi
	[ ! -e "$o/pipe/piped" ] && [ ! -e "$o/pipe/my-pack" ] || fail "a refused answer wrote files"
	# keyless with no network: an unexpired token with a verified email (not checked offline), Fulcio
	# and Rekor on a port nothing listens on
	local b64='base64 -w0' exp tok
	exp=$(($(date +%s) + 3600))
	tok=$(printf '{"alg":"ES256","typ":"JWT"}' | $b64 | tr '+/' '-_' | tr -d '=').$(printf \
		'{"iss":"https://oidc.wopkit.test","sub":"u-1","aud":"sigstore","email":"dev@acme.test","email_verified":true,"exp":%s}' \
		"$exp" | $b64 | tr '+/' '-_' | tr -d '=').c2ln
	start "cd offline/keyless && SIGSTORE_ID_TOKEN='$tok' WOPKIT_FULCIO_URL=http://127.0.0.1:1 WOPKIT_REKOR_URL=http://127.0.0.1:1 '$wopkit' new"
	wait_for 'What do you want to create'
	keys Enter
	wait_for '^┃ Scope'
	keys Enter
	answer '^┃ Organisation' acme
	answer '^┃ Pack name' offline
	enter_until '^┃ Pack and sign now'
	wait_text 'Sigstore keyless (OIDC token from SIGSTORE_ID_TOKEN)'
	keys Down Down Down Enter # keyless
	wait_for 'will be written' 30
	wait_text 'signed keyless with Sigstore (no key file)'
	keys Enter
	wait_for 'could not finish' 30
	wait_text 'Pack and sign now?: could not finish: could not get a signing certificate from Fulcio at http://127.0.0.1:1'
	wait_text 'choose the same way to sign again to retry, or choose another way to sign'
	if screen | grep -Eq '(name|Identity.*): could not finish'; then fail "the failure is shown under the name"; fi
	if screen | grep -Fq "$tok"; then fail "the identity token is shown"; fi
	[ -f "$(draft_of "$o/keyless")" ] || fail "no draft kept after the failure"
	keys Enter # fix it
	wait_for '^wopkit new · pack and sign'
	wait_for '^┃ > Sigstore keyless'
	keys Enter # the same method: a retry
	wait_for 'will be written' 30
	keys Enter
	wait_for 'could not finish' 30
	keys q
	wait_for 'Keep a draft'
	keys n
	wait_for '^EXIT=' 30
	screen | grep -q '^EXIT=3' || fail "a run that could not reach Fulcio does not exit 3"
	[ ! -e "$(draft_of "$o/keyless")" ] || fail "n to Keep a draft left the draft"
	[ -z "$(find "$o/keyless" -mindepth 1)" ] || fail "the failed run left files: $(ls -A "$o/keyless")"
	echo "tui-e2e: offline ok"
}

# at_size COLSxROWS FUNC...: run the FUNCs in a terminal of that size (their mixed packs in new-COLSxROWS).
at_size() {
	local f
	cols=${1%x*} rows=${1#*x} nd=new-$1
	shift
	for f; do "$f"; done
	cols=80 rows=24 nd=new
}

# sizes: at 60x20 and 120x40, the mixed pack to a signed tarball, and again in the same folder (three
# problems fixed from the review, back from the review); every screen's layout is checked on the way.
e2e_sizes() {
	local size
	for size in ${E2E_SIZES:-60x20 120x40}; do at_size "$size" e2e_new e2e_twice; done
	[ -n "${E2E_SIZES:-}" ] || e2e_connection # 80x24, beside the runs at that size
}

# sizes_start and sizes_wait run e2e_sizes in the background (its own tmux servers and folders) while
# the 80x24 runs go on: most of a run is waiting for a screen, so the sizes add little time.
sizes_start() {
	(
		trap 'tmux -L "$sock" kill-server 2>/dev/null || true' EXIT
		trap 'exit 1' TERM
		e2e_sizes
	) &
	sizes_pid=$!
}
sizes_wait() {
	local pid=$sizes_pid
	sizes_pid=
	wait "$pid" || { echo "tui-e2e: FAIL: the runs at other sizes failed (above)" >&2; exit 1; }
}

# e2e_words: issue 17's items 10 and 13 as an author meets them, under NO_COLOR=1: a licence that is not an
# SPDX id is said as the field is left (the focus goes on; shift+tab back to fix it); a standalone tool asks
# its homepage and licence; a removed environment variable is put back with undo; the editor marks a
# registry version manifest and its first save does not save; help has no trailing spaces. The pack is
# signed and verified, the tool manifest validates strictly.
e2e_words() {
	echo "tui-e2e: words and checks where the author is (NO_COLOR=1)"
	local wd=words-${cols}x$rows
	mkdir -p "$work/$wd"
	start "cd $wd && NO_COLOR=1 '$wopkit' new"
	wait_for 'What do you want to create'
	keys Enter
	wait_for '^┃ Scope'
	keys Enter
	answer '^┃ Organisation' acme
	answer '^┃ Pack name' words
	enter_until '^┃ License \(SPDX\)'
	keys /
	type_text another
	keys Enter
	answer '^┃ SPDX identifier' Apache-2
	wait_text 'is not an SPDX license identifier'
	wait_text 'the review lists it'
	wait_for '^┃ Homepage' # the focus goes on: the next answer lands in the next field (issue 25, item 9)
	keys BTab
	wait_for '^┃ SPDX identifier'
	keys C-u
	type_text Apache-2.0
	keys Enter
	enter_until '^┃ Pack and sign now'
	keys Enter
	wait_for '^┃ Key$'
	keys Enter
	answer '^┃ Key file' words-key
	answer '^┃ Key id' words-1
	wait_for '^┃ New key passphrase' # issue 44, item 5: asked for a new key, as keygen asks
	keys Enter Enter             # empty, twice: the key unencrypted, which the review says
	wait_for 'will be written' 30
	write_from_review 'signed \(v2'
	local d=$work/$wd tgz=$work/$wd/community.acme.words-0.1.0.tgz
	"$wopkit" verify "$tgz" --key "$d/words-key.pub" || fail "wopkit verify refused the pack"
	strict_valid "$d/words" || fail "the pack does not validate strictly"
	grep -q '"license": "Apache-2.0"' "$d/words/pack.json" || fail "the licence fixed in place is not written"

	start "cd $wd && NO_COLOR=1 '$wopkit' new tool"
	wait_for '^┃ Tool id'
	enter_until '^┃ Homepage'
	answer '^┃ Homepage' https://acme.example/weather
	answer '^┃ License \(SPDX\)' MPL-2.0
	enter_until 'Environment variables: none'
	keys Down Enter
	answer '^┃ Environment variable' ACME_TOKEN
	enter_until '1 environment variable: ACME_TOKEN'
	keys Down Down Down Enter # continue, add, edit, remove
	wait_text 'removed ACME_TOKEN (secret)'
	wait_text 'undo: put ACME_TOKEN (secret) back'
	keys Down Enter
	wait_text '1 environment variable: ACME_TOKEN (secret)'
	enter_until 'will be written'
	write_from_review 'wrote 1 file'
	local f=$work/$wd/my-tool.tool.json
	strict_valid "$f" || fail "the tool manifest does not validate strictly"
	grep -q '"homepage": "https://acme.example/weather"' "$f" || fail "the homepage asked is not written"
	grep -q '"license": "MPL-2.0"' "$f" || fail "the licence asked is not written"
	grep -q '"ACME_TOKEN"' "$f" || fail "the variable put back is not written"

	local vm=$d/community.acme.words-0.1.0.json before
	before=$(sha256sum "$vm")
	start "cd $wd && NO_COLOR=1 '$wopkit' edit '$vm'"
	wait_text 'registry version manifest'
	keys /
	type_text description
	keys Enter Enter C-u
	type_text changed
	keys Enter C-s
	wait_text 'ctrl+s again saves anyway'
	[ "$(sha256sum "$vm")" = "$before" ] || fail "the first save changed the version manifest"
	keys q
	wait_for 'before quitting'
	keys n
	wait_for '^EXIT=0'
	if "$wopkit" new --help | grep -q ' $'; then fail "new --help has trailing spaces"; fi
	echo "tui-e2e: words ok"
}

# e2e_contract: issue 25's items as an author meets them, under NO_COLOR=1: typing the agent's system prompt
# replaces the suggestion (item 1); on a yes/no, → is No and ← is Yes whatever was chosen (item 5); the tool's
# shell kill switch asks its command (item 3); a licence the review would refuse is said as it is left and the
# next answer lands in the next field (item 9). The pack is signed; it ends with validate --strict, verify and
# the written files compared with the answers typed.
e2e_contract() {
	echo "tui-e2e: the wizard's contract (NO_COLOR=1, ${cols}x$rows)"
	local cd=contract-${cols}x$rows d before i
	mkdir -p "$work/$cd"
	d=$work/$cd/answers
	start "cd $cd && NO_COLOR=1 '$wopkit' new"
	wait_for 'What do you want to create'
	keys Enter
	wait_for '^┃ Scope'
	keys Enter
	answer '^┃ Organisation' acme
	answer '^┃ Pack name' answers
	enter_until '^┃ License \(SPDX\)'
	keys /
	type_text another
	keys Enter
	answer '^┃ SPDX identifier' Apache-2
	wait_text 'is not an SPDX license identifier'
	wait_for '^┃ Homepage'
	type_text https://acme.dev/answers # lands in the homepage, not after the licence
	keys Enter
	wait_for '^┃ Repository'
	keys BTab BTab
	wait_for '^┃ SPDX identifier'
	keys C-u
	type_text MIT
	keys Enter
	enter_until '^┃ Model class'
	keys Enter # the system prompt, after the model class
	wait_text '(suggested) You are a helpful assistant'
	type_text 'You write short briefs.'
	wait_text 'You write short briefs.'
	keys Enter
	enter_until '^┃ Add an eval suite'
	wait_text '[Yes]'
	keys Left # the left option, Yes: kept (it flipped to No)
	wait_text '[Yes]'
	keys Right
	wait_text '[No]'
	keys Left
	wait_text '[Yes]'
	keys Enter
	enter_until '^┃ Smoke test'
	before=$(screen)
	keys Enter # the kill switch, after the smoke test
	for ((i = 0; i < 200; i++)); do [ "$(screen)" != "$before" ] && break; nap 0.05; done
	keys Down Down Down Down Enter # shell
	answer '^┃ Kill switch command' 'acme-tool revoke'
	wait_for '^┃ Pack and sign now' # the page after (enter_until could send an enter before the screen moved)
	keys Enter
	wait_for '^┃ Key$'
	keys Enter
	answer '^┃ Key file' contract-key
	answer '^┃ Key id' contract-1
	wait_for '^┃ New key passphrase' # issue 44, item 5: asked for a new key, as keygen asks
	keys Enter Enter             # empty, twice: the key unencrypted, which the review says
	wait_for 'will be written' 30
	write_from_review 'signed \(v2'
	strict_valid "$d" "$d/tools/my-tool.tool.json" || fail "the pack does not validate strictly"
	"$wopkit" verify "$work/$cd/community.acme.answers-0.1.0.tgz" --key "$work/$cd/contract-key.pub" || fail "verify refused the tarball"
	# the written files against the answers typed
	[ "$(cat "$d"/prompts/*.md 2>/dev/null || cat "$d"/prompts/*)" = 'You write short briefs.' ] || fail "the system prompt is not what was typed: $(cat "$d"/prompts/*)"
	grep -q '"license": "MIT"' "$d/pack.json" || fail "the licence typed is not written"
	grep -q '"homepage": "https://acme.dev/answers"' "$d/pack.json" || fail "the homepage typed is not written"
	ls "$d"/evals/*.json >/dev/null 2>&1 || fail "the eval suite chosen with ← is left out: $(ls "$d")"
	grep -q '"kind": "shell"' "$d/tools/my-tool.tool.json" || fail "the kill switch is not shell"
	tr -d ' \n' <"$d/tools/my-tool.tool.json" | grep -q '"command":\["acme-tool","revoke"\]' || fail "the kill switch command typed is not written"
	echo "tui-e2e: contract ok (${cols}x$rows)"
}

# e2e_small: issue 35, item 7, NO_COLOR=1 at the current size (40x10 and 60x20 by default): the first page,
# taller than the screen, says "more below ↓"; the scope page shows its choices (a long description is cut
# for them) and the key help ends with "esc quit" (check_layout); text wraps at spaces, never inside a token
# (the version 1.0.0 in its description); the system prompt field grows to the page and takes what $EDITOR
# wrote without the editor's final newline (item 8).
e2e_small() {
	echo "tui-e2e: small terminal (NO_COLOR=1, ${cols}x$rows)"
	local sd=small-${cols}x$rows l
	mkdir -p "$work/$sd"
	start "cd $sd && NO_COLOR=1 '$wopkit' new"
	wait_for 'What do you want to create'
	wait_for '^more below ↓'
	keys Enter
	wait_for '^┃ Scope'
	wait_for '^┃ > community'
	keys Enter # community
	answer '^┃ Organisation' acme
	answer '^┃ Pack name' small
	wait_for '^┃ Version'
	wait_text '(for example 1.0.0)'
	look
	for l in "${seen_lines[@]}"; do
		[[ $l == *"1.0." && $l != *"1.0.0"* ]] && fail "the version is wrapped inside: $l"
	done
	keys Escape
	wait_for 'Keep a draft'
	keys n
	wait_for '^EXIT=0'
	# item 8: the system prompt field takes the rows the page leaves it; what $EDITOR (ctrl+e) wrote is
	# taken without the newline the editor ends its file with (the draft kept says what the field holds)
	printf '#!/bin/sh\nprintf "From the editor.\\n" > "$1"\n' >"$work/editor.sh"
	chmod +x "$work/editor.sh"
	start "cd $sd && EDITOR='$work/editor.sh' NO_COLOR=1 '$wopkit' new agent"
	wait_for '^┃ Agent id'
	enter_until '^┃ System prompt'
	look
	local n=0
	for l in "${seen_lines[@]}"; do [[ $l == "┃"* ]] && n=$((n + 1)); done
	((rows < 20 || n >= 10)) || fail "the system prompt field is $n rows high on a page of $rows"
	keys C-e
	wait_text 'From the editor.'
	keys Escape
	wait_for 'Keep a draft'
	keys y
	wait_for '^EXIT=0'
	grep -qF '"systemPrompt": "From the editor."' "$(draft_of "$work/$sd")" ||
		fail "the prompt from the editor is not kept as it was written: $(grep systemPrompt "$(draft_of "$work/$sd")")"
	echo "tui-e2e: small ok (${cols}x$rows)"
}

# e2e_secrets: issue 25, items 8 and 11, NO_COLOR=1 at the current size. (1) A folder whose key is
# encrypted: the sign page asks its passphrase masked, a wrong one is said there and asked again, the
# right one signs; the passphrase shows nowhere and the result verifies. (2) A read-only folder (as a user
# that may not write it: root may write anywhere): the review refuses it with a hint, the draft goes to
# wopkit's state folder, the folder made writable, the draft resumes and the signed result verifies.
e2e_secrets() {
	echo "tui-e2e: passphrase and read-only folder (NO_COLOR=1, ${cols}x$rows)"
	local s=$work/secrets-${cols}x$rows pass='zq-e2e-Passphrase'
	mkdir -p "$s/pass"
	(cd "$s/pass" && WOPKIT_KEY_PASSPHRASE=$pass "$wopkit" keygen --out acme --passphrase >/dev/null) || fail "keygen --passphrase"
	start "cd '$s/pass' && env -u WOPKIT_KEY_PASSPHRASE NO_COLOR=1 '$wopkit' new"
	wait_for 'What do you want to create'
	keys Enter
	wait_for '^┃ Scope'
	keys Enter
	answer '^┃ Organisation' acme
	answer '^┃ Pack name' locked
	enter_until '^┃ Pack and sign now'
	keys Enter # v2
	wait_text 'this folder has a key already: acme.key'
	enter_until 'Key passphrase'
	type_text wrong-one
	keys Enter
	wait_text 'wrong passphrase: type it again'
	if screen | grep -Fq wrong-one; then fail "the passphrase typed is shown"; fi
	keys C-u
	type_text "$pass"
	if screen | grep -Fq "$pass"; then fail "the passphrase is shown"; fi
	keys Enter
	wait_for 'will be written' 60
	keys Enter
	wait_for 'wrote' 60
	if screen | grep -Fq "$pass"; then fail "the summary shows the passphrase"; fi
	keys q
	wait_for '^EXIT=0'
	"$wopkit" verify "$s/pass/community.acme.locked-0.1.0.tgz" --key "$s/pass/acme.pub" ||
		fail "the release signed with the encrypted key does not verify"
	if grep -rFq "$pass" "$XDG_STATE_HOME" "$s/pass" 2>/dev/null; then fail "the passphrase was written to a file"; fi

	if [ "$(id -u)" = 0 ] && ! command -v setpriv >/dev/null; then
		echo "tui-e2e: read-only folder skipped (root, and no setpriv to run as another user)"
		return 0
	fi
	# as root, the run is nobody's, in a folder of /tmp nobody can reach (the work dir's parents may be private)
	local as="" st=$XDG_STATE_HOME base=$s bin=$wopkit
	if [ "$(id -u)" = 0 ]; then
		nobody_dir=$(mktemp -d /tmp/wopkit-e2e-nobody.XXXXXX)
		base=$nobody_dir st=$nobody_dir/state bin=$nobody_dir/wopkit
		chmod 755 "$base"
		cp "$wopkit" "$bin" && chmod 755 "$bin"
		mkdir -p "$base/home" "$st"
		chown 65534:65534 "$base/home" "$st"
		as="setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=$base/home TMPDIR=$base/home XDG_STATE_HOME=$st XDG_CONFIG_HOME=$base/home/config"
	fi
	local ro=$base/ro
	mkdir -p "$ro"
	chmod 555 "$ro"
	start "cd '$ro' && $as NO_COLOR=1 '$bin' new"
	wait_for 'What do you want to create'
	keys Enter
	wait_for '^┃ Scope'
	keys Enter
	answer '^┃ Organisation' acme
	answer '^┃ Pack name' readonly
	enter_until '^┃ Pack and sign now'
	keys Enter # v2 with a new key pair
	enter_until 'the files from being written'
	wait_text 'cannot write the files'
	wait_text 'run where you may write (or make the folder writable)'
	keys q
	wait_for 'Keep a draft'
	keys y
	wait_for '^EXIT=' 30
	screen | grep -q '^EXIT=0' || fail "keeping a draft from a read-only folder does not exit 0"
	screen | grep -q 'kept a draft of your answers in' || fail "where the draft went is not said"
	[ -n "$(find "$st/wopkit/drafts" -name '*.json')" ] || fail "no draft in the state folder $st"
	[ -z "$(ls -A "$ro")" ] || fail "the read-only folder was written: $(ls -A "$ro")"
	chmod 777 "$ro"
	start "cd '$ro' && $as NO_COLOR=1 '$bin' new"
	wait_for 'A draft from an earlier run is here \(community.acme.readonly\)'
	keys y
	# the draft was kept on the review: it resumes there (an Enter sent before it is drawn would write)
	wait_for 'will be written' 60
	keys Enter
	wait_for 'wrote' 60
	keys q
	wait_for '^EXIT=0'
	local pub
	pub=$(find "$base" -name 'acme*.pub' | head -1)
	[ -n "$pub" ] || fail "no public key of the new pair"
	"$wopkit" verify "$ro/community.acme.readonly-0.1.0.tgz" --key "$pub" || fail "the resumed release does not verify"
	echo "tui-e2e: secrets ok (${cols}x$rows)"
}

case "${E2E_ONLY:-}" in
edit) e2e_edit ;;
new) e2e_new; e2e_twice ;;
sizes) e2e_sizes ;;
choices) for size in ${E2E_SIZES:-80x24 60x20 120x40}; do at_size "$size" e2e_choices; done ;;
exit) e2e_exit ;;
tool) e2e_tool ;;
git) e2e_git ;;
chain) e2e_chain ;;
connection) e2e_connection ;;
resume) e2e_resume ;;
pipe) e2e_pipe ;;
offline) e2e_offline ;;
words) for size in ${E2E_SIZES:-80x24 60x20}; do at_size "$size" e2e_words; done ;;
contract) for size in ${E2E_SIZES:-80x24 60x20}; do at_size "$size" e2e_contract; done ;;
secrets) for size in ${E2E_SIZES:-80x24}; do at_size "$size" e2e_secrets; done ;;
small) for size in ${E2E_SIZES:-40x10 60x20}; do at_size "$size" e2e_small; done ;;
*)
	sizes_start
	e2e_edit; e2e_new; e2e_twice; e2e_chain; e2e_tool; e2e_git; e2e_resume; e2e_pipe; e2e_exit
	for size in 80x24 60x20 120x40; do at_size "$size" e2e_choices; done
	e2e_offline
	for size in 80x24 60x20; do at_size "$size" e2e_words e2e_contract; done
	at_size 80x24 e2e_secrets
	for size in 40x10 60x20; do at_size "$size" e2e_small; done
	sizes_wait
	;;
esac
echo "tui-e2e: PASS"
