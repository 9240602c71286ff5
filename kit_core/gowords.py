"""Go's lexical tables, written once: keywords, predeclared identifiers and the names of the
standard library's packages (tests/test_gowords.py checks the last against the Go install)."""

from __future__ import annotations

KEYWORDS = frozenset(
    "break case chan const continue default defer else fallthrough for func go goto if import interface map "
    "package range return select struct switch type var".split()
)

PREDECLARED = frozenset(
    "any append bool byte cap clear close comparable complex complex64 complex128 copy delete error false "
    "float32 float64 imag int int8 int16 int32 int64 iota len make max min new nil panic print println real "
    "recover rune string true uint uint8 uint16 uint32 uint64 uintptr".split()
)

# The last element of every importable standard-library path (`net/http` -> `http`): a
# generated import named like one of them would hide that package in the file.
STD_PACKAGES = frozenset(
    "adler32 aes ascii85 asn1 ast atomic base32 base64 big binary bits bufio build buildinfo bytes "
    "bzip2 cgi cgo cipher cmp cmplx color comment constant constraint context cookiejar coverage "
    "crc32 crc64 crypto cryptotest csv debug des doc draw driver dsa dwarf ecdh ecdsa ed25519 elf "
    "elliptic embed encoding errors exec expvar fcgi filepath fips140 flag flate fmt fnv format fs "
    "fstest gif gob gosym gzip hash heap hex hkdf hmac hpke html http httptest httptrace httputil "
    "image importer io iotest ioutil iter jpeg json jsonrpc list log lzw macho mail maphash maps "
    "math md5 metrics mime mlkem mlkemtest multipart net netip os palette parse parser path pbkdf2 "
    "pe pem pkix plan9obj plugin png pprof printer quick quotedprintable race rand rc4 reflect "
    "regexp ring rpc rsa runtime scanner sha1 sha256 sha3 sha512 signal slices slog slogtest smtp "
    "sort sql strconv strings structs subtle suffixarray sync synctest syntax syscall syslog "
    "tabwriter tar template testing textproto time tls token trace types tzdata unicode unique "
    "unsafe url user utf16 utf8 v2 version weak x509 xml zip zlib".split()
)
