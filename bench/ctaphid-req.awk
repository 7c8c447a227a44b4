# SPDX-License-Identifier: BSD-2-Clause
# bench/ctaphid-req.awk: the CTAPHID requests in strace output of write(2)
# (strace -f -y -xx -s 16 -e trace=write), one line per request: an
# initialisation frame written to a hidraw node, however many
# continuation frames follow. Prints "NODE NAME", NODE the hidraw path,
# NAME the command: for CBOR the CTAP2 command, for ClientPIN its
# subcommand, for U2F MSG the APDU's INS (and P1 of AUTHENTICATE).
# Used by bench/vm-ctap2.sh and bench/vm-multikey.sh.
function hex(s,   i, v) {
	v = 0
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}
# "\x2f\x64..." (as -xx writes paths too) or plain text
function unhex(s,   n, a, i, o) {
	if (s !~ /^\\x/)
		return s
	n = split(s, a, /\\x/)
	o = ""
	for (i = 2; i <= n; i++)
		o = o sprintf("%c", hex(a[i]))
	return o
}
function cbor(k, s) {
	if (k == 1) return "CBOR MakeCredential"
	if (k == 2) return "CBOR GetAssertion"
	if (k == 4) return "CBOR GetInfo"
	if (k == 8) return "CBOR GetNextAssertion"
	if (k == 11) return "CBOR Selection"
	if (k != 6) return "CBOR cmd " k
	if (s == 1) return "ClientPIN getPINRetries"
	if (s == 2) return "ClientPIN getKeyAgreement"
	if (s == 5) return "ClientPIN getPinToken"
	if (s == 9) return "ClientPIN getPinUvAuthTokenUsingPinWithPermissions"
	return "ClientPIN sub " s
}
function u2f(ins, p1) {
	if (ins == 1) return "U2F REGISTER"
	if (ins == 3) return "U2F VERSION"
	if (ins == 2) return sprintf("U2F AUTHENTICATE P1 %02x", p1)
	return "U2F INS " ins
}
/write\([0-9]+<(\/dev\/hidraw|\\x2f\\x64\\x65\\x76\\x2f\\x68\\x69\\x64\\x72\\x61\\x77)/ {
	if (!match($0, /<[^>]*>/))
		next
	node = unhex(substr($0, RSTART + 1, RLENGTH - 2))
	if (!match($0, /"(\\x[0-9a-f][0-9a-f])+"/))
		next
	n = split(substr($0, RSTART + 1, RLENGTH - 2), a, /\\x/)
	for (i = 2; i <= n; i++)
		b[i - 2] = hex(a[i])
	# b[0] report ID, b[1..4] channel, b[5] command (bit 7 set on an
	# initialisation frame), b[6..7] length, b[8..] data
	if (n < 7 || b[5] < 128)
		next
	c = b[5]
	if (c == 134) name = "INIT"
	else if (c == 129) name = "PING"
	else if (c == 131) name = u2f(b[9], b[10])
	else if (c == 136) name = "WINK"
	else if (c == 145) name = "CANCEL(no reply)"
	else if (c == 144) name = cbor(b[8], b[13])
	else name = "HID cmd " c
	print node, name
}
