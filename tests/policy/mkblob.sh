#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# A test FIDO MDS3 BLOB (a JWT signed RS256 by the test CA's MDS signer,
# tests/policy/mkca.sh), printed on standard output: serial NO,
# nextUpdate DATE (YYYY-MM-DD), one entry for AAGUID whose status
# reports are FIDO_CERTIFIED then STATUS (e.g. REVOKED; "-": none more),
# and one for the key identifier KEYID (FIDO_CERTIFIED).
# Usage: tests/policy/mkblob.sh CA_DIR NO DATE AAGUID STATUS KEYID
set -eu
ca=$1 no=$2 date=$3 aaguid=$4 status=$5 keyid=$6
b64url() { base64 -w0 | tr '+/' '-_' | tr -d '='; }
signer=$(openssl x509 -in "$ca/mds-signer.pem" -outform DER | base64 -w0)
reports='{"status": "FIDO_CERTIFIED", "effectiveDate": "2020-01-01"}'
[ "$status" = - ] ||
    reports="$reports, {\"status\": \"$status\", \"effectiveDate\": \"2024-05-01\"}"
h=$(printf '{"alg": "RS256", "typ": "JWT", "x5c": ["%s"]}' "$signer" | b64url)
p=$(printf '{"legalHeader": "test BLOB", "no": %s, "nextUpdate": "%s",
 "entries": [
  {"aaguid": "%s",
   "metadataStatement": {"description": "pam_u2f softtoken \\u0028test\\u0029", "aaguid": "%s", "upv": [{"major": 1, "minor": 0}], "x": [true, false, null, -1.5e3]},
   "statusReports": [%s],
   "timeOfLastStatusChange": "2024-05-01"},
  {"attestationCertificateKeyIdentifiers": ["%s"],
   "metadataStatement": {"description": "U2F test key"},
   "statusReports": [{"status": "FIDO_CERTIFIED"}]}
 ]}' "$no" "$date" "$aaguid" "$aaguid" "$reports" "$keyid" | b64url)
s=$(printf '%s.%s' "$h" "$p" | openssl dgst -sha256 -sign "$ca/mds-signer.key" | b64url)
printf '%s.%s.%s\n' "$h" "$p" "$s"
