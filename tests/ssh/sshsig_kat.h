/* SPDX-License-Identifier: BSD-2-Clause */
/* SSHSIG known answers for tests/ssh/test_sshpub.c, made once by real
 * OpenSSH (Debian 12, 1:9.2p1-2+deb12u10): ssh-keygen -t ecdsa-sk and
 * -t ed25519-sk -w sk-dummy.so (openssh-tests), keys in ssh-agent, then
 * printf 'pam_u2f test vector\n' | ssh-keygen -Y sign -f KEY.pub -n file.
 * SIG_*: the base64 of the armored signature file (the SSHSIG blob). */
#ifndef PU_SSHSIG_KAT_H
#define PU_SSHSIG_KAT_H

#define KAT_MSG "pam_u2f test vector\n"
#define KAT_NS "file"
#define KEY_ECDSA                                                              \
	"sk-ecdsa-sha2-nistp256@openssh.com "                                  \
	"AAAAInNrLWVjZHNhLXNoYTItbmlzdHAyNTZAb3BlbnNzaC5jb20AAAAIbmlzdHAyNTYA" \
	"AABBBNm3QIe01cQKBCoUfOy7FQm/eqIxa8FyiKx4oqORDEQSX/"                   \
	"q2jD2ykPNvWhOWIGmtTbIaAi+xtNopO3MoScjzJkEAAAAEc3NoOg== ka"
#define KEY_ED25519                                                            \
	"sk-ssh-ed25519@openssh.com "                                          \
	"AAAAGnNrLXNzaC1lZDI1NTE5QG9wZW5zc2guY29tAAAAIBaud+8XZjbGc7b2N/"       \
	"iSiRAfX9aK4QYPmCZXQ9JxTcR4AAAABHNzaDo= kb"
#define SIG_ECDSA                                                              \
	"U1NIU0lHAAAAAQAAAH8AAAAic2stZWNkc2Etc2hhMi1uaXN0cDI1NkBvcGVuc3No"     \
	"LmNvbQAAAAhuaXN0cDI1NgAAAEEE2bdAh7TVxAoEKhR87LsVCb96ojFrwXKIrHii"     \
	"o5EMRBJf+raMPbKQ829aE5Ygaa1NshoCL7G02ik7cyhJyPMmQQAAAARzc2g6AAAA"     \
	"BGZpbGUAAAAAAAAABnNoYTUxMgAAAHgAAAAic2stZWNkc2Etc2hhMi1uaXN0cDI1"     \
	"NkBvcGVuc3NoLmNvbQAAAEkAAAAhAPyBiBt74qajB/UIep+/LMI6P8/tytrgfq4Q"     \
	"z4vHrJmqAAAAIDGjBB2boe7VVT7FjM7rZ4os82kMT3U+yBVwWH2Rx/xnARI0Vng="
#define SIG_ED25519                                                            \
	"U1NIU0lHAAAAAQAAAEoAAAAac2stc3NoLWVkMjU1MTlAb3BlbnNzaC5jb20AAAAg"     \
	"Fq537xdmNsZztvY3+JKJEB9f1orhBg+YJldD0nFNxHgAAAAEc3NoOgAAAARmaWxl"     \
	"AAAAAAAAAAZzaGE1MTIAAABnAAAAGnNrLXNzaC1lZDI1NTE5QG9wZW5zc2guY29t"     \
	"AAAAQHqTJtDB+ORX+9Jw8szSP/CjEjoIUvZy8w0WlI0dlYM4aB21HRF7Y0Theabh"     \
	"3Tl9AGbgT1EUCfuDD/T+Pq9qRQsBEjRWeA=="

#endif
