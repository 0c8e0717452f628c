"""test/t/base32hex_ref.py make SEED N OUT | check IN - base32hex computed
without pg_uuidx, for test/t/075_base32hex.pl, by Python's
base64.b32hexencode/b32hexdecode (RFC 4648 section 7).

make: N random ids (random.Random(SEED)) plus fixed edges, one line each in
OUT: the uuid, its padded base32hex, and the same text as pg_uuidx must also
read it: unpadded or padded, upper, lower or mixed case (the choice seeded
too).  Prints one line describing the ids.

check: IN has lines "uuid<TAB>text" that pg_uuidx wrote for ids it made
itself; each text must decode, padded, to the uuid's bytes, and encoding the
bytes again must give the text.  Prints "python: M mismatches of K" and exits
1 on any.

Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)"""
import base64
import random
import sys
import uuid


def edges():
    """nil, max, every single bit set, and every single bit clear"""
    yield bytes(16)
    yield b'\xff' * 16
    for bit in range(128):
        yield (1 << bit).to_bytes(16, 'big')
        yield ((1 << 128) - 1 - (1 << bit)).to_bytes(16, 'big')


def make(seed, n, out_file):
    rng = random.Random(seed)
    ids = list(edges()) + [rng.getrandbits(128).to_bytes(16, 'big') for _ in range(n)]
    with open(out_file, 'w') as f:
        for raw in ids:
            padded = base64.b32hexencode(raw).decode('ascii')
            text = padded if rng.random() < 0.5 else padded.rstrip('=')
            case = rng.randrange(3)
            if case == 1:
                text = text.lower()
            elif case == 2:
                text = ''.join(c.lower() if rng.random() < 0.5 else c for c in text)
            f.write(f'{uuid.UUID(bytes=raw)}\t{padded}\t{text}\n')
    print(f'{len(ids)} ids ({len(ids) - n} edges), seed {seed}')


def check(in_file):
    checked = bad = 0
    with open(in_file) as f:
        for line in f:
            text_id, b32 = line.rstrip('\n').split('\t')
            raw = uuid.UUID(text_id).bytes
            try:
                decoded = base64.b32hexdecode(b32 + '=' * (-len(b32) % 8))
            except ValueError as e:
                decoded = repr(e)
            for ok, what in ((decoded == raw, 'decode'),
                             (base64.b32hexencode(raw).decode('ascii').rstrip('=') == b32, 'encode')):
                checked += 1
                if not ok:
                    bad += 1
                    if bad <= 5:
                        print(f'mismatch ({what}): {text_id} {b32}', file=sys.stderr)
    print(f'python: {bad} mismatches of {checked}')
    return 1 if bad or not checked else 0


if __name__ == '__main__':
    if sys.argv[1] == 'make':
        make(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    else:
        sys.exit(check(sys.argv[2]))
