"""test/t/namebased_ref.py SEED N OUT - N random name-based cases and their
ids computed without pg_uuidx, for test/t/080_namebased.pl.

Each line of OUT (tab-separated): kind ("text" or "bytea"), namespace ("dns",
"url", "oid" or "x500"), the name's bytes in hex (a text name as UTF-8), then
the expected uuidv3, uuidv5 and uuid_v8_sha256 ids.  v3 and v5 come from
Python's uuid module; v8 is RFC 9562 Appendix B.2's construction: SHA-256 over
the 16 namespace bytes then the name bytes, the first 16 bytes kept, version 8
and the variant set.  The first cases are the RFC's own vectors.  Prints one
line describing the cases.

Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)"""
import hashlib
import random
import sys
import uuid

NAMESPACES = {'dns': uuid.NAMESPACE_DNS, 'url': uuid.NAMESPACE_URL,
              'oid': uuid.NAMESPACE_OID, 'x500': uuid.NAMESPACE_X500}

# code points for text names: ASCII, Latin-1, Greek and Cyrillic, CJK, and
# outside the BMP (4 UTF-8 bytes); no NUL, which text cannot hold
RANGES = [(0x01, 0x7f), (0xa0, 0xff), (0x370, 0x4ff), (0x4e00, 0x9fff), (0x1f300, 0x1faff)]


def v8_sha256(namespace, name):
    b = bytearray(hashlib.sha256(namespace.bytes + name).digest()[:16])
    b[6] = (b[6] & 0x0f) | 0x80
    b[8] = (b[8] & 0x3f) | 0x80
    return uuid.UUID(bytes=bytes(b))


def by_module(namespace, name, text):
    """uuid3 and uuid5 of a name; bytes names go to uuid3/uuid5 directly
    from Python 3.12 on, before that through uuid.UUID(version=) over the
    digest, which is what uuid3/uuid5 do with the UTF-8 of a str"""
    if text is not None:
        return uuid.uuid3(namespace, text), uuid.uuid5(namespace, text)
    if sys.version_info >= (3, 12):
        return uuid.uuid3(namespace, name), uuid.uuid5(namespace, name)
    return (uuid.UUID(bytes=hashlib.md5(namespace.bytes + name).digest()[:16], version=3),
            uuid.UUID(bytes=hashlib.sha1(namespace.bytes + name).digest()[:16], version=5))


def length(rng, longest):
    r = rng.random()
    if r < 0.4:
        return rng.randint(0, 16)
    if r < 0.8:
        return rng.randint(17, 255)
    return rng.randint(256, longest)


def main():
    seed, n, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    rng = random.Random(seed)
    cases = [('text', 'dns', 'www.example.com')]
    for i in range(n - len(cases)):
        ns = rng.choice(sorted(NAMESPACES))
        if i % 2:
            cases.append(('bytea', ns, bytes(rng.getrandbits(8) for _ in range(length(rng, 4096)))))
        else:
            cases.append(('text', ns, ''.join(chr(rng.randint(*rng.choice(RANGES)))
                                              for _ in range(length(rng, 1500)))))
    longest = nonascii = 0
    with open(out, 'w') as f:
        for kind, ns, name in cases:
            text = name if kind == 'text' else None
            raw = name.encode('utf-8') if kind == 'text' else name
            v3, v5 = by_module(NAMESPACES[ns], raw, text)
            if text is not None:
                # the bytes route agrees with the module's own on text names
                assert (v3, v5) == by_module(NAMESPACES[ns], raw, None)
                nonascii += any(ord(c) > 0x7f for c in text)
            longest = max(longest, len(raw))
            f.write('\t'.join([kind, ns, raw.hex(), str(v3), str(v5), str(v8_sha256(NAMESPACES[ns], raw))]) + '\n')
    # RFC 9562's vectors for the DNS namespace and "www.example.com"
    ex = cases[0][2].encode()
    assert str(uuid.uuid3(uuid.NAMESPACE_DNS, 'www.example.com')) == '5df41881-3aed-3515-88a7-2f4a814cf09e'
    assert str(uuid.uuid5(uuid.NAMESPACE_DNS, 'www.example.com')) == '2ed6657d-e927-568b-95e1-2665a8aea6a2'
    assert str(v8_sha256(uuid.NAMESPACE_DNS, ex)) == '5c146b14-3c52-8afd-938a-375d0df1fbf6'
    kinds = [c[0] for c in cases]
    print(f'{len(cases)} cases: {kinds.count("text")} text ({nonascii} with non-ASCII), '
          f'{kinds.count("bytea")} bytea, longest name {longest} bytes')


main()
