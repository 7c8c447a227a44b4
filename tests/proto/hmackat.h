/* SPDX-License-Identifier: BSD-2-Clause */
/* Made by tests/proto/hmackat.py (see there for every source). */
#ifndef PU_HMACKAT_H
#define PU_HMACKAT_H

/* a salt, an output (SHA-256 of fixed texts) */
#define HK_SALT                                                                \
	"119b5c00dc22c7133396552124c5c45376d722a888aa4487dddba706538b0ca5"
#define HK_OUTPUT                                                              \
	"78343915a7f20c7f31959e79a754fda0035a73c01bada2f6952ee5aa374514f3"
/* MakeCredential: cdh 00..1f, rp example.org, user 01 x 32 alice, ES256,
 * extensions {hmac-secret: true} */
#define HK_MC                                                                  \
	"01a5015820000102030405060708090a0b0c0d0e0f101112131415161718191a"     \
	"1b1c1d1e1f02a26269646b6578616d706c652e6f7267646e616d656b6578616d"     \
	"706c652e6f726703a36269645820010101010101010101010101010101010101"     \
	"0101010101010101010101010101646e616d6565616c6963656b646973706c61"     \
	"794e616d6565616c6963650481a263616c672664747970656a7075626c69632d"     \
	"6b657906a16b686d61632d736563726574f5"
/* ... with credProtect 2 as well */
#define HK_MC_PROT                                                             \
	"01a5015820000102030405060708090a0b0c0d0e0f101112131415161718191a"     \
	"1b1c1d1e1f02a26269646b6578616d706c652e6f7267646e616d656b6578616d"     \
	"706c652e6f726703a36269645820010101010101010101010101010101010101"     \
	"0101010101010101010101010101646e616d6565616c6963656b646973706c61"     \
	"794e616d6565616c6963650481a263616c672664747970656a7075626c69632d"     \
	"6b657906a26b6372656450726f74656374026b686d61632d736563726574f5"
/* protocol 1: saltEnc (protocol 2: IV b0..bf), saltAuth */
#define HK1_SALT_ENC                                                           \
	"583071f5a8526cb48cab734dd0ca3d2a26be69e4e3c718c143776cfe1aaeda61"
#define HK1_SALT_AUTH "e5b09f26662aac7c3b0dabbb7c4b2f57"
/* protocol 1: GetAssertion with the hmac-secret input and a pinUvAuthParam 55 x
 * 16 / 32 */
#define HK1_GA                                                                 \
	"02a6016b6578616d706c652e6f7267025820000102030405060708090a0b0c0d"     \
	"0e0f101112131415161718191a1b1c1d1e1f0381a262696450aaaaaaaaaaaaaa"     \
	"aaaaaaaaaaaaaaaaaa64747970656a7075626c69632d6b657904a16b686d6163"     \
	"2d736563726574a301a501020338182001215820945bafbfe49bbffe5c33d49c"     \
	"d083da75ce805aaf1f2a82cfb010e0968163582a22582040f7f692a325069e22"     \
	"cc0fe04c0e68322f4459e45106d54325ee23b8c66bd184025820583071f5a852"     \
	"6cb48cab734dd0ca3d2a26be69e4e3c718c143776cfe1aaeda610350e5b09f26"     \
	"662aac7c3b0dabbb7c4b2f570650555555555555555555555555555555550701"
/* protocol 1: authData extensions with the encrypted output */
#define HK1_EXT_OUT                                                            \
	"a16b686d61632d73656372657458200b0a826801123d4ebf8824daafc4931fca"     \
	"041338124c290b567943355bd48585"
/* ... with two outputs (we ask for one: refused) */
#define HK1_EXT_TWO                                                            \
	"a16b686d61632d73656372657458400b0a826801123d4ebf8824daafc4931fca"     \
	"041338124c290b567943355bd48585fadffaa989803ed29294299bb2c0979c3d"     \
	"b1ebd55988e2ac63e18d88066356bc"
/* protocol 2: saltEnc (protocol 2: IV b0..bf), saltAuth */
#define HK2_SALT_ENC                                                           \
	"b0b1b2b3b4b5b6b7b8b9babbbcbdbebfd545da2640c7d79297d99ed3b76d1def"     \
	"32410e12883860242d9e4847ad0e6745"
#define HK2_SALT_AUTH                                                          \
	"a7ce96789ad67d0b6da5bb5732bd6e3c23ce72c4048a0beb1db6f3100d0efb71"
/* protocol 2: GetAssertion with the hmac-secret input and a pinUvAuthParam 55 x
 * 16 / 32 */
#define HK2_GA                                                                 \
	"02a6016b6578616d706c652e6f7267025820000102030405060708090a0b0c0d"     \
	"0e0f101112131415161718191a1b1c1d1e1f0381a262696450aaaaaaaaaaaaaa"     \
	"aaaaaaaaaaaaaaaaaa64747970656a7075626c69632d6b657904a16b686d6163"     \
	"2d736563726574a401a501020338182001215820945bafbfe49bbffe5c33d49c"     \
	"d083da75ce805aaf1f2a82cfb010e0968163582a22582040f7f692a325069e22"     \
	"cc0fe04c0e68322f4459e45106d54325ee23b8c66bd184025830b0b1b2b3b4b5"     \
	"b6b7b8b9babbbcbdbebfd545da2640c7d79297d99ed3b76d1def32410e128838"     \
	"60242d9e4847ad0e6745035820a7ce96789ad67d0b6da5bb5732bd6e3c23ce72"     \
	"c4048a0beb1db6f3100d0efb7104020658205555555555555555555555555555"     \
	"5555555555555555555555555555555555550702"
/* protocol 2: authData extensions with the encrypted output */
#define HK2_EXT_OUT                                                            \
	"a16b686d61632d7365637265745830b0b1b2b3b4b5b6b7b8b9babbbcbdbebf92"     \
	"2326c49225d0677d030e29679c283796927a0a0dbd6fa8b86fda7baf95eba2"
/* ... with two outputs (we ask for one: refused) */
#define HK2_EXT_TWO                                                            \
	"a16b686d61632d736563726574585073bed676b2606ddb909093c191885050a2"     \
	"c3ae8a4002971ab35e8d19cada9a901de470e8f5fe81a45ff8671cdbe202ef42"     \
	"b5769bb05cad40545a06bf9710b69773688de00c31470622a95b8bdc2e7d6b"
/* MakeCredential authData extensions */
#define HK_EXT_MC "a26b6372656450726f74656374026b686d61632d736563726574f5"

#endif
