#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# A test attestation CA, made with the openssl CLI at test time, into
# the folder DIR (created if missing; nothing is written elsewhere):
#   root.pem                the trusted root (P-256, CA:TRUE)
#   int.pem                 an intermediate under it (CA:TRUE, pathlen 0)
#   leaf-aaguid.{key,pem}   an attestation key and certificate under int
#                           with id-fido-gen-ce-aaguid = the software
#                           token's AAGUID (70616d5f-7532-6620-736f-
#                           6674746f6b01); chain-aaguid.pem = leaf + int
#   leaf-noext.{key,pem}    the same without the AAGUID extension;
#                           chain-noext.pem
#   leaf-expired.{key,pem}  with the extension, valid 2020-2021 only;
#                           chain-expired.pem
#   leaf-ca.{key,pem}       with the extension but CA:TRUE; chain-ca.pem
#   other-root.pem, leaf-other.{key,pem}, chain-other.pem: a root the
#                           policy does not trust, and a leaf under it
#   mds-root.pem, mds-signer.{key,pem}: an RSA root for MDS BLOBs and
#                           the BLOB signer's key and certificate under it
# Usage: tests/policy/mkca.sh DIR
set -eu
dir=$1
mkdir -p "$dir"
cd "$dir"
umask 022
AAGUID=70:61:6d:5f:75:32:66:20:73:6f:66:74:74:6f:6b:01

cat >ext.cnf <<END
[ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[int]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[leaf]
basicConstraints = critical, CA:FALSE
1.3.6.1.4.1.45724.1.1.4 = DER:04:10:$AAGUID
[noext]
basicConstraints = critical, CA:FALSE
[leafca]
basicConstraints = critical, CA:TRUE
1.3.6.1.4.1.45724.1.1.4 = DER:04:10:$AAGUID
[signer]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
END

# A CA configuration for "openssl ca", which alone takes explicit dates.
mkdir -p newcerts
: >index.txt
echo 1000 >serial
cat >ca.cnf <<END
[ca]
default_ca = dflt
[dflt]
database = index.txt
new_certs_dir = newcerts
serial = serial
default_md = sha256
policy = any
unique_subject = no
[any]
commonName = supplied
END

subj_att() { echo "/C=SE/O=pam_u2f tests/OU=Authenticator Attestation/CN=$1"; }

ec_key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }

# self_signed NAME SUBJECT: NAME.key, NAME.pem
self_signed() {
	ec_key "$1.key"
	openssl req -new -x509 -key "$1.key" -subj "$2" -days 3650 \
		-config ext.cnf -extensions ca -out "$1.pem"
}

# issue NAME SUBJECT ISSUER SECTION [openssl ca date options]
issue() {
	name=$1 subj=$2 issuer=$3 section=$4
	shift 4
	[ -f "$name.key" ] || ec_key "$name.key"
	openssl req -new -key "$name.key" -subj "$subj" -out "$name.csr"
	if [ $# -gt 0 ]; then
		openssl ca -batch -config ca.cnf -cert "$issuer.pem" \
			-keyfile "$issuer.key" -in "$name.csr" -out "$name.pem" \
			-extfile ext.cnf -extensions "$section" -notext \
			-preserveDN "$@" 2>/dev/null
	else
		openssl x509 -req -in "$name.csr" -CA "$issuer.pem" \
			-CAkey "$issuer.key" -set_serial "0x$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')" \
			-days 3650 -extfile ext.cnf -extensions "$section" \
			-out "$name.pem" 2>/dev/null
	fi
	rm -f "$name.csr"
}

self_signed root "/C=SE/O=pam_u2f tests/CN=Attestation Root"
issue int "/C=SE/O=pam_u2f tests/CN=Attestation Intermediate" root int
issue leaf-aaguid "$(subj_att 'Approved Model')" int leaf
issue leaf-noext "$(subj_att 'Model Without AAGUID')" int noext
issue leaf-expired "$(subj_att 'Expired Model')" int leaf \
	-startdate 20200101000000Z -enddate 20210101000000Z
issue leaf-ca "$(subj_att 'CA Model')" int leafca
self_signed other-root "/C=SE/O=pam_u2f tests/CN=Untrusted Root"
issue leaf-other "$(subj_att 'Untrusted Model')" other-root leaf
for l in aaguid noext expired ca; do
	cat "leaf-$l.pem" int.pem >"chain-$l.pem"
done
cp leaf-other.pem chain-other.pem

# The MDS side: an RSA root and the BLOB signer (RS256).
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 \
	-out mds-root.key 2>/dev/null
openssl req -new -x509 -key mds-root.key -subj "/C=SE/O=pam_u2f tests/CN=MDS Root" \
	-days 3650 -config ext.cnf -extensions ca -out mds-root.pem
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 \
	-out mds-signer.key 2>/dev/null
issue mds-signer "/C=SE/O=pam_u2f tests/CN=MDS Signer" mds-root signer
