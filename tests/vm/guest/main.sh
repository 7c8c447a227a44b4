# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh
# tests/vm/guest/main.sh GROUP...: the command tests/vm/run.sh runs in
# the guest. Sources lib.sh, then each group (tests/vm/guest/GROUP.sh) in
# turn, stopping the tokens a group left; writes /vmtest/done at the end
# so the host can tell a finished run from a crashed or killed one.
# shellcheck source=tests/vm/guest/lib.sh
. "$VM_SRC/tests/vm/guest/lib.sh"
for group in "$@"; do
	diag "group $group"
	# shellcheck disable=SC1090
	. "$VM_SRC/tests/vm/guest/$group.sh"
	tok_stop_all
done
echo "done" >/vmtest/done
exit 0
