/* SPDX-License-Identifier: BSD-2-Clause */
/* The FIDO U2F raw message format's examples (registration and
 * authentication), the known answers of tests/crypto/test_crypto.c,
 * tests/proto/test_u2f.c and tests/proto/test_u2fop.c; see
 * ../shared/reference/u2f-protocol.md. Hex strings, for test_unhex. */
#ifndef PU_U2FKAT_H
#define PU_U2FKAT_H

#define REG_APP                                                                \
	"f0e6a6a97042a4f1f1c87f5f7d44315b2d852c2df5c7991cc66241bf7072d1c4"
#define REG_CHAL                                                               \
	"4142d21c00d94ffb9d504ada8f99b721f4b191ae4e37ca0140f696b6983cfacb"
#define REG_KEY                                                                \
	"04b174bc49c7ca254b70d2e5c207cee9cf174820ebd77ea3c65508c26da51b657c"   \
	"1cc6b952f8621697936482da0a6d3d3826a59095daf6cd7c03e2e60385d2f6d9"
#define REG_KH                                                                 \
	"2a552dfdb7477ed65fd84133f86196010b2215b57da75d315b7b9e8fe2e3925a60"   \
	"19551bab61d16591659cbaf00b4950f7abfe6660e2e006f76868b772d70c25"
#define REG_REPLY                                                              \
	"0504b174bc49c7ca254b70d2e5c207cee9cf174820ebd77ea3c65508c26da51b"     \
	"657c1cc6b952f8621697936482da0a6d3d3826a59095daf6cd7c03e2e60385d2"     \
	"f6d9402a552dfdb7477ed65fd84133f86196010b2215b57da75d315b7b9e8fe2"     \
	"e3925a6019551bab61d16591659cbaf00b4950f7abfe6660e2e006f76868b772"     \
	"d70c253082013c3081e4a003020102020a47901280001155957352300a06082a"     \
	"8648ce3d0403023017311530130603550403130c476e756262792050696c6f74"     \
	"301e170d3132303831343138323933325a170d3133303831343138323933325a"     \
	"3031312f302d0603550403132650696c6f74476e756262792d302e342e312d34"     \
	"373930313238303030313135353935373335323059301306072a8648ce3d0201"     \
	"06082a8648ce3d030107034200048d617e65c9508e64bcc5673ac82a6799da3c"     \
	"1446682c258c463fffdf58dfd2fa3e6c378b53d795c4a4dffb4199edd7862f23"     \
	"abaf0203b4b8911ba0569994e101300a06082a8648ce3d040302034700304402"     \
	"2060cdb6061e9c22262d1aac1d96d8c70829b2366531dda268832cb836bcd30d"     \
	"fa0220631b1459f09e6330055722c8d89b7f48883b9089b88d60d1d9795902b3"     \
	"0410df304502201471899bcc3987e62e8202c9b39c33c19033f7340352dba80f"     \
	"cab017db9230e402210082677d673d891933ade6f617e5dbde2e247e70423fd5"     \
	"ad7804a6d3d3961ef871"
/* Offsets inside REG_REPLY: 05 | point | L | kh | cert | sig. */
#define REG_POINT_OFF 1
#define REG_KH_OFF (1 + 65 + 1)
#define REG_KH_LEN 64
#define REG_CERT_OFF (REG_KH_OFF + REG_KH_LEN)
#define REG_CERT_LEN 320
#define REG_SIG_OFF (REG_CERT_OFF + REG_CERT_LEN)
#define REG_SIG_LEN 71

#define AUTH_APP                                                               \
	"4b0be934baebb5d12d26011b69227fa5e86df94e7d94aa2949a89f2d493992ca"
#define AUTH_CHAL                                                              \
	"ccd6ee2e47baef244d49a222db496bad0ef5b6f93aa7cc4d30c4821b3b9dbc57"
#define AUTH_KEY                                                               \
	"04d368f1b665bade3c33a20f1e429c7750d5033660c019119d29aa4ba7abc04aa7"   \
	"c80a46bbe11ca8cb5674d74f31f8a903f6bad105fb6ab74aefef4db8b0025e1d"
#define AUTH_REPLY                                                             \
	"0100000001304402204b5f0cd17534cedd8c34ee09570ef542a353df4436030ce4"   \
	"3d406de870b847780220267bb998fac9b7266eb60e7cb0b5eabdfd5ba9614f53c7"   \
	"b22272ec10047a923f"
#define AUTH_SIG_OFF 5
#define AUTH_SIG_LEN 70
#define AUTH_SIG                                                               \
	"304402204b5f0cd17534cedd8c34ee09570ef542a353df4436030ce43d406de870"   \
	"b847780220267bb998fac9b7266eb60e7cb0b5eabdfd5ba9614f53c7b22272ec10"   \
	"047a923f"

#endif
