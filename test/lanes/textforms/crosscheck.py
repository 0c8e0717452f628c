# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
"""crosscheck.py IN OUT N (run by crosscheck.pl): check pg_uuidx's base32hex against Python's
base64.b32hexencode/b32hexdecode.  IN has lines "uuid<TAB>base32hex" written
by pg_uuidx; OUT receives N random ids as "uuid<TAB>padded base32hex" for
pg_uuidx to decode.  Prints "python: M mismatches of K", exits 1 on any."""
import base64
import os
import sys
import uuid

in_file, out_file, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
checked = bad = 0
with open(in_file) as f:
    for line in f:
        text_id, b32 = line.rstrip('\n').split('\t')
        raw = uuid.UUID(text_id).bytes
        for ok, what in ((base64.b32hexencode(raw).decode().rstrip('=') == b32, 'encode'),
                         (base64.b32hexdecode(b32 + '======') == raw, 'decode')):
            checked += 1
            if not ok:
                bad += 1
                if bad <= 5:
                    print(f'mismatch ({what}): {text_id} {b32}', file=sys.stderr)
with open(out_file, 'w') as f:
    for _ in range(n):
        raw = os.urandom(16)
        f.write(f'{uuid.UUID(bytes=raw)}\t{base64.b32hexencode(raw).decode()}\n')
print(f'python: {bad} mismatches of {checked}')
sys.exit(1 if bad else 0)
