/* SPDX-License-Identifier: BSD-2-Clause */
/* SubjectPublicKeyInfo vectors for tests/mapping/test_passkey.c, made once with
 * OpenSSL 3 (the commands below, then base64 of the DER); each a fresh
 * key, none used anywhere else. */
#ifndef PU_PASSKEYFIX_H
#define PU_PASSKEYFIX_H

/* P-256 (openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256;
 * openssl pkey -pubout -outform DER) */
#define SPKI_P256                                                              \
	"MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEniBuIq8jsPcb9D4nJiWHPVSMNr2q"     \
	"lI7jarw/K8H2ddhRQ0ZohF8R8qyBYoKd0lVFpsKb/Szh/u8pLHR16tAToQ=="

/* Ed25519 (openssl genpkey -algorithm ED25519) */
#define SPKI_ED25519                                                           \
	"MCowBQYDK2VwAyEA4Jcx8jwwpBo3AxyPg11NEDNf9CYFyEO7SAToLsWMRgA="

/* RSA 2048, e = 65537 (openssl genpkey -algorithm RSA -pkeyopt
 * rsa_keygen_bits:2048) */
#define SPKI_RSA2048                                                           \
	"MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAoq1zdWL3f/Rm13Vf4dCl"     \
	"EKQjkMBGTMR0UB7X73xCbWYQYMtqiO3uLpLz4IFUlVQneYilEr4IIutlykzbcH+p"     \
	"AkV6prhuj9Y0d4Vhqh9HJqUr2jIfMHsKSTIhdFP1RNMEuvFVhmvE0Z9FxFN4ic/0"     \
	"/O+oq1WsMqMiqcDeZrC5iNuinmusYVGVbAvJZNKEvlgnmGSxRr3zQ14WegBM3uUp"     \
	"8uZwnkbvXJH1dxYDI3Uu1ackDXGzfrNBR/SAesjKfyyA839ow62aNQmj1a1zp+zl"     \
	"uE79BsSIC8iQVZpt1sMHQB+uv7edrd7xqxD4TktR6MtOqEmtoHV//qpjJwwlTZne"     \
	"CQIDAQAB"

/* RSA 2048, e = 3 (-pkeyopt rsa_keygen_pubexp:3) */
#define SPKI_RSA2048_E3                                                        \
	"MIIBIDANBgkqhkiG9w0BAQEFAAOCAQ0AMIIBCAKCAQEAu9EDR4Fv0K8dCR/jxpgJ"     \
	"iirdZ63ffIchBMwGqgWSRyfiGu2AkXPKR17eFh8RuLFGMRGHTZx6g0sq6/KTSR9x"     \
	"Wsf5WDT+VmiuW4PpoFuIXtnjAyCna6eUKkRUo0ZIjYRYBJxVJBMB0TCwPEJBncbI"     \
	"VZE8gZFu/KhsxjQupN6EQpLknUw6ykfvGTtAC+pMobIWxgQciAsTIstlRG88rnzv"     \
	"1k1YqM1pf5GKdg5U7kGkp80AZGkJ6Oop4YFX+zC4U6BrDGRkb1nkuIRQSxMf9Q80"     \
	"eZvpILXFQAblHxlJiMSMHZiGmLddU4yunWCBZ3DK9VbOyWB4lyNt6tN71a9jXGUx"     \
	"ywIBAw=="

/* RSA 3072 (refused: rs256 lines hold 2048-bit keys) */
#define SPKI_RSA3072                                                           \
	"MIIBojANBgkqhkiG9w0BAQEFAAOCAY8AMIIBigKCAYEAxSe5Ap9cSi8THqnxWtWL"     \
	"mVeIGOtd/bWhfPmdHoCE9dDtmzOE7MGHY3WyO8Sm9ZhDlggrSeZWIm0397RZzjdo"     \
	"qF0xWC64kqTrfinl5pcXrTYaENuMfouX8ApXQzcKc0BSzDfJubpAssouLR/EYy3p"     \
	"BqFQ/0oN4nMIfAyIKPrcgd4G6uu/qjVPLAdWr02DKf5xNjkL7wOhdfV3z3oHibrc"     \
	"f0ddUbSkJPa0S+5bw149XqUhYLCVKpxEOnjx8Lg5flkoMzk4lkAQHaQjo0LFJzeD"     \
	"XwjpZ9glGi6H2INingsHZzVPLqz0tb7UTOzILTyxKwYRPfWfW641Ku1Fq1tTk+JB"     \
	"kX1r4wni2HmOz12AOkvpw3x7easb41JOOkqufHcC5UUl601AC23PsMilttVmhwFM"     \
	"Hs4RImILBCvvDFQZEC97rvf/JaE/FVBtGA66GKaHSbh/8UBdrLPSBYCPH91jAAvx"     \
	"a/wJ3zaAGeFtYKXsqJK6ilyRArb/VyyTK61Fghko+qD9AgMBAAE="

/* RSA 2047 (-pkeyopt rsa_keygen_bits:2047: a 256-byte modulus below
 * 2^2047; refused) */
#define SPKI_RSA2047                                                           \
	"MIIBITANBgkqhkiG9w0BAQEFAAOCAQ4AMIIBCQKCAQBbEQh6Zr/OpIMZWpP/6E37"     \
	"l/dSF05VAnFfoxuqI96xrhoeJEcGMPkSxtAFOxJwaPOGdWnMmEMAyKh7POIXM/Zl"     \
	"YHAA23muD/0TTyua8v8SBNMmFdaIUsB/ZwI3l837soUxUrgNBMjOxA0orhEH0R7+"     \
	"WLDHE+FdrkcH42umfSNaO8Hz1WZHUC5Ms+vNMKeQBJmJUd+4czPiewxHvCh2FgS8"     \
	"jbG+j+QHro1ERIsIvtPIMMhs0J7JsSiFeGV7Up0oR5PtvwQdDp7hN2MIEnwHP2Bm"     \
	"5q3/WlwUde7j73XJv09prAcmwMdn6Rad/rHbD936hc6POwUpEZNv3xHiu0PtyMaP"     \
	"AgMBAAE="

/* P-384 (refused) */
#define SPKI_P384                                                              \
	"MHYwEAYHKoZIzj0CAQYFK4EEACIDYgAEMD1Lv0Ab8SIEB3012/1BE2QiOIhu6ATl"     \
	"DETrTqxA+AqEJ/0JgWbdYm93lQohY0gVh0ahs3q4R1VbENz5pxAcABaKomd909HV"     \
	"WbZzb3IygB8U4vLwVIh9jdnsjolkWzew"

/* secp256k1 (refused) */
#define SPKI_K256                                                              \
	"MFYwEAYHKoZIzj0CAQYFK4EEAAoDQgAEGi88pHGqYxAoAuyjU3ssVHWpOasRCjns"     \
	"EPZAvKg2gLX2f3cxw95PICFSXIeQq5JxNwXH23dmByueH/T5DNynQg=="

/* the P-256 key above, compressed point (openssl ec -conv_form compressed;
 * refused) */
#define SPKI_P256C                                                             \
	"MDkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDIgADniBuIq8jsPcb9D4nJiWHPVSMNr2q"     \
	"lI7jarw/K8H2ddg="

/* Ed448 (refused) */
#define SPKI_ED448                                                             \
	"MEMwBQYDK2VxAzoAEu0AIp5I/nNEc4kFc2GNGtLDBDAog0gprjrK75FW51maMHLV"     \
	"dddIfHm77CfFxIz9U7jKNloSaCSA"

#endif
